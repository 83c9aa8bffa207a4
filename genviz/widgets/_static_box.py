"""What an item box (answer, choice, prediction, observation, open question, review) shows where
no widget manager runs: GitHub, nbviewer, an HTML export, the course website, a text console."""

from __future__ import annotations

__all__ = ["StaticFallback"]


class StaticFallback:
    """Mix in before the ipywidgets box: the live widget where a widget manager runs; elsewhere
    the ``text/html`` and ``text/plain`` of the box's ``_static()``, a pair ``(html, text)``."""

    def _static(self) -> tuple[str, str]:  # pragma: no cover - every box defines its own
        raise NotImplementedError

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        data = super()._repr_mimebundle_(include=include, exclude=exclude, **kwargs)
        if isinstance(data, tuple):
            data = data[0]
        page, text = self._static()
        return {**data, "text/html": page, "text/plain": text}

"""What an item box (answer, choice, prediction, observation, open question, review) shows where
no widget manager runs: GitHub, nbviewer, an HTML export, the course website, a text console."""

from __future__ import annotations

__all__ = ["StaticFallback", "static_card"]


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


def static_card(kind: str, lead, instruction: str, *, options=(), folds=()) -> str:
    """The HTML every item box shows where no widget manager runs, in reading order: a card
    of classes ``genviz-exercise`` + ``kind`` (``""``: none more); ``lead``, a pair (label,
    HTML) read as "**label.** HTML", or None; ``options`` (HTML each) as an unnumbered list;
    ``instruction`` (HTML: what to do before reading on) in italics; and each (summary, HTML)
    of ``folds`` folded in ``<details>``, closed.

    Examples
    --------
    >>> card = static_card("genviz-choice", ("Question", "Which?"), "Choose first.",
    ...                    options=["(a) one", "(b) two"], folds=[("Answer", "<p>(b)</p>")])
    >>> print(card.replace("><", ">\\n<"))
    <div class="genviz-exercise genviz-choice tex2jax_process">
    <p>
    <b>Question.</b> Which?</p>
    <ul class="genviz-options" style="list-style:none;padding-left:1em">
    <li>(a) one</li>
    <li>(b) two</li>
    </ul>
    <p>
    <i>Choose first.</i>
    </p>
    <details>
    <summary>Answer</summary>
    <p>(b)</p>
    </details>
    </div>
    """
    classes = " ".join(c for c in ("genviz-exercise", kind, "tex2jax_process") if c)
    head = "" if lead is None else f"<p><b>{lead[0]}.</b> {lead[1]}</p>"
    listed = "".join(f"<li>{o}</li>" for o in options)
    listed = (f'<ul class="genviz-options" style="list-style:none;padding-left:1em">{listed}</ul>'
              if listed else "")
    folded = "".join(f"<details><summary>{summary}</summary>{body}</details>"
                     for summary, body in folds)
    return f'<div class="{classes}">{head}{listed}<p><i>{instruction}</i></p>{folded}</div>'

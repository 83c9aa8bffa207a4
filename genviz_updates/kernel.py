"""The kernel's side of course updates: an IPython extension (``--ext genviz_updates.kernel``).

On a hub every kernel loads it (deploy/singleuser's kernel spec). It

1. makes ``import genviz`` load the genviz of the student's clone of the course, when the
   notebook is in one (``<clone>/genviz/__init__.py``), so a library or data fix the course
   publishes arrives with the same click as the notebooks (and a kernel started before it is
   told to restart); elsewhere the installed genviz, never a folder merely named ``genviz``
   (the clone's own top folder ``~/genviz`` seen from a notebook in ``~``, which Python would
   import as an empty namespace package ahead of an editable install: issue #39);
2. registers a ``pre_run_cell`` hook that prints, under the cell being run, what the latest
   course update did not deliver to this notebook (``genviz_updates.notices.Watcher``): at the
   first cell after a click, even when the kernel was already running; once per merge; and
   under the text the course's new images of a cell whose image attachment changed.

Any failure is silent: a notice must never break a student's cell. This module imports
IPython only to display such an image (``IPython.display``, in the kernel's process).
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import os
import sys
import time
from pathlib import Path

__all__ = ["load_ipython_extension", "CloneFinder", "InstalledFinder", "clone_of"]


def clone_of(notebook) -> Path | None:
    """The top of the course clone holding ``notebook`` if it carries genviz, else None."""
    from genviz_updates.notices import find_repo

    found = find_repo(notebook) if notebook else None
    if found and (found[0] / "genviz" / "__init__.py").is_file():
        return found[0]
    return None


class CloneFinder:
    """A meta path finder for the top-level ``genviz`` package only, from ``top``."""

    def __init__(self, top):
        self.top = str(top)

    def find_spec(self, name, path=None, target=None):
        if name != "genviz":
            return None
        return importlib.machinery.PathFinder.find_spec(name, [self.top])


class InstalledFinder:
    """A meta path finder for the top-level ``genviz`` package only: the first *regular*
    package the other finders offer (the installed genviz, also an editable install's),
    skipping a namespace package -- a folder named ``genviz`` without ``__init__.py``."""

    def find_spec(self, name, path=None, target=None):
        if name != "genviz":
            return None
        for finder in list(sys.meta_path):
            # our own finders are skipped, not only this one: two of them asking each other
            # (the extension loaded twice, a %reload_ext) recursed until RecursionError
            if isinstance(finder, _OURS) or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None and spec.origin not in (None, "namespace"):
                return spec
        return None


_OURS = (CloneFinder, InstalledFinder)
#: the notice hook this process registered (a reload replaces it: one notice, not two)
_registered = None


def load_ipython_extension(ipython) -> None:
    """Install the clone's genviz (if any) and the notice hook on ``ipython``'s events. Loaded
    again (``%reload_ext``, or listed twice) it replaces its finder and its hook."""
    global _registered
    started = time.time()
    try:
        from genviz_updates.notices import Watcher

        session = os.environ.get("JPY_SESSION_NAME", "")
        notebook = session if session.endswith(".ipynb") and Path(session).is_file() else None
        top = clone_of(notebook)
        if "genviz" not in sys.modules:
            sys.meta_path[:] = [f for f in sys.meta_path if not isinstance(f, _OURS)]
            sys.meta_path.insert(0, CloneFinder(top) if top is not None else InstalledFinder())
        watcher = Watcher(notebook, started=started)
    except Exception:  # noqa: BLE001
        return

    def notify(*_):
        try:
            text = watcher.check(library_loaded="genviz" in sys.modules)
            if text:
                print(text + "\n", flush=True)
            for image in watcher.images:
                print(f"The course's new image attachment:{image['name']}:", flush=True)
                show_image(image)
        except Exception:  # noqa: BLE001 (never break the student's cell)
            pass

    if _registered is not None:
        # not registered on this shell (ValueError), or a shell without unregister: the old
        # hook stays, as before -- loading never fails
        with contextlib.suppress(ValueError, AttributeError):
            ipython.events.unregister("pre_run_cell", _registered)
    ipython.events.register("pre_run_cell", notify)
    _registered = notify


def show_image(image: dict) -> None:
    """Display one of a notice's images (``{name, mime, data}``: base64 text, an SVG's XML)
    under the cell being run."""
    from IPython.display import SVG, Image, display

    if image["mime"] == "image/svg+xml":
        display(SVG(data=image["data"]))
    else:
        import base64

        display(Image(data=base64.b64decode(image["data"]),
                      format=image["mime"].split("/", 1)[1]))

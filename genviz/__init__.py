"""genviz: interactive notebooks and a small tested library for generative learning algorithms.

Computation modules (``genviz.gaussian``, ``genviz.gda``, ...) use numpy and scipy only;
drawing lives in ``genviz.plots`` (matplotlib) and controls in ``genviz.widgets``
(ipywidgets). Importing ``genviz`` itself loads none of them, so it stays fast.
"""

_VERSION = "0.1.0"
__all__ = ["__version__", "NotFittedError"]


def _source() -> tuple[str, str]:
    """(kind, folder) of this genviz: ``installed`` when it is the environment's own (the
    installed distribution's files, editable or not), else ``clone`` (another copy: a course
    clone that genviz_updates.kernel imports on purpose, or a work tree on ``PYTHONPATH``).

    Which genviz a notebook imports (issue #39): inside the course clone the clone's (so a fix
    arrives with the notebooks), anywhere else the installed one -- never a folder that is
    merely named ``genviz`` (a namespace package); docs/teach_a_class.md.
    """
    import importlib.metadata
    import json
    import pathlib
    import urllib.parse

    here = pathlib.Path(__file__).resolve().parent
    try:
        dist = importlib.metadata.distribution("genviz")
        direct = json.loads(dist.read_text("direct_url.json") or "{}")
        if direct.get("dir_info", {}).get("editable") and direct.get("url", "").startswith("file:"):
            installed = pathlib.Path(urllib.parse.unquote(urllib.parse.urlparse(direct["url"]).path))
            installed = installed / "genviz"
        else:
            installed = pathlib.Path(dist.locate_file("genviz"))
        same = installed.resolve() == here
    except Exception:  # noqa: BLE001 (not installed, unreadable metadata: another copy)
        same = False
    return ("installed" if same else "clone"), str(here)


def __getattr__(name):
    # ``genviz.__version__``: the version, and which genviz this is: "0.1.0" for the installed
    # one, "0.1.0+clone" for another copy; ``genviz.__source__`` says where ("clone at DIR").
    # Computed on first use (reading the distribution's metadata costs ~10 ms).
    if name in ("__version__", "__source__"):
        kind, where = _source()
        globals().update(__version__=_VERSION if kind == "installed" else f"{_VERSION}+{kind}",
                         __source__=f"{kind} at {where}")
        return globals()[name]
    # ``genviz.NotFittedError`` (the one not-fitted error of every estimator), loaded lazily so
    # that ``import genviz`` stays free of numpy.
    if name == "NotFittedError":
        from genviz._validation import NotFittedError

        return NotFittedError
    raise AttributeError(f"module 'genviz' has no attribute {name!r}")

"""genviz: interactive notebooks and a small tested library for generative learning algorithms.

Computation modules (``genviz.gaussian``, ``genviz.gda``, ...) use numpy and scipy only;
drawing lives in ``genviz.plots`` (matplotlib) and controls in ``genviz.widgets``
(ipywidgets). Importing ``genviz`` itself loads none of them, so it stays fast.
"""

__version__ = "0.1.0"
__all__ = ["__version__", "NotFittedError"]


def __getattr__(name):
    # ``genviz.NotFittedError`` (the one not-fitted error of every estimator), loaded lazily so
    # that ``import genviz`` stays free of numpy.
    if name == "NotFittedError":
        from genviz._validation import NotFittedError

        return NotFittedError
    raise AttributeError(f"module 'genviz' has no attribute {name!r}")

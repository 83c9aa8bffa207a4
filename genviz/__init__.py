"""genviz: interactive notebooks and a small tested library for generative learning algorithms.

Computation modules (``genviz.gaussian``, ``genviz.gda``, ...) use numpy and scipy only;
drawing lives in ``genviz.plots`` (matplotlib) and controls in ``genviz.widgets``
(ipywidgets). Importing ``genviz`` itself loads none of them, so it stays fast.
"""

__version__ = "0.1.0"
__all__ = ["__version__"]

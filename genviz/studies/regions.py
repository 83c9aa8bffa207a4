"""What the decision-regions figure shows (notebooks 08 and 09), computed: fitted
classifiers evaluated on one :func:`genviz.grids.grid_2d` and scored with
:func:`genviz.model_selection.accuracy` (:func:`decision_regions_figure_study`).
:mod:`genviz.plots.regions` paints it."""

from __future__ import annotations

import numpy as np

from genviz._validation import check_int, check_labels, check_points, check_scalar
from genviz.grids import data_box, grid_2d
from genviz.model_selection import accuracy
from genviz.studies._base import Result

__all__ = ["RegionsPanel", "DecisionRegionsResult", "decision_regions_figure_study"]


class RegionsPanel(Result):
    """One model of :func:`decision_regions_figure_study`.

    Attributes
    ----------
    name : str
    codes : ndarray of shape (n_grid, n_grid), dtype=int
        The predicted class's index in ``classes`` at every grid node.
    accuracy : float
        On the test set when given, else on the training set.
    """

    name: str
    codes: np.ndarray
    accuracy: float


class DecisionRegionsResult(Result):
    """Result of :func:`decision_regions_figure_study`.

    Attributes
    ----------
    extent : tuple of float
        The window ``(x0, x1, y0, y1)``.
    aspect : str
        ``"equal"`` or ``"auto"``.
    classes : ndarray of shape (n_classes,)
        Every label of the training and test sets, sorted (class k gets ``CLASS_COLORS[k]``).
    class_points : tuple of ndarrays of shape (n_c, 2)
        The training points of each class.
    panels : tuple of RegionsPanel
    which : str
        ``"test"`` or ``"training"``: where the accuracies were measured.
    accuracies : dict
        Name -> accuracy.
    """

    extent: tuple
    aspect: str
    classes: np.ndarray
    class_points: tuple
    panels: tuple
    which: str
    accuracies: dict


def _window(X, box, lim, n_grid, aspect):
    """The regions' grid (``lim``, else ``box``, else the data plus 8 %) and the axes' aspect."""
    if lim is not None:
        box = grid_2d(check_scalar(lim, "lim", low=0.0, low_open=True), 2).extent
    elif box is None:
        box = data_box(X, rel_pad=0.08)
    grid = grid_2d(box, check_int(n_grid, "n_grid", low=3))
    if aspect is None:
        w, h = grid.extent[1] - grid.extent[0], grid.extent[3] - grid.extent[2]
        aspect = "equal" if max(w, h) < 2 * min(w, h) else "auto"
    elif aspect not in ("equal", "auto"):
        raise ValueError(f"aspect must be 'equal', 'auto' or None, got {aspect!r}")
    return grid, aspect


def decision_regions_figure_study(models, X, y, X_test=None, y_test=None, *, box=None, lim=None,
                                  n_grid=151, aspect=None) -> DecisionRegionsResult:
    """Each fitted 2-feature classifier's predicted class over a grid, and its accuracy (see
    :func:`genviz.plots.regions.decision_regions_figure` for the parameters).

    Examples
    --------
    >>> from genviz.knn import KNNClassifier
    >>> X, y = [[0.0, 0.0], [1.0, 1.0]], [0, 1]
    >>> r = decision_regions_figure_study({"1-NN": KNNClassifier(1).fit(X, y)}, X, y, n_grid=3)
    >>> r.panels[0].codes.tolist(), r.accuracies, r.which
    ([[0, 0, 0], [0, 1, 1], [0, 1, 1]], {'1-NN': 1.0}, 'training')
    """
    if not models:
        raise ValueError("models is empty; pass {name: fitted model}")
    X = check_points(X, "X", d=2)
    y = check_labels(y, X.shape[0])
    if (X_test is None) != (y_test is None):
        raise ValueError("pass both X_test and y_test, or neither")
    if X_test is not None:
        X_test = check_points(X_test, "X_test", d=2)
        y_test = check_labels(y_test, X_test.shape[0], "y_test")
    grid, aspect = _window(X, box, lim, n_grid, aspect)
    classes = np.unique(y if y_test is None else np.concatenate([y, y_test]))
    X_s, y_s, which = (X, y, "training") if X_test is None else (X_test, y_test, "test")
    panels, accs = [], {}
    for name, model in models.items():
        codes = np.searchsorted(classes, grid.evaluate(model.predict))
        accs[name] = accuracy(y_s, model.predict(X_s))
        panels.append(RegionsPanel(name, codes, accs[name]))
    return DecisionRegionsResult(grid.extent, aspect, classes, tuple(X[y == c] for c in classes),
                                 tuple(panels), which, accs)

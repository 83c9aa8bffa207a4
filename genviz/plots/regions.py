"""Decision regions of fitted classifiers in the plane (notebooks 08 and 09).

One static figure for every topic whose models classify 2-D points (k-NN, naive Bayes, GDA): the
models are evaluated on one :func:`genviz.grids.grid_2d` and scored with
:func:`genviz.model_selection.accuracy`; this module only draws.
"""

from __future__ import annotations

import numpy as np
from matplotlib.colors import ListedColormap, to_rgb

from genviz._validation import check_int, check_labels, check_points, check_scalar
from genviz.grids import data_box, grid_2d
from genviz.model_selection import accuracy
from genviz.plots._base import finish_layout, new_figure
from genviz.plots.style import CLASS_COLORS, explorer_figsize

__all__ = ["decision_regions_figure", "light"]


def light(color, amount=0.75):
    """``color`` mixed with white (``amount`` = 0: the colour, 1: white): region shading."""
    r, g, b = to_rgb(color)
    return (r + (1 - r) * amount, g + (1 - g) * amount, b + (1 - b) * amount)


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


def _regions_panel(ax, model, grid, aspect, cmap, classes, X, y):
    """One panel: the model's predicted class over the grid, and the training points."""
    codes = np.searchsorted(classes, grid.evaluate(model.predict))
    ax.imshow(codes, origin="lower", extent=grid.extent, aspect=aspect,
              cmap=cmap, vmin=-0.5, vmax=classes.size - 0.5, interpolation="nearest")
    for k, c in enumerate(classes):
        sel = y == c
        ax.scatter(X[sel, 0], X[sel, 1], s=12, color=CLASS_COLORS[k % len(CLASS_COLORS)],
                   edgecolor="white", linewidth=0.4, label=str(c))
    ax.set_xlim(grid.extent[:2])
    ax.set_ylim(grid.extent[2:])


def decision_regions_figure(models, X, y, X_test=None, y_test=None, *, box=None, lim=None,
                            feature_names=("$x_1$", "$x_2$"), n_grid=151, aspect=None,
                            figsize=None):
    """Decision regions of fitted 2-feature classifiers side by side, accuracy in each title.

    Parameters
    ----------
    models : dict
        Name -> fitted classifier with ``predict`` (labels as in ``y``).
    X : array_like of shape (n_samples, 2)
        Training points, drawn on every panel.
    y : array_like of shape (n_samples,)
        Their labels (any labels; class ``k`` in sorted order gets ``CLASS_COLORS[k]``).
    X_test : array_like of shape (n_test, 2), optional
        Held-out points: the titles then give the test accuracy, else the training accuracy.
    y_test : array_like of shape (n_test,), optional
    box : (x0, x1, y0, y1), optional
        The window; by default the training points plus 8 % of their range.
    lim : float, optional
        Shorthand for the square window ``(-lim, lim, -lim, lim)`` (drawn with equal aspect).
    feature_names : pair of str
        Axis labels.
    n_grid : int
        Grid nodes per axis.
    aspect : {"equal", "auto"}, optional
        Default: "equal" (distances look right, as k-NN needs) when the window's sides differ by
        less than a factor 2, else "auto" (features on different scales).
    figsize : (float, float), optional

    Returns
    -------
    fig : matplotlib.figure.Figure
    accuracies : dict
        Name -> test accuracy (with ``X_test``) or training accuracy.

    Raises
    ------
    ValueError
        If ``models`` is empty, ``X`` is not (n, 2), the labels do not match the points, or
        only one of ``X_test``/``y_test`` is given.
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
    cmap = ListedColormap([light(CLASS_COLORS[k % len(CLASS_COLORS)]) for k in range(classes.size)])
    # at most two panels a row (three in 7.8 in leave titles and tick labels no room in the
    # lecture style): the default size fits the output area at 1280 px and the lecture box
    n = len(models)
    ncols = min(n, 2)
    nrows = -(-n // ncols)
    fig = new_figure(figsize=figsize or explorer_figsize(min(7.8, 3.9 * ncols), 3.2 * nrows + 0.4))
    grid_axes = np.atleast_1d(fig.subplots(nrows, ncols, sharex=True, sharey=True, squeeze=False))
    axes = grid_axes.ravel()[:n]
    spare = grid_axes.ravel()[n:]
    for ax in spare:
        ax.axis("off")
    X_s, y_s, which = (X, y, "training") if X_test is None else (X_test, y_test, "test")
    accs = {}
    for ax, (name, model) in zip(axes, models.items()):
        _regions_panel(ax, model, grid, aspect, cmap, classes, X, y)
        accs[name] = accuracy(y_s, model.predict(X_s))
        ax.set_title(f"{name}\n{which} accuracy {accs[name]:.3f}", fontsize="medium")
    for ax in grid_axes[-1]:
        ax.set_xlabel(feature_names[0])
    for ax in grid_axes[:, 0]:
        ax.set_ylabel(feature_names[1])
    if spare.size:  # the legend in the empty panel, off the data
        spare[0].legend(*axes[0].get_legend_handles_labels(), loc="center", markerscale=2.0)
    else:
        axes[0].legend(fontsize="small", loc="lower right")
    finish_layout(fig)
    return fig, accs

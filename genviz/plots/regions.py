"""Decision regions of fitted classifiers in the plane (notebooks 08 and 09).

One static figure for every topic whose models classify 2-D points (k-NN, naive Bayes, GDA): the
models are evaluated on one grid and scored by
:func:`genviz.studies.regions.decision_regions_figure_study`; this module only draws.
"""

from __future__ import annotations

import numpy as np
from matplotlib.colors import ListedColormap

from genviz.plots._base import finish_layout, new_figure
from genviz.plots.style import class_colors, explorer_figsize, light, panel_grid, panel_row_width
from genviz.studies.regions import DecisionRegionsResult, decision_regions_figure_study

__all__ = ["decision_regions_figure", "light"]


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
    return _paint_regions(decision_regions_figure_study(models, X, y, X_test, y_test, box=box,
                                                        lim=lim, n_grid=n_grid, aspect=aspect),
                          feature_names=feature_names, figsize=figsize)


def _regions_panel(ax, panel, r: DecisionRegionsResult, cmap, colors):
    """One panel: the model's predicted class over the grid, and the training points."""
    ax.imshow(panel.codes, origin="lower", extent=r.extent, aspect=r.aspect,
              cmap=cmap, vmin=-0.5, vmax=r.classes.size - 0.5, interpolation="nearest")
    for P, c, color in zip(r.class_points, r.classes, colors):
        ax.scatter(P[:, 0], P[:, 1], s=12, color=color,
                   edgecolor="white", linewidth=0.4, label=str(c))
    ax.set_xlim(r.extent[:2])
    ax.set_ylim(r.extent[2:])


def _paint_regions(r: DecisionRegionsResult, *, feature_names=("$x_1$", "$x_2$"), figsize=None):
    colors = class_colors(r.classes.size)
    cmap = ListedColormap([light(c) for c in colors])
    # at most two panels a row (three in 7.8 in leave titles and tick labels no room in the
    # lecture style): the default size fits the output area at 1280 px and the lecture box
    n = len(r.panels)
    nrows, ncols = panel_grid(n, 2)
    fig = new_figure(figsize=figsize or explorer_figsize(panel_row_width(ncols, 3.9),
                                                         3.2 * nrows + 0.4))
    grid_axes = np.atleast_1d(fig.subplots(nrows, ncols, sharex=True, sharey=True, squeeze=False))
    axes = grid_axes.ravel()[:n]
    spare = grid_axes.ravel()[n:]
    for ax in spare:
        ax.axis("off")
    for ax, panel in zip(axes, r.panels):
        _regions_panel(ax, panel, r, cmap, colors)
        ax.set_title(f"{panel.name}\n{r.which} accuracy {panel.accuracy:.3f}", fontsize="medium")
    for ax in grid_axes[-1]:
        ax.set_xlabel(feature_names[0])
    for ax in grid_axes[:, 0]:
        ax.set_ylabel(feature_names[1])
    if spare.size:  # the legend in the empty panel, off the data
        spare[0].legend(*axes[0].get_legend_handles_labels(), loc="center", markerscale=2.0)
    else:
        axes[0].legend(fontsize="small", loc="lower right")
    finish_layout(fig)
    return fig, r.accuracies

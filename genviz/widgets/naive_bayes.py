"""Explorers for naive Bayes: the query builder with Laplace alpha, bin edges, NB vs GDA, KDE NB."""

from __future__ import annotations

import html

import numpy as np

from genviz.plots.naive_bayes import CategoricalNBView, DiscretizeView, KDENBView, NBvsGDAView
from genviz.widgets._base import (Explorer, dropdown, explorer_factory, float_slider, log_slider,
                                  readout_html)

__all__ = ["categorical_nb_explorer", "categorical_readout", "discretize_explorer",
           "nb_vs_gda_explorer", "kde_nb_explorer"]


def _frac(table, k, value):
    """The model's smoothed entry as the slides write it: (count + alpha)/(N_k + alpha n_j) = p.
    ``<wbr>``: a narrow column (lecture mode) may break the smoothed fraction after the slash."""
    c, n, p = table.entry(k, value)
    if table.alpha == 0:
        return f"{c:g}/{n:g} = {p:.3f}"
    return (f"({c:g}+{table.alpha:g})/<wbr>({n:g}+{table.alpha:g}&middot;{table.n_values}) "
            f"= {p:.3f}")


def categorical_readout(state) -> str:
    """HTML of the slides' computation for the query: each factor as counts, the unnormalised
    scores ``P(y) prod_j P(x_j|y)``, the normaliser alpha, the posterior and the decision.

    One row per factor and one column per class (the slides' table turned on its side): the
    table stays a few hundred pixels wide for any number of attributes, so it is read as a
    table beside or above the figure instead of being clipped or wrapped cell by cell.
    """
    e, a = state["explain"], state["alpha"]
    esc = html.escape
    N = state["class_count"]
    classes = list(e["classes"])
    head = "<tr><th></th>" + "".join(f"<th>y = {esc(str(c))}</th>" for c in classes) + "</tr>"
    rows = ["<tr><th>P(y)</th>" + "".join(
        f"<td>{N[k]:g}/{state['n_records']:g} = {e['prior'][k]:.3f}</td>" for k in range(len(classes)))
        + "</tr>"]
    for j, (f, v) in enumerate(zip(e["features"], e["values"])):
        cells = "".join(f"<td>{_frac(state['smoothed'][j], k, v)}</td>"
                        for k in range(len(classes)))
        rows.append(f"<tr><th>P({esc(str(f))}={esc(str(v))} | y)</th>{cells}</tr>")
    rows.append("<tr><th>P(y)&prod;P(x<sub>j</sub>|y)</th>" + "".join(
        f"<td><b>{e['joint'][k]:.4g}</b></td>" for k in range(len(classes))) + "</tr>")
    rows.append("<tr><th>P(y | x)</th>" + "".join(
        "<td><b>&mdash;</b></td>" if e["posterior"] is None else
        f"<td><b>{e['posterior'][k]:.4f}</b></td>" for k in range(len(classes))) + "</tr>")
    if e["posterior"] is None:
        verdict = ("every score is 0, so &alpha;<sub>norm</sub> = 1/0: the posterior is 0/0. "
                   "Laplace smoothing (&alpha; &gt; 0) removes the zeros.")
    else:
        verdict = (f"normaliser &alpha;<sub>norm</sub> = 1/&Sigma; = {e['normaliser']:.4g}; "
                   f"decision: <b>{esc(str(e['decision']))}</b>")
    return readout_html(
        f"Laplace/Lidstone &alpha; = {a:g}",
        f"<table style='border-collapse:collapse'>{head}{''.join(rows)}</table>{verdict}")


#: The most states the query builder's grid may hold (α's positions times the query's
#: gridded dropdowns); below the budget of genviz.widgets.states.MAX_STATES.
QUERY_GRID_STATES = 1500


@explorer_factory
def categorical_nb_explorer(X, y, feature_names, *, alpha=1.0, query=None, alpha_max=3.0):
    """An alpha slider and one dropdown per attribute (the query) driving a
    :class:`~genviz.plots.naive_bayes.CategoricalNBView`; the readout shows the computation.

    Feature names must be Python identifiers (they name the controls), e.g. "Outlook".
    """
    for name in feature_names:
        if not str(name).isidentifier() or name == "alpha":
            raise ValueError(f"feature_names must be identifiers other than 'alpha' (they name "
                             f"the controls), got {name!r}")
    view = CategoricalNBView(X, y, feature_names, alpha=alpha, query=query)
    controls = {"alpha": float_slider("α", alpha, 0.0, alpha_max, 0.05, grid=True)}
    # the query's dropdowns are gridded with α, in order, while the product of their sizes
    # stays within the grid budget (#37: notebook 06 changes the Outlook of the query)
    states = controls["alpha"].n + 1
    for j, name in enumerate(view.names):
        options = list(view.categories[j])
        states *= len(options)
        controls[name] = dropdown(name, options, view.params[name],
                                  grid=states <= QUERY_GRID_STATES)
    return Explorer(view, controls, categorical_readout, title="Naive Bayes by counting: P(y) ∏ P(xⱼ | y)")


def _acc_readout(keys):
    def readout(state):
        return readout_html(*(
            f"{label}: {state[key]:.3f}" if isinstance(state[key], float) else
            f"{label}: {state[key]}" for label, key in keys))
    return readout


@explorer_factory
def discretize_explorer(x, y, *, width, origin=0.0, alpha=1.0, width_range=None,
                        xlabel="x") -> Explorer:
    """Bin width, first edge and alpha sliders for a :class:`DiscretizeView`."""
    view = DiscretizeView(x, y, width=width, origin=origin, alpha=alpha, xlabel=xlabel)
    lo, hi = width_range if width_range is not None else (width / 5, width * 3)
    # the default range in steps of width / 50, so that the width and its round multiples
    # (notebook 08's observation: 10 -> 20 -> 2) are positions of the grid (#37)
    step = width / 50 if width_range is None else (hi - lo) / 100
    controls = {
        "width": float_slider("bin width", width, lo, hi, step, readout_format=".3g", grid=True),
        "origin": float_slider("first edge", origin, 0.0, hi, (hi - lo) / 100,
                               readout_format=".3g"),
        # alpha >= 0.1: with alpha = 0, bins empty in every class give a 0/0 posterior (the
        # view refuses it with a clear error; notebook 06 teaches the zero-count problem)
        "alpha": float_slider("α", alpha, 0.1, 3.0, 0.05),
    }
    return Explorer(view, controls, _acc_readout([
        ("bins", "n_bins"), ("training accuracy, bins", "accuracy_binned"),
        ("training accuracy, Gaussian NB", "accuracy_gaussian")]),
        title="Discretising a continuous feature")


@explorer_factory
def nb_vs_gda_explorer(rho=0.8, **kwargs) -> Explorer:
    """A correlation slider for :class:`NBvsGDAView` (Gaussian naive Bayes vs GDA)."""
    view = NBvsGDAView(rho, **kwargs)
    controls = {"rho": float_slider("ρ", rho, -0.95, 0.95, 0.05, grid=True)}
    return Explorer(view, controls, _acc_readout([
        ("correlation ρ", "rho"), ("test accuracy, naive Bayes", "accuracy_nb"),
        ("test accuracy, GDA", "accuracy_gda")]),
        title="Independence assumption: naive Bayes vs GDA")


@explorer_factory
def kde_nb_explorer(x, y, x_test=None, y_test=None, *, bandwidth=0.3, h_range=(0.03, 3.0),
                    xlabel="x") -> Explorer:
    """A (log-scale) bandwidth slider for :class:`KDENBView`."""
    view = KDENBView(x, y, x_test, y_test, bandwidth=bandwidth, xlabel=xlabel)
    lo, hi = np.log10(h_range[0]), np.log10(h_range[1])
    controls = {"bandwidth": log_slider("h", bandwidth, lo, hi, (hi - lo) / 100, grid=True)}
    return Explorer(view, controls, _acc_readout([
        ("bandwidth h", "bandwidth"), ("accuracy, KDE naive Bayes", "accuracy_kde"),
        ("accuracy, Gaussian naive Bayes", "accuracy_gaussian")]),
        title="KDE naive Bayes: one kernel density per feature and class")

"""Explorer for GDA against logistic regression, and a progress bar for long experiments."""

from __future__ import annotations

import html

import ipywidgets as widgets

from genviz.plots.gda import GDAFitView
from genviz.plots.gda_vs_logistic import GDAvsLogisticView
from genviz.synthetic import FAMILIES
from genviz.widgets._base import (Explorer, dropdown, explorer_factory, float_slider, int_slider,
                                  readout_html, selection_slider, toggle_buttons)

__all__ = ["gda_vs_logistic_explorer", "gda_vs_logistic_readout", "progress_bar"]

FAMILY_LABELS = {
    "gaussian": "Gaussian, shared Σ",
    "gaussian_diff_cov": "Gaussian, different Σ",
    "heavy_tailed": "heavy-tailed (Student t, 3 d.o.f.)",
    "poisson": "Poisson counts",
    "outliers": "Gaussian + 10% outliers in class 1",
}


def _gaussian_sliders(p, mean_max, **kw) -> dict:
    """The two-Gaussian model's sliders (both explorers): the class means within
    ``±mean_max``, the shared covariance's σ₁, σ₂ and ρ; ``kw`` goes to every slider."""
    def slider(desc, name, lo, hi, step):
        return float_slider(desc, p[name], lo, hi, step, **kw)

    return {
        "mu0x": slider("μ₀ (x₁)", "mu0x", -mean_max, mean_max, 0.1),
        "mu0y": slider("μ₀ (x₂)", "mu0y", -mean_max, mean_max, 0.1),
        "mu1x": slider("μ₁ (x₁)", "mu1x", -mean_max, mean_max, 0.1),
        "mu1y": slider("μ₁ (x₂)", "mu1y", -mean_max, mean_max, 0.1),
        "sigma1": slider("σ₁", "sigma1", 0.3, 2.0, 0.05),
        "sigma2": slider("σ₂", "sigma2", 0.3, 2.0, 0.05),
        "rho": slider("ρ", "rho", -0.9, 0.9, 0.05),
    }


def _theta(pair) -> str:
    if pair is None:
        return "— (quadratic boundary)"
    theta, theta0 = pair
    return f"θ=({theta[0]:.3f}, {theta[1]:.3f}) θ<sub>0</sub>={theta0:.3f}"


def gda_vs_logistic_readout(state) -> str:
    """HTML readout: the three test errors, both learners' (θ, θ0), and a separability note."""
    e = state["errors"]
    note = ""
    if state["separable"]:
        note = ("<br><span style='color:#7a4b00'>The sample is linearly separable: the "
                "unregularised logistic MLE does not exist, so logistic regression is shown "
                f"with L2 = {state['lr_l2']:g}.</span>")
    return readout_html(
        f"{html.escape(FAMILY_LABELS[state['family']])}, n = {state['n_train']}, "
        f"test set {state['n_test']}",
        f"test error GDA&nbsp;&nbsp;&nbsp;&nbsp;&nbsp;= {e['gda']:.4f}",
        f"test error logistic = {e['lr']:.4f}",
        f"test error Bayes&nbsp;&nbsp;&nbsp;= {e['bayes']:.4f}",
        f"GDA&nbsp;&nbsp;&nbsp;&nbsp;&nbsp; {_theta(state['theta_gda'])}",
        f"logistic {_theta(state['theta_lr'])}{note}",
    )


@explorer_factory
def gda_vs_logistic_explorer(*, family="gaussian", n=200, seed=0, n_test=4000) -> Explorer:
    """Set the data-generating model; see GDA's, logistic regression's and Bayes' boundaries.

    Data controls (class means, sigma1, sigma2, rho, phi, n, family) redraw the training and
    test sets (same seed, so Gaussian points move continuously) and refit both learners; the
    ``gda_cov`` toggle only refits GDA. Sliders update on release (``continuous_update=False``)
    because each move refits two models and scores them on ``n_test`` points.

    Returns
    -------
    Explorer
    """
    view = GDAvsLogisticView(family=family, n=n, seed=seed, n_test=n_test)
    p = view.params

    controls = {
        **_gaussian_sliders(p, 2.0, continuous_update=False),
        # ρ gridded: 04's investigation (the first ρ at which the sample is separable) offline
        "rho": float_slider("ρ", p["rho"], -0.9, 0.9, 0.05, continuous_update=False, grid=True),
        "phi": float_slider("φ", p["phi"], 0.1, 0.9, 0.05, continuous_update=False),
        "n": int_slider("n", p["n"], 20, 2000, 10, continuous_update=False),
        "family": dropdown("data", [(FAMILY_LABELS[f], f) for f in FAMILIES], p["family"],
                           grid=True),
        "gda_cov": toggle_buttons("GDA", [("shared Σ", "shared"), ("separate Σₖ", "separate")],
                                  p["gda_cov"], grid=True),
    }
    return Explorer(view, controls, gda_vs_logistic_readout,
                    title="GDA vs logistic regression: boundaries and test errors")


def progress_bar(description: str = "running"):
    """An ``IntProgress`` bar and a ``callback(done, total)`` that advances it.

    Pass the callback as ``progress=`` to :func:`genviz.studies.gda_vs_logistic_curves.learning_curves`.

    Returns
    -------
    (ipywidgets.IntProgress, callable)
    """
    bar = widgets.IntProgress(value=0, min=0, max=1, description=description,
                              style={"description_width": "120px"},
                              layout=widgets.Layout(width="420px"))

    def callback(done, total):
        bar.max = total
        bar.value = done
        bar.bar_style = "success" if done >= total else ""

    return bar, callback


# --- the GDA fitting explorer (notebook 03) ------------------------------------------------------

__all__ += ["gda_fit_explorer", "gda_fit_readout"]


def _vec(v) -> str:
    return "(" + ", ".join(f"{float(a):.3f}" for a in v) + ")"


def gda_fit_readout(state) -> str:
    """HTML readout: the four MLEs phi, mu0, mu1, Sigma, then theta, theta0 and the posterior
    written as a sigmoid of the linear function they define."""
    S = state["Sigma"]
    th, th0 = state["theta"], state["theta0"]
    sign = "+" if th0 >= 0 else "−"
    magnitude = f"{th0:.3f}".lstrip("-")  # |theta0|, written without computing it
    return readout_html(
        f"n = {state['n']}, of which {state['n1']} with y = 1",
        f"φ&nbsp;&nbsp;= {state['phi']:.3f}",
        f"μ₀ = {_vec(state['mu0'])}",
        f"μ₁ = {_vec(state['mu1'])}",
        f"Σ&nbsp;&nbsp;= [[{S[0, 0]:.3f}, {S[0, 1]:.3f}], [{S[1, 0]:.3f}, {S[1, 1]:.3f}]]",
        f"θ = Σ⁻¹(μ₁ − μ₀) = {_vec(th)}, θ₀ = {th0:.3f}",
        f"p(y=1|x) = 1 / (1 + exp(−({th[0]:.3f} x₁ + {th[1]:.3f} x₂ {sign} {magnitude})))",
        f"true θ = {_vec(state['theta_true'])}, θ₀ = {state['theta0_true']:.3f}",
        f"training error = {state['training_error']:.3f}",
    )


#: The sample sizes of the GDA fitting explorer's n slider (within GDAFitView.N_MAX).
FIT_SIZES = (10, 20, 50, 100, 200, 500, 1000)


@explorer_factory
def gda_fit_explorer(*, seed=0, **params) -> Explorer:
    """Change the sample (size, class means, shared covariance, prior) and watch GDA's four
    maximum-likelihood estimates, the fitted contours, the boundary and the sigmoid posterior.

    The points come from a fixed seeded pool (see :class:`genviz.plots.gda.GDAFitView`), so a
    slider moves the same points; fitting is a few means and one 2x2 covariance, so every slider
    updates continuously.

    Returns
    -------
    Explorer
    """
    view = GDAFitView(seed=seed, **params)
    p = view.params

    controls = {
        # n and φ gridded together (#37: notebook 03's observation moves φ from 0.5 to 0.8):
        # n on 1-2-5 steps, 7 x 17 = 119 states (n in steps of 10 made 1,700 states, 6.4 MB)
        "n": selection_slider("n", sorted({*FIT_SIZES, int(p["n"])}), int(p["n"]), grid=True),
        "phi": float_slider("φ (true)", p["phi"], 0.1, 0.9, 0.05, grid=True),
        **_gaussian_sliders(p, 3.0),
    }
    return Explorer(view, controls, gda_fit_readout,
                    title="Fitting GDA: the four MLEs, the contours and the boundary")

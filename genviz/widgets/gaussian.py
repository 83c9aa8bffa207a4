"""Explorer for the bivariate Gaussian."""

from __future__ import annotations

import numpy as np

from genviz.plots.gaussian import GaussianView
from genviz.widgets._base import Explorer, explorer_factory, float_slider, readout_html

__all__ = ["gaussian_explorer", "gaussian_readout"]


def _matrix_html(M) -> str:
    rows = "".join("<tr>" + "".join(f"<td style='padding:0 6px;text-align:right'>{v:.3f}</td>"
                                    for v in row) + "</tr>" for row in np.asarray(M))
    return f"<table style='display:inline-table;border-left:1px solid;border-right:1px solid'>{rows}</table>"


def gaussian_readout(state) -> str:
    """HTML readout of a :class:`GaussianView` state: Sigma, det(Sigma), eigenvalues, samples."""
    lam = state["eigvals"]
    return readout_html(
        f"&Sigma; = {_matrix_html(state['cov'])}",
        f"|&Sigma;| = {state['det']:.4f}",
        f"&lambda;<sub>1</sub> = {lam[0]:.4f}, &lambda;<sub>2</sub> = {lam[1]:.4f}",
        f"major axis at {state['angle']:.1f}&deg;",
        f"peak p(&mu;) = {state['peak']:.4f}",
        f"sample mean = ({state['sample_mean'][0]:.2f}, {state['sample_mean'][1]:.2f})",
        f"sample cov = {_matrix_html(state['sample_cov'])}",
    )


@explorer_factory
def gaussian_explorer(mu1=0.0, mu2=0.0, sigma1=1.0, sigma2=1.0, rho=0.0, *, surface=True,
                      n_samples=200, seed=0) -> Explorer:
    """Sliders for mu1, mu2, sigma1, sigma2, rho driving a :class:`GaussianView`.

    Every update is cheap (a few grids of a 2x2 Gaussian), so sliders update continuously.

    Returns
    -------
    Explorer
        ``explorer.controls`` maps ``"mu1", "mu2", "sigma1", "sigma2", "rho"`` to sliders;
        ``explorer.view.state`` holds the numbers shown.
    """
    view = GaussianView(mu1, mu2, sigma1, sigma2, rho, surface=surface, n_samples=n_samples,
                        seed=seed)
    controls = {
        "mu1": float_slider("μ₁", mu1, -2.0, 2.0, 0.1),
        "mu2": float_slider("μ₂", mu2, -2.0, 2.0, 0.1),
        "sigma1": float_slider("σ₁", sigma1, 0.5, 2.0, 0.05),
        "sigma2": float_slider("σ₂", sigma2, 0.5, 2.0, 0.05),
        "rho": float_slider("ρ", rho, -0.95, 0.95, 0.05, grid=True),
    }
    return Explorer(view, controls, gaussian_readout, title="Bivariate Gaussian N(μ, Σ)")

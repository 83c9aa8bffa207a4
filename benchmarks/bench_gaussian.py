"""Gaussian explorer against the naive new-figure-per-update approach."""

import matplotlib.pyplot as plt
import numpy as np
from scipy.stats import multivariate_normal

from harness import ExplorerCase, naive_png, sweep_moves
from genviz.widgets import gaussian_explorer

MOVES = sweep_moves({
    "rho": np.round(np.linspace(-0.9, 0.9, 10), 2),
    "mu1": np.round(np.linspace(-1.5, 1.5, 6), 1),
    "sigma1": np.round(np.linspace(0.6, 1.8, 6), 2),
}, n_total=60)


def naive_gaussian(mu1, mu2, sigma1, sigma2, rho, surface=True):
    """What a typical ``interact`` callback does: a new figure, everything from scratch."""
    cov = [[sigma1**2, rho * sigma1 * sigma2], [rho * sigma1 * sigma2, sigma2**2]]
    dist = multivariate_normal([mu1, mu2], cov)
    fig = plt.figure(figsize=(10.0, 4.2) if surface else (7.0, 4.6))  # as GaussianView
    ax = fig.add_subplot(1, 2 if surface else 1, 2 if surface else 1)
    if surface:
        ax3 = fig.add_subplot(1, 2, 1, projection="3d")
        xs = np.linspace(-4, 4, 35)
        X, Y = np.meshgrid(xs, xs)
        ax3.plot_surface(X, Y, dist.pdf(np.dstack([X, Y])), cmap="viridis")
    xs = np.linspace(-4, 4, 121)
    X, Y = np.meshgrid(xs, xs)
    ax.contourf(X, Y, dist.pdf(np.dstack([X, Y])), levels=20)
    s = dist.rvs(200, random_state=0)
    ax.scatter(s[:, 0], s[:, 1], s=7)
    ax.set_aspect("equal")
    naive_png(fig)


CASES = [
    ExplorerCase("gaussian_explorer (surface + contours)", lambda: gaussian_explorer(),
                 MOVES, naive_gaussian, kind="3-D"),
    ExplorerCase("gaussian_explorer(surface=False)", lambda: gaussian_explorer(surface=False),
                 MOVES, lambda **v: naive_gaussian(**v, surface=False), kind="2-D"),
]

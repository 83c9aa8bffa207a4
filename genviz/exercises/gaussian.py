"""Exercises for notebook 02 (the multivariate Gaussian)."""

from __future__ import annotations

import numpy as np

from genviz.exercises import Exercise
from genviz.gaussian import cov_eigen, cov_from_params, factorize_cov

__all__ = ["peak_height", "covariance_entries", "major_axis_angle", "mass_inside"]


def peak_height(sigma1, sigma2, rho) -> Exercise:
    """The height p(mu) of the density with the given standard deviations and correlation."""
    factor = factorize_cov(cov_from_params(sigma1, sigma2, rho))
    peak = float(np.exp(-np.log(2 * np.pi) - 0.5 * factor.logdet))
    return Exercise(
        f"What is the height of the density at its mean, p(mu), for sigma1 = {sigma1}, "
        f"sigma2 = {sigma2}, rho = {rho}?",
        peak,
        hint="In two dimensions p(mu) = 1 / (2 pi |Sigma|^(1/2)), and for this parametrisation "
             "|Sigma| = sigma1^2 sigma2^2 (1 - rho^2).",
        solution=(rf"$|\Sigma| = \sigma_1^2 \sigma_2^2 (1 - \rho^2) = {sigma1}^2 \cdot {sigma2}^2 "
                  rf"\cdot (1 - ({rho})^2) = {np.exp(factor.logdet):.6g}$, and in two dimensions "
                  rf"$p(\mu) = \dfrac{{1}}{{2\pi |\Sigma|^{{1/2}}}} = {peak:.6g}$."),
    )


def covariance_entries(sigma1, sigma2, rho) -> Exercise:
    """Write down the 2x2 covariance matrix from (sigma1, sigma2, rho)."""
    return Exercise(
        f"Write Sigma as a 2x2 array for sigma1 = {sigma1}, sigma2 = {sigma2}, rho = {rho}.",
        cov_from_params(sigma1, sigma2, rho),
        hint="The diagonal holds the variances (squares of the standard deviations); the "
             "off-diagonal entries are the covariance, rho times the product of the standard "
             "deviations.",
        solution=(r"$\Sigma = \begin{bmatrix}\sigma_1^2 & \rho\sigma_1\sigma_2 \\ "
                  r"\rho\sigma_1\sigma_2 & \sigma_2^2\end{bmatrix}$: variances on the diagonal, "
                  r"the covariance $\rho\sigma_1\sigma_2$ off it."),
    )


def major_axis_angle(cov) -> Exercise:
    """The angle (degrees) of the major axis of the contour ellipses."""
    geo = cov_eigen(cov)
    return Exercise(
        f"At what angle (in degrees, between -90 and 90) does the major axis of the contours of "
        f"Sigma = {np.asarray(cov, dtype=float).tolist()} point?",
        geo.angle,
        hint="The major axis is the eigenvector with the largest eigenvalue "
             "(np.linalg.eigh); its angle is arctan2(v[1], v[0]).",
        solution=(r"The major axis is the eigenvector of the largest eigenvalue; its angle "
                  r"$\vartheta$ solves $\tan 2\vartheta = \dfrac{2\Sigma_{12}}{\Sigma_{11} - "
                  rf"\Sigma_{{22}}}}$, giving ${geo.angle:.2f}^\circ$."),
        atol=0.5,
    )


def mass_inside(k) -> Exercise:
    """The probability that a 2-D Gaussian draw falls inside the k-sigma ellipse."""
    return Exercise(
        f"What fraction of the probability lies inside the {k}-sigma ellipse of a 2-D Gaussian?",
        float(1 - np.exp(-k**2 / 2)),
        hint="The squared Mahalanobis distance of a 2-D Gaussian draw is chi-squared with 2 "
             "degrees of freedom, whose CDF is 1 - exp(-t/2).",
        solution=(r"The squared Mahalanobis distance $r^2$ of a 2-D Gaussian draw is $\chi^2_2$, "
                  rf"whose CDF is $1 - e^{{-t/2}}$: $P(r^2 \le {k}^2) = 1 - e^{{-{k}^2/2}}$."),
    )



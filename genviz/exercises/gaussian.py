"""Exercises for notebook 02 (the multivariate Gaussian)."""

from __future__ import annotations

import numpy as np

from genviz.exercises import Choice, Exercise, Observation, Prediction
from genviz.gaussian import cov_eigen, cov_from_params, factorize_cov

__all__ = ["peak_height", "covariance_entries", "major_axis_angle", "mass_inside",
           "predict_peak_with_rho", "valid_covariance", "explorer_peak_height"]


def _peak(sigma1, sigma2, rho) -> tuple[float, float]:
    """(det Sigma, p(mu)) of the bivariate Gaussian, from genviz's Cholesky factor."""
    factor = factorize_cov(cov_from_params(sigma1, sigma2, rho))
    return float(np.exp(factor.logdet)), float(np.exp(-np.log(2 * np.pi) - 0.5 * factor.logdet))


def peak_height(sigma1, sigma2, rho) -> Exercise:
    """The height p(mu) of the density with the given standard deviations and correlation."""
    det, peak = _peak(sigma1, sigma2, rho)
    return Exercise(
        f"What is the height of the density at its mean, p(mu), for sigma1 = {sigma1}, "
        f"sigma2 = {sigma2}, rho = {rho}?",
        peak,
        hint="In two dimensions p(mu) = 1 / (2 pi |Sigma|^(1/2)), and for this parametrisation "
             "|Sigma| = sigma1^2 sigma2^2 (1 - rho^2).",
        solution=(rf"$|\Sigma| = \sigma_1^2 \sigma_2^2 (1 - \rho^2) = {sigma1}^2 \cdot {sigma2}^2 "
                  rf"\cdot (1 - ({rho})^2) = {det:.6g}$, and in two dimensions "
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




def predict_peak_with_rho(rho_from=0.5, rho_to=0.9, sigma1=1.0, sigma2=1.0) -> Prediction:
    """Before the explorer: where is the peak, and how high, when rho moves? (The height's
    direction is computed from the determinant, not written in.) The observation: the peak
    p(mu) in the explorer's readout at ``rho_to``."""
    _, peak0 = _peak(sigma1, sigma2, rho_from)
    _, peak1 = _peak(sigma1, sigma2, rho_to)
    options = ["it slides along the line x₁ = x₂, away from μ",
               "it stays at μ and gets taller",
               "it stays at μ and gets lower",
               "it stays at μ with the same height"]
    right = 1 if peak1 > peak0 * (1 + 1e-9) else 2 if peak1 < peak0 * (1 - 1e-9) else 3
    return Prediction(
        f"The explorer below starts at σ₁ = {sigma1}, σ₂ = {sigma2}, ρ = {rho_from}. "
        f"When you drag ρ to {rho_to}, what does the peak of the density do?",
        options, right, id="02-peak-with-rho",
        explanation=(r"The peak is always at the mean $\mu$: the exponent "
                     r"$-\tfrac12 (x-\mu)^T\Sigma^{-1}(x-\mu)$ is 0 there and negative "
                     r"elsewhere. Its height is $p(\mu) = 1/(2\pi|\Sigma|^{1/2})$, and "
                     r"$|\Sigma| = \sigma_1^2\sigma_2^2(1-\rho^2)$ shrinks as $|\rho|$ grows: the "
                     r"density is compressed towards a line, and because the volume under it "
                     r"stays 1, a compressed Gaussian is taller."),
        reasons=["Changing ρ changes the shape of the contours, not the mean: look at what "
                 "μ₁ and μ₂ are set to.",
                 None,
                 "The volume under the density is always 1: what happens to the height when "
                 "the density is squeezed towards a line?",
                 "The height depends on |Σ| = σ₁²σ₂²(1 − ρ²), and ρ is in it."],
        claims=[r"compress\w*[^.]{0,30}(gaussian|density)[^.]{0,30}(taller|higher)"],
        observation=Observation(
            f"Set ρ = {rho_to} (σ₁ = {sigma1}, σ₂ = {sigma2}). What is the peak p(μ) in the "
            f"readout?",
            peak1, setting={"sigma1": sigma1, "sigma2": sigma2, "rho": rho_to},
            labels={"sigma1": "σ₁", "sigma2": "σ₂", "rho": "ρ"}, read="peak",
            what="the peak p(μ)", hint="read the readout's line 'peak p(μ)' (4 decimals).",
            atol=6e-4))


def valid_covariance(cov=((1.0, 2.0), (2.0, 1.0))) -> Choice:
    """Can this symmetric matrix with a positive diagonal be a covariance matrix (with a
    density)? Decided by genviz's own check (the Cholesky factorisation)."""
    cov = np.asarray(cov, dtype=float)
    try:
        factorize_cov(cov)
        ok = True
    except ValueError:
        ok = False
    lam = np.linalg.eigvalsh(cov)
    rho = cov[0, 1] / np.sqrt(cov[0, 0] * cov[1, 1])
    options = ["yes: it is symmetric and its diagonal (the variances) is positive",
               "no: an entry off the diagonal may not exceed the variances",
               "no: it is not positive definite (ρ would be outside [-1, 1])"]
    return Choice(
        f"Can Σ = {cov.tolist()} be the covariance matrix of a 2-D Gaussian with a density?",
        options, 0 if ok else 2, id="02-valid-covariance",
        claims=([r"symmetric[^.]{0,40}positive"] if ok else
                [r"not positive definite", r"(eigenvalue|variance)[^.]{0,40}negative"]),
        explanation=(rf"Its eigenvalues are ${lam[0]:.4g}$ and ${lam[1]:.4g}$. A covariance "
                     rf"needs $v^T\Sigma v > 0$ for every $v \ne 0$ (positive definite), i.e. "
                     rf"both eigenvalues positive, which for 2x2 means $|\rho| < 1$ with "
                     rf"$\rho = \Sigma_{{12}}/\sqrt{{\Sigma_{{11}}\Sigma_{{22}}}} = {rho:.4g}$."),
        reasons=["Symmetry and positive variances are necessary, not sufficient: try "
                 "v = (1, -1) in vᵀΣv, which is the variance of x₁ − x₂.",
                 "A covariance may exceed one variance (e.g. [[4, 1.5], [1.5, 1]] is fine): "
                 "what matters is ρ = Σ₁₂/(σ₁σ₂).",
                 "vᵀΣv is a variance, and a variance cannot be negative."],
        hint="Compute the variance of x₁ − x₂, which is vᵀΣv for v = (1, −1).",
    )


def explorer_peak_height(sigma1, sigma2, rho) -> Exercise:
    """Set the explorer's sliders and read the peak height from its readout (kind "explorer")."""
    det, peak = _peak(sigma1, sigma2, rho)
    return Exercise(
        f"Set the explorer's sliders to σ₁ = {sigma1}, σ₂ = {sigma2}, ρ = {rho} and read the "
        f"peak height p(μ) from its readout (4 decimals).",
        peak,
        hint="Use the explorer above: set all three sliders (click a slider, then use the arrow "
             "keys), then read the line 'peak p(μ)' of the readout.",
        solution=(rf"$|\Sigma| = {sigma1}^2 \cdot {sigma2}^2 \cdot (1 - {rho}^2) = {det:.4g}$ "
                  rf"and $p(\mu) = 1/(2\pi|\Sigma|^{{1/2}}) = {peak:.4f}$: what the readout "
                  rf"shows."),
        kind="explorer", rtol=2e-3, atol=1e-4,
    )

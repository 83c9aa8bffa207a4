"""Exercises for notebook 02 (the multivariate Gaussian)."""

from __future__ import annotations

import numpy as np

from genviz.exercises import Choice, Exercise, Observation, OpenQuestion, Prediction
from genviz.exercises.choice import _transfer
from genviz.exercises.derivation import Derivation, Step, Symbol, read_formula
from genviz.gaussian import cov_eigen, cov_from_params, factorize_cov, mvn_pdf

__all__ = ["peak_height", "major_axis_angle", "mass_inside",
           "predict_peak_with_rho", "valid_covariance",
           "rho_for_peak_ratio", "peak_formula_derivation", "change_of_units",
           "uncorrelated_gaussian_independence", "EXPLORER_RHOS"]


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
        objective="02.2",
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
        atol=0.5, objective="02.3",
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
        objective="02.4",
    )




def _peak_transfer(rho=0.99) -> Choice:
    """The analogous situation after 02's cycle: two near-perfectly correlated measurements
    against two unrelated ones with the same variances (the ratio of their peaks computed
    from the model, :func:`_peak`)."""
    ratio = _peak(1.0, 1.0, rho)[1] / _peak(1.0, 1.0, 0.0)[1]
    return _transfer(
        "02-peak-with-rho", 0,
        f"Two measurements of the same rod by two instruments are almost perfectly "
        f"correlated (ρ = {rho}); two unrelated measurements have ρ = 0, with the same "
        f"variances. Which joint density has the higher peak?",
        [(f"the correlated pair's, about {ratio:.0f} times higher", None),
         ("the unrelated pair's: correlation spreads the density",
          "Correlation squeezes the density onto a line; it does not spread it."),
         ("the same peak: the variances are the same",
          "The variances fix the marginals, not the joint density's height: does |Σ| "
          "depend on ρ?"),
         ("the correlated pair's, twice as high",
          "Does the peak grow in proportion to ρ? Compare ρ = 0.5 and ρ = 0.9 in the "
          "explorer.")],
        explanation=(rf"Same variances, so the peak grows as $|\Sigma|$ shrinks with $\rho$ "
                     rf"(Exercise 1 derives how): ${ratio:.1f}$ times at $\rho = {rho}$. The "
                     r"near-perfect correlation squeezes "
                     r"the density onto the line where the two instruments agree, and it must "
                     r"rise to keep its volume 1."),
        claims=[r"squeez\w*[^.]{0,30}line where the two instruments agree"])


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
                     r"$|\Sigma|$ shrinks as $|\rho|$ grows (an exercise below derives how): the "
                     r"density is compressed towards a line, and because the volume under it "
                     r"stays 1, a compressed Gaussian is taller."),
        reasons=["Changing ρ changes the shape of the contours, not the mean: look at what "
                 "μ₁ and μ₂ are set to.",
                 None,
                 "The volume under the density is always 1: what happens to the height when "
                 "the density is squeezed towards a line?",
                 "The height depends on the determinant |Σ|, and ρ is in it."],
        claims=[r"compress\w*[^.]{0,30}(gaussian|density)[^.]{0,30}(taller|higher)"],
        transfer=_peak_transfer(),
        observation=Observation(
            f"Compare the peak p(μ) at ρ = {rho_from} with the peak at ρ = {rho_to} "
            f"(σ₁ = {sigma1}, σ₂ = {sigma2}): record both. How many times taller or lower is it?",
            peak1, setting={"sigma1": sigma1, "sigma2": sigma2, "rho": rho_to},
            before={"rho": rho_from}, expected_before=peak0, compare="ratio",
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
                [r"not positive definite", r"eigenvalue[^.]{0,40}negative"]),
        objective="02.1",
        explanation=(rf"Its eigenvalues are ${lam[0]:.4g}$ and ${lam[1]:.4g}$"
                     + ("" if ok else ": one eigenvalue is negative") + r". A covariance "
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


# -- practice that climbs: an investigation, a derivation, an open question, a retrieval --------
#: the explorer's grid of rho (genviz.widgets.gaussian: -0.95 to 0.95 in steps of 0.05)
EXPLORER_RHOS = np.round(np.arange(-0.95, 0.951, 0.05), 2)


def _peak_on_grid(sigma1, sigma2):
    return np.array([mvn_pdf(np.zeros((1, 2)), np.zeros(2),
                             cov_from_params(sigma1, sigma2, r))[0] for r in EXPLORER_RHOS])


def rho_for_peak_ratio(ratio=1.5, sigma1=1.0, sigma2=1.0) -> Exercise:
    """Investigation with the Gaussian explorer: the smallest ρ >= 0 on its slider at which the
    peak p(μ) is at least ``ratio`` times its height at ρ = 0 (the density at the mean, computed
    by :func:`genviz.gaussian.mvn_pdf` at every slider position, as the readout shows it).

    Examples
    --------
    >>> rho_for_peak_ratio(1.5)._answer
    0.75
    """
    ratio = float(ratio)
    peaks = _peak_on_grid(sigma1, sigma2)
    base = peaks[EXPLORER_RHOS == 0.0][0]
    ok = [(r, p) for r, p in zip(EXPLORER_RHOS, peaks) if r >= 0 and p >= ratio * base]
    if not ok:
        raise ValueError(f"no ρ on the slider makes the peak {ratio:g} times taller; ask for a "
                         f"smaller ratio")
    rho, peak = ok[0]
    exact = float(np.sqrt(1 - 1 / ratio**2))
    return Exercise(
        f"Investigate with the explorer: keep σ₁ = {sigma1:g}, σ₂ = {sigma2:g}. What is the "
        f"smallest ρ ≥ 0 on the slider at which the peak p(μ) is at least {ratio:g} times as "
        f"high as at ρ = 0?",
        float(rho),
        hint="Read the peak at ρ = 0 first, multiply it by the factor, then raise ρ step by step "
             "(arrow keys) until the readout's peak reaches that height.",
        solution=(rf"At $\rho = 0$ the peak is ${base:.4f}$; the slider first reaches "
                  rf"${ratio:g} \times {base:.4f} = {ratio * base:.4f}$ at $\rho = {rho:g}$ "
                  rf"(peak ${peak:.4f}$). Why there: $p(\mu) \propto 1/\sqrt{{1 - \rho^2}}$, so "
                  rf"the ratio is $1/\sqrt{{1-\rho^2}} \ge {ratio:g}$ when "
                  rf"$\rho \ge \sqrt{{1 - 1/{ratio:g}^2}} = {exact:.3f}$; the next slider "
                  rf"position is ${rho:g}$."),
        kind="investigation", atol=0.005, rtol=0.0, objective="02.5")


#: the symbols of the bivariate normal's parameters, as notebook 02 writes them
_GAUSS_SYMBOLS = {"s1": Symbol("σ₁", 0.5, 2.0, spellings=("sigma1", "sigma_1")),
                  "s2": Symbol("σ₂", 0.5, 2.0, spellings=("sigma2", "sigma_2")),
                  "rho": Symbol("ρ", -0.9, 0.9, spellings=("r",))}


def peak_formula_derivation(seed=0) -> Derivation:
    r"""Derivation, written: the peak :math:`p(\mu)` of the bivariate normal as a function of
    :math:`\sigma_1, \sigma_2, \rho`, through :math:`|\Sigma|`.

    Both key steps are checked here against the library at random parameters (seeded):
    :math:`|\Sigma|` against the determinant of :func:`genviz.gaussian.cov_from_params`, the
    peak against :func:`genviz.gaussian.mvn_pdf` at the mean.

    Examples
    --------
    >>> q = peak_formula_derivation()
    >>> print(q.check_step(1, "1/(2 pi s1 s2 sqrt(1 - rho^2))"))
    Correct!
    >>> print(q.check_step(1, "1/(2*pi*s1*s2*(1 - rho^2))"))
    Not quite: That forgets the square root of the determinant.
    """
    steps = [
        Step(r"Compute $|\Sigma|$ of $\Sigma = \begin{bmatrix}\sigma_1^2 & \rho\sigma_1\sigma_2"
             r"\\ \rho\sigma_1\sigma_2 & \sigma_2^2\end{bmatrix}$.",
             "s1^2*s2^2*(1 - rho^2)", r"|\Sigma| = \sigma_1^2\sigma_2^2(1-\rho^2)",
             mistakes={"s1^2*s2^2 - rho^2": "The off-diagonal entry is ρσ₁σ₂, not ρ.",
                       "s1^2*s2^2 - rho*s1*s2": "The determinant subtracts the *square* of "
                                                "the off-diagonal entry.",
                       "s1^2*s2^2 + (rho*s1*s2)^2": "The determinant of [[a, b], [b, c]] is "
                                                   "ac − b²: minus."}),
        Step(r"Then $p(\mu) = 1/(2\pi|\Sigma|^{1/2})$ in $\sigma_1$, $\sigma_2$ and $\rho$.",
             "1/(2*pi*s1*s2*sqrt(1 - rho^2))",
             r"p(\mu) = \dfrac{1}{2\pi\sigma_1\sigma_2\sqrt{1-\rho^2}}",
             mistakes={"1/(2*pi*s1*s2*(1 - rho^2))": "That forgets the square root of the "
                                                     "determinant.",
                       "sqrt(1 - rho^2)/(2*pi*s1*s2)": "Upside down: a larger |ρ| shrinks the "
                                                       "determinant, so the peak grows.",
                       "1/(2*pi*s1^2*s2^2*(1 - rho^2))": "That is 1/(2π|Σ|): the density "
                                                         "divides by the square root of |Σ|."}),
    ]
    q = Derivation(
        r"Derive the height of the bivariate normal at its mean, $p(\mu)$, as a function of "
        r"$\sigma_1$, $\sigma_2$ and $\rho$, starting from $p(\mu) = 1/(2\pi|\Sigma|^{1/2})$.",
        steps, symbols=_GAUSS_SYMBOLS, id="02-peak-formula", objective="02.2",
        explanation=(r"$|\Sigma| = \sigma_1^2\sigma_2^2 - (\rho\sigma_1\sigma_2)^2 = "
                     r"\sigma_1^2\sigma_2^2(1 - \rho^2)$, so $|\Sigma|^{1/2} = "
                     r"\sigma_1\sigma_2\sqrt{1-\rho^2}$ and $p(\mu) = "
                     r"1/(2\pi\sigma_1\sigma_2\sqrt{1-\rho^2})$: it grows without bound as "
                     r"$|\rho| \to 1$, where the density collapses onto a line."),
        claims=[r"σ ?1 ?σ ?2 ?sqrt ?\(? ?1 ?- ?ρ ?\^ ?2", r"\|σ\|\^ ?1/2 ?= ?σ ?1 ?σ ?2",
                r"σ ?1 ?\^ ?2 ?σ ?2 ?\^ ?2 ?\( ?1 ?- ?ρ ?\^ ?2"],
        hint="The determinant of [[a, b], [b, c]] is ac − b²; the off-diagonal entry is ρσ₁σ₂.")
    _check_against_library(q, seed)
    return q


def _check_against_library(q: Derivation, seed) -> None:
    """The peak derivation's keys equal the library's determinant and density (else a bug)."""
    gen = np.random.default_rng(seed)
    for s1, s2, r in zip(gen.uniform(0.5, 2, 6), gen.uniform(0.5, 2, 6), gen.uniform(-0.9, 0.9, 6)):
        cov = cov_from_params(s1, s2, r)
        env = {"s1": np.array([s1]), "s2": np.array([s2]), "rho": np.array([r])}
        det, peak = (float(read_formula(step.key, q.symbols)(env)[0]) for step in q.steps)
        if not (np.isclose(det, np.linalg.det(cov), rtol=1e-10)
                and np.isclose(peak, mvn_pdf(np.zeros((1, 2)), np.zeros(2), cov)[0],
                               rtol=1e-10)):
            raise RuntimeError("the peak derivation's keys disagree with genviz.gaussian")


def change_of_units() -> OpenQuestion:
    """Open transfer question: what a change of units does to Σ, ρ, the ellipses and the peak."""
    return OpenQuestion(
        "Adults' height (in metres) and weight (in kilograms) are roughly a 2-D Gaussian with "
        "correlation ρ = 0.5. You re-measure height in centimetres. What happens to the "
        "entries of Σ, to ρ, to the direction of the contour ellipses' major axis, and to the "
        "peak p(μ)? Say why for each.",
        (r"Height is multiplied by 100, so its variance is multiplied by $100^2$, the "
         r"covariance by 100 and weight's variance not at all. $\rho = "
         r"\mathrm{Cov}/(\sigma_1\sigma_2)$ is unchanged: correlation has no units. The "
         r"eigenvectors change, so the ellipses point in another direction: in metres height "
         r"varies far less than weight and the major axis lies almost along weight; in "
         r"centimetres the variances are comparable and the axis turns. The peak "
         r"$1/(2\pi|\Sigma|^{1/2})$ is divided by 100, because $|\Sigma|$ grows by $100^2$: a "
         r"density is per unit area, and a square centimetre-kilogram is a hundredth of a "
         r"metre-kilogram."),
        key_points={"ρ does not change (no units)": r"(ρ|rho|correlation)[^.]{0,60}"
                                                    r"(unchanged|same|not change|stays)",
                    "Σ's entries scale (variance by 100², covariance by 100)":
                        r"10 ?000|100 ?\^ ?2|100²|squared|covariance[^.]{0,40}100",
                    "the ellipses' direction changes with the scale":
                        r"(direction|axis|eigenvector|ellips|tilt|angle)[^.]{0,60}"
                        r"(change|turn|rotat|differ)",
                    "the peak falls by a factor 100": r"peak[^.]{0,60}(100|lower|smaller|fall)"},
        claims=[r"correlation has no units"], objective="02.3")


def uncorrelated_gaussian_independence(rho=0.0, *, n_points=50, seed=0) -> Choice:
    """Retrieval of notebook 01 (independence): are the two coordinates of a 2-D Gaussian with
    correlation ``rho`` independent? Decided numerically: does the density equal the product of
    its two marginals at random points?

    Examples
    --------
    >>> q = uncorrelated_gaussian_independence(0.0)
    >>> q.options[q.correct[0]].startswith("yes")
    True
    """
    gen = np.random.default_rng(seed)
    X = gen.normal(size=(n_points, 2))
    joint = mvn_pdf(X, np.zeros(2), cov_from_params(1.0, 1.0, rho))
    product = np.exp(-0.5 * (X**2).sum(axis=1)) / (2 * np.pi)
    independent = bool(np.allclose(joint, product, rtol=1e-10))
    options = ["yes: the density is the product of the two marginal densities",
               "no: two coordinates of one random vector are never independent",
               "only on the line x₁ = x₂, where the two are equal",
               "no: the density is not the product of its marginals"]
    return Choice(
        f"Notebook 1: A and B are independent when P(A ∧ B) = P(A) P(B). Take σ₁ = σ₂ = 1 and "
        f"ρ = {rho:g}. Are the coordinates x₁ and x₂ of this Gaussian independent?",
        options, 0 if independent else 3, id="02-independent-coordinates", objective="01.2",
        explanation=(r"With $\rho = 0$, $\Sigma = I$ and the exponent "
                     r"$-\frac12(x_1^2 + x_2^2)$ splits: $p(x_1, x_2) = \frac{1}{2\pi} "
                     r"e^{-x_1^2/2} e^{-x_2^2/2} = p(x_1)\,p(x_2)$, the definition of "
                     r"independence from notebook 1, for densities. (For a Gaussian, "
                     r"uncorrelated means independent; for other distributions it does not.) "
                     r"With $\rho \ne 0$ the cross term $\rho x_1 x_2$ in the exponent does "
                     r"not split."),
        reasons={0: None if independent else "With ρ ≠ 0 the exponent has a cross term ρx₁x₂.",
                 1: "They can be: write the density out and see whether it splits.",
                 2: "Independence is a property of the whole density, not of one line.",
                 3: "With ρ = 0 the exponent has no cross term x₁x₂." if independent else None},
        claims=[r"uncorrelated means independent", r"exponent[^.]{0,40}splits"],
        hint="Write out the exponent −½ xᵀΣ⁻¹x for Σ = I: does it split into a part with x₁ and "
             "a part with x₂?")

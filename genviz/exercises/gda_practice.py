"""Practice that climbs for notebooks 03 and 04: investigations with the GDA explorers,
derivations (the quadric boundary, Newton's Hessian), open transfer questions and retrieval
items. Re-exported by :mod:`genviz.exercises.gda` (the notebooks call them as
``exercises.<name>``)."""

from __future__ import annotations

import numpy as np

from genviz._validation import check_int, check_scalar
from genviz.exercises import Choice, Exercise, OpenQuestion
from genviz.exercises.derivation import Derivation, Step, Symbol, read_formula
from genviz.gaussian import cov_from_params, mahalanobis, mvn_pdf
from genviz.gda import GDA, logistic_params
from genviz.studies.gda_vs_logistic import gda_vs_logistic_trial
from genviz.logistic import sigmoid
from genviz.synthetic import DataModel

__all__ = ["qda_quadratic_term", "phi_for_boundary_through_origin", "zoo_new_species",
           "shared_sigma_same_peak", "newton_hessian_derivation", "rho_for_separable_sample",
           "loan_model_choice", "midpoint_boundary", "FIT_EXPLORER_PHIS", "VS_EXPLORER_RHOS",
           "EXPLORER_START"]

#: the GDA-vs-logistic explorer's starting sliders (genviz.plots.gda_vs_logistic)
EXPLORER_START = dict(mu0x=-1.0, mu0y=-0.5, mu1x=1.0, mu1y=0.5, sigma1=1.0, sigma2=1.0, rho=0.3,
                      phi=0.5)

#: the GDA fit explorer's grid of the true phi (genviz.widgets.gda: 0.1 to 0.9, step 0.05)
FIT_EXPLORER_PHIS = np.round(np.arange(0.1, 0.901, 0.05), 2)
#: the GDA-vs-logistic explorer's positions of the correlation rho (-0.9 to 0.9, step 0.05)
VS_EXPLORER_RHOS = np.round(np.arange(-0.9, 0.901, 0.05), 2)


# -- notebook 03 ---------------------------------------------------------------------------------

def _hessian(f, x, eps=1e-3):
    """Central-difference Hessian of a scalar function of a 2-vector (exact for quadratics)."""
    H = np.empty((2, 2))
    E = np.eye(2) * eps
    for i in range(2):
        for j in range(2):
            H[i, j] = (f(x + E[i] + E[j]) - f(x + E[i] - E[j]) - f(x - E[i] + E[j])
                       + f(x - E[i] - E[j])) / (4 * eps * eps)
    return H


#: the symbols of the one-feature class models, as notebook 03 writes them
_QDA_SYMBOLS = {"s0": Symbol("σ₀", 0.4, 2.5, spellings=("sigma0",)),
                "s1": Symbol("σ₁", 0.4, 2.5, spellings=("sigma1",)),
                "m0": Symbol("μ₀", -2.0, 2.0, spellings=("mu0",)),
                "m1": Symbol("μ₁", -2.0, 2.0, spellings=("mu1",))}


def qda_quadratic_term(cov0, cov1, mu0=(0.0, 0.0), mu1=(1.5, 1.0), phi=0.5) -> Derivation:
    r"""Derivation, written: with a covariance per class the log-odds is
    :math:`x^TAx + b^Tx + c`. The learner derives it for one feature (the coefficients of
    :math:`x^2` and :math:`x`, formulas in :math:`\sigma_k, \mu_k`); the worked derivation
    gives :math:`A = \tfrac12(\Sigma_0^{-1} - \Sigma_1^{-1})` in :math:`d` dimensions.

    Checked here against the library: the one-feature keys against an exact quadratic fit of
    the log-odds of :func:`genviz.gaussian.mvn_pdf`'s 1-D densities, and :math:`A` against half
    the Hessian of the log-odds of ``GDA.from_params`` with these parameters (central
    differences at a few points: a quadratic's second differences are exact up to rounding).

    Examples
    --------
    >>> q = qda_quadratic_term([[1, 0.5], [0.5, 0.6]], [[2, -0.5], [-0.5, 1]])
    >>> print(q.check_step(0, "1/(2 s0^2) - 1/(2 s1^2)"))
    Correct!
    """
    S0, S1 = np.asarray(cov0, dtype=float), np.asarray(cov1, dtype=float)
    model = GDA.from_params([1 - phi, phi], [mu0, mu1], np.stack([S0, S1]))

    def log_odds(x):
        lp = model.predict_log_proba(np.atleast_2d(x))[0]
        return lp[1] - lp[0]

    A = np.mean([_hessian(log_odds, x) for x in ([0.0, 0.0], [1.0, -0.5], [-0.7, 1.2])],
                axis=0) / 2
    if not np.allclose(A, (np.linalg.inv(S0) - np.linalg.inv(S1)) / 2, atol=1e-4):
        raise RuntimeError("half the log-odds' Hessian is not (inv(cov0) - inv(cov1)) / 2")
    steps = [
        Step(r"With one feature, $x \mid y = k \sim \mathcal N(\mu_k, \sigma_k^2)$: the "
             r"coefficient $a$ of $x^2$ in the log-odds $\log\frac{p(x\mid y=1)\,\phi}"
             r"{p(x\mid y=0)(1-\phi)}$.", "1/(2*s0^2) - 1/(2*s1^2)",
             r"a = \tfrac{1}{2\sigma_0^2} - \tfrac{1}{2\sigma_1^2}",
             mistakes={"1/(2*s1^2) - 1/(2*s0^2)": "Check the sign: the class-1 density enters "
                                                  "with a plus, and its x² term is "
                                                  "−x²/(2σ₁²).",
                       "1/s0^2 - 1/s1^2": "The Gaussian's exponent carries a factor −½.",
                       "(s0^2 - s1^2)/2": "The exponent divides by the variance."}),
        Step(r"The coefficient $b$ of $x$.", "m1/s1^2 - m0/s0^2",
             r"b = \tfrac{\mu_1}{\sigma_1^2} - \tfrac{\mu_0}{\sigma_0^2}",
             mistakes={"(m1 - m0)/s1^2": "Each class divides by its own variance.",
                       "m0/s0^2 - m1/s1^2": "Check the sign: −(x − μ)²/(2σ²) gives "
                                            "+μx/σ²."}),
    ]
    _check_one_feature(steps)
    return Derivation(
        r"With one covariance per class, $x \mid y=k \sim \mathcal N(\mu_k, \Sigma_k)$, the "
        r"log-odds $\log\frac{p(x\mid y=1)\,\phi}{p(x\mid y=0)(1-\phi)}$ is "
        r"$x^TAx + b^Tx + c$. Derive it for one feature first; the worked derivation then "
        r"gives $A$.", steps, symbols=_QDA_SYMBOLS, id="03-qda-quadratic-term",
        objective="03.4",
        explanation=(r"$\log \mathcal N(x; \mu_k, \Sigma_k) = -\tfrac12(x-\mu_k)^T\Sigma_k^{-1}"
                     r"(x-\mu_k) - \tfrac12\log|\Sigma_k| - \log 2\pi$. Its quadratic part is "
                     r"$-\tfrac12 x^T\Sigma_k^{-1}x$, its linear part $\mu_k^T\Sigma_k^{-1}x$. "
                     r"Class 1 minus class 0 leaves "
                     r"$x^T\,\tfrac12(\Sigma_0^{-1} - \Sigma_1^{-1})\,x$: $A = "
                     r"\tfrac12(\Sigma_0^{-1} - \Sigma_1^{-1})$ (one feature: "
                     r"$1/(2\sigma_0^2) - 1/(2\sigma_1^2)$) and $b = \Sigma_1^{-1}\mu_1 - "
                     r"\Sigma_0^{-1}\mu_0$. $A$ is zero exactly when "
                     r"$\Sigma_0 = \Sigma_1$ (then the boundary is a line); otherwise the "
                     r"boundary $x^TAx + b^Tx + c = 0$ is a quadric: an ellipse, a parabola or a "
                     r"hyperbola, depending on the signs of $A$'s eigenvalues. (genviz's "
                     r"log-odds for the notebook's two covariances has exactly this second "
                     r"derivative.)"),
        claims=[r"a ?= ?t?frac ?12 ?\( ?σ ?0 ?\^ ?-1 ?- ?σ ?1 ?\^ ?-1 ?\)"],
        hint="Keep only the terms with two factors of x (then one) in log N(x; μ₁, σ₁²) − "
             "log N(x; μ₀, σ₀²).")


def _check_one_feature(steps) -> None:
    """The one-feature keys against a quadratic fit of 1-D log-densities (else a bug)."""
    for s0, s1, m0, m1 in ((0.7, 1.6, -0.5, 1.2), (2.0, 0.9, 0.3, -1.1)):
        x = np.array([-1.0, 0.0, 1.5])
        f = (np.log(mvn_pdf(x[:, None], [m1], [[s1**2]]))
             - np.log(mvn_pdf(x[:, None], [m0], [[s0**2]])))
        a, b, _ = np.polyfit(x, f, 2)
        env = {"s0": s0, "s1": s1, "m0": m0, "m1": m1}
        keys = [float(read_formula(step.key, _QDA_SYMBOLS)(env)) for step in steps]
        if not np.allclose(keys, [a, b], rtol=1e-8):
            raise RuntimeError("the one-feature log-odds coefficients disagree with mvn_pdf")


def phi_for_boundary_through_origin(mu0, mu1, sigma1, sigma2, rho) -> Exercise:
    r"""Investigation with the GDA fit explorer: the true :math:`\phi` on its slider at which
    the true boundary passes closest to the origin (:math:`|\theta_0|` smallest, the readout's
    true :math:`\theta_0`), found by computing :func:`genviz.gda.logistic_params` at every
    slider position.

    Examples
    --------
    >>> ex = phi_for_boundary_through_origin((-1.0, -0.5), (1.5, 1.0), 1.0, 0.8, 0.4)
    >>> ex.kind, ex._answer
    ('investigation', 0.7)
    """
    cov = cov_from_params(sigma1, sigma2, rho)
    t0 = np.array([logistic_params(p, mu0, mu1, cov)[1] for p in FIT_EXPLORER_PHIS])
    j = int(np.argmin(np.abs(t0)))
    phi, best = float(FIT_EXPLORER_PHIS[j]), float(t0[j])
    no_prior = t0[j] - np.log(phi / (1 - phi))  # theta0 without the prior's log-odds
    exact = float(1 / (1 + np.exp(no_prior)))  # log(phi / (1 - phi)) = -no_prior
    return Exercise(
        "Investigate with the explorer (its other sliders at their start): move the true φ. At "
        "which φ does the true boundary pass closest to the origin (0, 0), that is, where is "
        "the readout's true θ₀ nearest to 0?",
        phi,
        hint="On the boundary θᵀx + θ₀ = 0; at x = (0, 0) that is θ₀ = 0. Move φ and watch the "
             "sign of the true θ₀ change.",
        solution=(rf"The true $\theta_0 = \tfrac12\mu_0^T\Sigma^{{-1}}\mu_0 - \tfrac12\mu_1^T"
                  rf"\Sigma^{{-1}}\mu_1 + \log\frac{{\phi}}{{1-\phi}}$ grows with $\phi$ and "
                  rf"changes sign between two slider positions; the boundary passes through "
                  rf"the origin at $\phi = {phi:g}$, where $\theta_0 = {best:.3f}$ (exactly "
                  rf"at $\phi = {exact:.3f}$). The prior alone moves the boundary: a commoner "
                  rf"class 1 claims more of the plane."),
        kind="investigation", atol=0.005, rtol=0.0, objective="03.3",
        claims=[rf"through the origin at φ ?= ?{phi:g}\b"])


def zoo_new_species() -> OpenQuestion:
    """Open transfer question: which kind of model can say "none of the classes"?"""
    return OpenQuestion(
        "A zoo's classifier tells dogs from elephants from two measurements. One day a giraffe "
        "walks in. A generative classifier (GDA) and a discriminative one (logistic "
        "regression) both classify it. Which of the two can also tell that the giraffe is "
        "unlike every training animal, and how?",
        (r"Only the generative one. GDA models $p(x \mid y)$ and $p(y)$, so it also has "
         r"$p(x) = \sum_y p(x\mid y)\,p(y)$: the giraffe's measurements are far from both "
         r"Gaussians, $p(x)$ is tiny, and a threshold on it flags the animal as new (outlier "
         r"or novelty detection). Logistic regression models only $p(y\mid x)$; far from the "
         r"training data its $\sigma(\theta^Tx + \theta_0)$ is usually *more* confident, not "
         r"less, and it has no number that says the animal is unusual."),
        key_points={"the generative model has p(x)": r"p ?\(x\)|density of x|likelihood",
                    "a small p(x) flags the new animal": r"(small|tiny|low)[^.]{0,40}"
                                                        r"(p ?\(x\)|density|likelihood)|"
                                                        r"(p ?\(x\)|density|likelihood)[^.]{0,40}"
                                                        r"(small|tiny|low)|outlier|novel|"
                                                        r"unusual|threshold",
                    "the discriminative model has only p(y|x), often confident far away":
                        r"p ?\(y ?\| ?x\)|only[^.]{0,30}(class|label|boundary)|confident"},
        claims=[r"only the generative", r"p ?\( ?x ?\) ?= ?(sum|∑)"], objective="03.1")


def shared_sigma_same_peak(X, y) -> Choice:
    """Retrieval of notebook 02 (the peak from the determinant): with a shared Sigma, which
    fitted class density is taller at its own mean? Computed with :func:`genviz.gaussian.mvn_pdf` on the GDA
    fitted to ``X, y``.

    Examples
    --------
    >>> X = [[0, 1], [1, 0], [2, 2], [4, 3], [5, 5], [6, 4]]
    >>> q = shared_sigma_same_peak(X, [0, 0, 1, 1, 1, 0])
    >>> q.options[q.correct[0]][:13]
    'the same: the'
    """
    gda = GDA().fit(np.asarray(X, dtype=float), np.asarray(y))
    peaks = [mvn_pdf(gda.means_[k][None, :], gda.means_[k], gda.covariance_)[0] for k in (0, 1)]
    same = bool(np.isclose(peaks[0], peaks[1], rtol=1e-12))
    options = ["the same: the two peaks are equally tall",
               "class 1's: it has more training examples",
               "the class whose mean is further from the origin",
               "class 0's: its points are closer together"]
    return Choice(
        "Notebook 2: GDA gives both classes the same Σ. Fit it to the exercise data above: "
        "which class density, p(x | y = 0) at μ₀ or p(x | y = 1) at μ₁, is taller at its own "
        "mean?", options, 0 if same else 3, id="03-same-peak", objective="02.2",
        explanation=(rf"A Gaussian's height at its mean is $1/(2\pi|\Sigma|^{{1/2}})$ in two "
                     rf"dimensions (notebook 2): the mean only moves the bump. With a shared "
                     rf"$\Sigma$ both peaks are ${peaks[0]:.4f}$. The class prior $\phi$ scales "
                     rf"$p(x\mid y)p(y)$, not $p(x \mid y)$."),
        reasons={1: "The prior multiplies p(x|y) p(y); the question is about p(x|y).",
                 2: "Moving the mean slides the bump without changing its shape.",
                 3: "The spread of each class is pooled into the one shared Σ."},
        claims=[r"both peaks are", r"the mean only moves the bump"],
        hint="What does the peak of a 2-D Gaussian depend on?")


# -- notebook 04 ---------------------------------------------------------------------------------

#: the symbols of one example's term of logistic regression's loss, as notebook 04 writes them
_NEWTON_SYMBOLS = {"p": Symbol("p", 0.02, 0.98), "y": Symbol("y", 0.0, 1.0),
                   "xj": Symbol("x_j", -3.0, 3.0, spellings=("x_j",)),
                   "xk": Symbol("x_k", -3.0, 3.0, spellings=("x_k",))}


def newton_hessian_derivation(X, y, *, at=None) -> Derivation:
    r"""Derivation, written: the Hessian of logistic regression's negative log-likelihood, for
    Newton's step, one example's term at a time (formulas in :math:`p = \sigma(z)`, :math:`y`
    and the features :math:`x_j, x_k`). The keys are checked here against central differences
    of the gradient :math:`\tilde X^T(p - y)` at ``at`` (default 0.25 in every coordinate) on
    these data: :math:`\sum_i p_i(1-p_i)\,\tilde x_i\tilde x_i^T`.

    Examples
    --------
    >>> q = newton_hessian_derivation([[0.0], [1.0], [2.0], [3.0]], [0, 1, 0, 1])
    >>> print(q.check_step(1, "p (1 - p) xj xk"))
    Correct!
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    Xa = np.column_stack([np.ones(len(y)), X])
    w = np.full(Xa.shape[1], 0.25) if at is None else np.asarray(at, dtype=float)
    if w.shape != (Xa.shape[1],) or not np.all(np.isfinite(w)):
        raise ValueError(f"at must be {Xa.shape[1]} finite weights (intercept first), got "
                         f"shape {w.shape}")

    def grad(v):
        return Xa.T @ (sigmoid(Xa @ v) - y)

    eps = 1e-6
    H = np.column_stack([(grad(w + eps * e) - grad(w - eps * e)) / (2 * eps)
                         for e in np.eye(len(w))])
    p = sigmoid(Xa @ w)
    steps = [
        Step(r"The derivative of $p = \sigma(z) = 1/(1 + e^{-z})$ with respect to $z$, "
             r"through $p$.", "p*(1 - p)", r"\sigma'(z) = p(1-p)",
             mistakes={"p": "Differentiate 1/(1 + e^(−z)): e^(−z)/(1 + e^(−z))² = p(1 − p).",
                       "1 - p": "Differentiate 1/(1 + e^(−z)): e^(−z)/(1 + e^(−z))² = "
                                "p(1 − p)."}),
        Step(r"One example's term of the gradient is $(p - y)\,x_j$. Its derivative with "
             r"respect to $w_k$ (with $z = \tilde x^T w$, so $\partial z/\partial w_k = x_k$): "
             r"the example's entry $(j, k)$ of the Hessian.", "p*(1 - p)*xj*xk",
             r"\frac{\partial^2 J_i}{\partial w_j\partial w_k} = p_i(1-p_i)\,x_{ij}x_{ik}",
             mistakes={"(p - y)^2*xj*xk": "The label y is a constant: it vanishes when the "
                                          "gradient is differentiated.",
                       "xj*xk": "That is least squares' Hessian: here each example is weighted "
                                "by σ'(z).",
                       "p*xj*xk": "Differentiate p = σ(z): σ'(z) = σ(z)(1 − σ(z))."}),
    ]
    env = {"p": p, "y": y, "xj": Xa.T[:, None, :], "xk": Xa.T[None, :, :]}
    terms = read_formula(steps[1].key, _NEWTON_SYMBOLS)(env)
    if not np.allclose(terms.sum(axis=-1), H, atol=1e-5 * np.abs(H).max()):
        raise RuntimeError("the per-example Hessian terms disagree with the gradient's "
                           "central differences")
    return Derivation(
        r"Newton's method needs the Hessian of $J(\theta, \theta_0) = \sum_i [\log(1 + "
        r"e^{z_i}) - y_i z_i]$, $z_i = \tilde x_i^T w$, where $\tilde x_i = (1, x_i)$ is the "
        r"$i$-th row of $\tilde X$ and $w = (\theta_0, \theta)$. Its gradient is "
        r"$\tilde X^T(p - y)$ with $p_i = \sigma(z_i)$. Differentiate once more, one example "
        r"at a time.", steps,
        symbols=_NEWTON_SYMBOLS, id="04-newton-hessian", objective="04.1",
        explanation=(r"$\partial p_i / \partial w = \sigma'(z_i)\,\tilde x_i = p_i(1-p_i)\,"
                     r"\tilde x_i$, so the gradient $\sum_i (p_i - y_i)\tilde x_i$ has the "
                     r"Jacobian $\sum_i p_i(1-p_i)\,\tilde x_i\tilde x_i^T = \tilde X^T W \tilde X$ "
                     r"with $W = \mathrm{diag}(p_i(1-p_i))$; $y$ drops out. Each weight is in "
                     r"$(0, \tfrac14]$, so the Hessian is positive semi-definite ($J$ is convex) "
                     r"and singular exactly when the columns of $\tilde X$ are collinear. On "
                     r"separable data the weights of a growing $\theta$ go to 0: the curvature "
                     r"vanishes and there is no minimum."),
        claims=[r"p ?i ?\( ?1 ?- ?p ?i ?\) ?[^.]{0,20}(tilde )?x ?i ?(tilde )?x ?i ?\^ ?t",
                r"y drops out"],
        hint="Only p depends on w, through σ(z); use the chain rule.")


def rho_for_separable_sample(n=200, *, seed=0, n_test=4000, **params) -> Exercise:
    """Investigation with the GDA-vs-logistic explorer: at ``n`` training points, lower the
    shared covariance's correlation ρ from its start; the first value on the slider at which the
    sample is linearly separable (the readout says logistic regression needs a ridge). Found by
    running the explorer's trial (:func:`genviz.studies.gda_vs_logistic.gda_vs_logistic_trial`,
    same seeds) at every slider position. ρ is one of the explorer's gridded controls, so the
    search needs no kernel (the website, a phone).

    Examples
    --------
    >>> rho_for_separable_sample()._answer
    -0.85
    """
    p = {**EXPLORER_START, **params}
    n = check_int(n, "n", low=4)
    start = check_scalar(p["rho"], "rho", low=-0.9, high=0.9)
    steps = [r for r in VS_EXPLORER_RHOS[::-1] if r <= start + 1e-9]
    found = None
    for r in steps:
        model = DataModel("gaussian", [p["mu0x"], p["mu0y"]], [p["mu1x"], p["mu1y"]],
                          cov_from_params(p["sigma1"], p["sigma2"], r), phi=p["phi"])
        if gda_vs_logistic_trial(model, n, n_test=n_test, seed=seed).lr_l2 > 0:
            found = float(r)
            break
    if found is None:
        raise ValueError(f"no ρ on the slider makes {n} points separable; lower n")
    def distance(r):  # between the class means, measured by the shared covariance at ρ = r
        return float(mahalanobis([[p["mu1x"], p["mu1y"]]], [p["mu0x"], p["mu0y"]],
                                 cov_from_params(p["sigma1"], p["sigma2"], r))[0])
    return Exercise(
        f"Investigate with the explorer (data 'Gaussian, shared Σ', n = {n}, the other sliders "
        f"at their start): lower ρ one step at a time from {start:g}. At which ρ does the "
        f"readout first say the sample is linearly separable?",
        found,
        hint="Watch the note under the readout: it appears when no line misclassifies a "
             "training point, and logistic regression then needs a small ridge.",
        solution=(rf"The sample is drawn from the same standard normals at every ρ, so the "
                  rf"points glide as the shared ellipse turns and narrows. The means stay put, "
                  rf"but their distance measured by $\Sigma$ (the Mahalanobis distance "
                  rf"$\sqrt{{\Delta\mu^\top\Sigma^{{-1}}\Delta\mu}}$) grows from "
                  rf"{distance(start):.2f} at ρ = {start:g} to {distance(found):.2f} at "
                  rf"ρ = {found:g}: the ellipses are thin across the direction that separates "
                  rf"the classes, and from ρ = {found:g} on a line separates them. The "
                  rf"likelihood of logistic regression then keeps growing with $\|\theta\|$ "
                  rf"and has no maximiser (the unregularised MLE does not exist); genviz refits "
                  rf"with $\lambda = 10^{{-3}}$. GDA is unaffected: its estimates are averages."),
        kind="investigation", atol=0.005, rtol=0.0, objective="04.1",
        claims=[rf"from ρ ?= ?{found:g} on a line separates"])


def loan_model_choice() -> OpenQuestion:
    """Open transfer question: GDA or logistic regression for skewed features?"""
    return OpenQuestion(
        "A bank has 200 labelled loan applications with 5 features; incomes and debts are "
        "strongly skewed (a few are huge). Would you fit GDA or logistic regression? What "
        "would change your mind?",
        (r"Skewed features are far from Gaussian, so GDA's assumption is wrong and its "
         r"boundary is biased, a bias more data cannot remove; logistic regression assumes "
         r"only that $p(y\mid x)$ is logistic and is more robust: my default. Two things could "
         r"change that. Transforming the features (the logarithm of income and debt) can make "
         r"them close to Gaussian, and then GDA's efficiency helps with only 200 examples. And "
         r"with very few examples per feature GDA's lower variance can win even with a somewhat "
         r"wrong model; with thousands of applications logistic regression wins. Compare the "
         r"two on held-out applications (or by cross-validation) rather than deciding by "
         r"argument alone."),
        key_points={"GDA's Gaussian assumption fails: bias": r"gaussian|assum|bias|skew",
                    "logistic regression is more robust": r"robust|weaker|fewer assum|"
                                                         r"only p ?\(y",
                    "few examples favour GDA when its assumption (nearly) holds":
                        r"(few|small|200)[^.]{0,60}(gda|variance|efficien)|efficien",
                    "transform the features, or compare on held-out data":
                        r"log|transform|held.out|cross.valid|test set"},
        claims=[r"skewed features are far from gaussian"], objective="04.3")


def midpoint_boundary(mu0, mu1, cov) -> Choice:
    """Retrieval of notebook 03 (the posterior is a sigmoid; theta, theta0): with phi = 0.5,
    where does the Bayes boundary cross the segment from mu0 to mu1? Computed with
    :func:`genviz.gda.logistic_params`.

    Examples
    --------
    >>> q = midpoint_boundary([0, 0], [1.5, 0], [[1, 0.8], [0.8, 1]])
    >>> q.options[q.correct[0]][:18]
    'at the midpoint (μ'
    """
    mu0, mu1 = np.asarray(mu0, dtype=float), np.asarray(mu1, dtype=float)
    theta, theta0 = logistic_params(0.5, mu0, mu1, np.asarray(cov, dtype=float))
    t = np.linspace(0, 1, 100001)
    z = (mu0 + t[:, None] * (mu1 - mu0)) @ theta + theta0
    cross = float(t[np.argmin(np.abs(z))])
    options = ["at the midpoint (μ₀ + μ₁)/2, whatever Σ is",
               "nearer μ₀: the boundary leans towards the first class",
               "it depends on Σ: anywhere on the segment",
               "nowhere: the boundary is parallel to μ₁ − μ₀"]
    answer = 0 if abs(cross - 0.5) < 1e-4 else 2
    return Choice(
        f"Notebook 3: with a shared Σ the posterior is σ(θᵀx + θ₀). Take the Gaussian data of "
        f"the learning curves above (μ₀ = {mu0.tolist()}, μ₁ = {mu1.tolist()}, Σ = "
        f"{np.asarray(cov, dtype=float).tolist()}) but φ = 0.5. Where does the boundary "
        f"p(y = 1 | x) = 0.5 cross the segment from μ₀ to μ₁?",
        options, answer, id="04-midpoint-boundary", objective="03.3",
        explanation=(r"At $m = (\mu_0 + \mu_1)/2$: $\theta^Tm + \theta_0 = \tfrac12(\mu_1 - "
                     r"\mu_0)^T\Sigma^{-1}(\mu_0 + \mu_1) + \tfrac12\mu_0^T\Sigma^{-1}\mu_0 - "
                     r"\tfrac12\mu_1^T\Sigma^{-1}\mu_1 + \log 1 = 0$ (the cross terms cancel "
                     r"because $\Sigma^{-1}$ is symmetric). So with equal priors the boundary "
                     r"always bisects the segment; $\Sigma$ only sets its *direction*, which is "
                     r"why it is not perpendicular to $\mu_1 - \mu_0$ here. A prior "
                     r"$\phi \ne 0.5$ shifts it by $\log\frac{\phi}{1-\phi}$."),
        reasons={1: "With φ = 0.5 neither class is favoured: check θᵀx + θ₀ at the midpoint.",
                 2: "Σ turns the boundary but cannot move where it crosses the segment.",
                 3: "θ = Σ⁻¹(μ₁ − μ₀) has a positive product with μ₁ − μ₀ (Σ⁻¹ is positive "
                    "definite), so the log-odds changes along the segment."},
        claims=[r"(always )?bisects the segment"],
        hint="Evaluate θᵀx + θ₀ at x = (μ₀ + μ₁)/2 with the formulas of notebook 3.")

"""Exercises for notebooks 03 (fitting GDA by hand) and 04 (GDA vs logistic regression)."""

from __future__ import annotations

import numpy as np

from genviz.exercises import Choice, Exercise, Observation, Prediction
from genviz.exercises.choice import _transfer
from genviz.exercises.gda_practice import (EXPLORER_START, loan_model_choice, midpoint_boundary,
                                           newton_hessian_derivation,
                                           phi_for_boundary_through_origin, qda_quadratic_term,
                                           shared_sigma_same_peak, rho_for_separable_sample,
                                           zoo_new_species)
from genviz.gaussian import cov_from_params
from genviz.gda import GDA, logistic_params
from genviz.logistic import LogisticRegression
from genviz.studies.gda_vs_logistic import gda_vs_logistic_trial
from genviz.synthetic import DataModel

__all__ = ["sigma_by_hand", "boundary_point", "theta_from_params",
           "theta0_from_params", "poisson_theta", "better_learner", "predict_boundary_with_phi",
           "duplicated_data_concept", "predict_outliers",
           "poisson_bias_concept",
           "qda_quadratic_term", "phi_for_boundary_through_origin", "zoo_new_species",
           "shared_sigma_same_peak", "newton_hessian_derivation", "rho_for_separable_sample",
           "loan_model_choice", "midpoint_boundary"]


def _fit(X, y):
    return GDA().fit(np.asarray(X, dtype=float), np.asarray(y))


def sigma_by_hand(X, y) -> Exercise:
    """The shared covariance, dividing by n."""
    return Exercise(
        "Compute the shared covariance matrix Sigma (2x2).",
        _fit(X, y).covariance_,
        hint="Subtract from each x(i) the mean of ITS OWN class, take the outer product of the "
             "residual with itself, add all n of them and divide by n (not n - 1, not n_k).",
        solution=(r"$\Sigma = \frac1n \sum_{i=1}^n (x^{(i)} - \mu_{y^{(i)}})(x^{(i)} - "
                  r"\mu_{y^{(i)}})^T$ — each example centred at the mean of its own class, "
                  r"divided by $n$."),
        objective="03.2",
    )


def boundary_point(X, y, x1: float) -> Exercise:
    """The x2 at which the GDA boundary crosses the vertical line at x1."""
    theta, theta0 = _fit(X, y).logistic_params()
    return Exercise(
        f"Where does the boundary p(y=1|x) = 0.5 cross the vertical line x1 = {x1}? Give x2.",
        float(-(theta0 + theta[0] * x1) / theta[1]),
        hint="On the boundary theta^T x + theta0 = 0; solve theta[0] x1 + theta[1] x2 + theta0 = 0 "
             "for x2.",
        solution=(rf"With $\theta = \Sigma^{{-1}}(\mu_1 - \mu_0) = ({theta[0]:.4g}, {theta[1]:.4g})$"
                  rf" and $\theta_0 = {theta0:.4g}$, the boundary is $\theta^T x + \theta_0 = 0$, "
                  rf"so $x_2 = -(\theta_0 + \theta_1 x_1)/\theta_2$ at $x_1 = {x1:g}$."),
        objective="03.3",
    )


def theta_from_params(phi, mu0, mu1, cov) -> Exercise:
    """theta = Sigma^-1 (mu1 - mu0)."""
    theta, _ = logistic_params(phi, mu0, mu1, cov)
    return Exercise(
        f"For phi = {phi}, mu0 = {list(mu0)}, mu1 = {list(mu1)}, Sigma = "
        f"{np.asarray(cov).tolist()}, compute theta (length 2) with p(y=1|x) = "
        f"sigmoid(theta^T x + theta0).",
        theta,
        hint="Write log p(x|y=1)phi - log p(x|y=0)(1-phi): the quadratic terms x^T Sigma^-1 x "
             "cancel; the coefficient of x is Sigma^-1 (mu1 - mu0).",
        solution=(r"In $\log\frac{p(x|y=1)\phi}{p(x|y=0)(1-\phi)}$ the quadratic terms "
                  r"$x^T\Sigma^{-1}x$ cancel and the coefficient of $x$ is "
                  r"$\theta = \Sigma^{-1}(\mu_1 - \mu_0)$ (`np.linalg.solve(Sigma, mu1 - mu0)`)."),
        objective="04.2",
    )


def theta0_from_params(phi, mu0, mu1, cov) -> Exercise:
    """theta0 = (mu0' S^-1 mu0 - mu1' S^-1 mu1) / 2 + log(phi / (1 - phi))."""
    _, theta0 = logistic_params(phi, mu0, mu1, cov)
    return Exercise(
        "For the same parameters, compute the intercept theta0.",
        theta0,
        hint="The terms without x: -1/2 mu1^T Sigma^-1 mu1 + 1/2 mu0^T Sigma^-1 mu0, plus the "
             "prior's log-odds log(phi / (1 - phi)).",
        solution=(r"$\theta_0 = \tfrac12 \mu_0^T\Sigma^{-1}\mu_0 - \tfrac12 \mu_1^T\Sigma^{-1}\mu_1"
                  r" + \log\frac{\phi}{1-\phi}$."),
        objective="04.2",
    )


def poisson_theta(lam0, lam1) -> Exercise:
    """For independent Poisson features the log-odds are linear: theta_j = log(lam1_j/lam0_j)."""
    lam0 = np.asarray(lam0, dtype=float)
    lam1 = np.asarray(lam1, dtype=float)
    # printed to 4 significant digits: theta from the printed rates is within the check's rtol
    rates = [", ".join(f"{v:.4g}" for v in lam) for lam in (lam0, lam1)]
    return Exercise(
        f"x_j | y=0 ~ Poisson([{rates[0]}]) and x_j | y=1 ~ Poisson([{rates[1]}]), "
        f"independently. p(y=1|x) is then exactly logistic: what is theta (the coefficients of "
        f"x)?",
        np.log(lam1 / lam0),
        hint="log p(x_j | y) = x_j log(lambda_yj) - lambda_yj - log(x_j!); subtract the class-0 "
             "log-likelihood from the class-1 one and read off the factor multiplying x_j.",
        solution=(r"$\log p(x_j \mid y) = x_j \log\lambda_{yj} - \lambda_{yj} - \log x_j!$; the "
                  r"difference of the two classes is linear in $x_j$ with coefficient "
                  r"$\theta_j = \log(\lambda_{1j}/\lambda_{0j})$. The $-\lambda_{yj}$ terms and "
                  r"$\log\frac{\phi}{1-\phi}$ go into $\theta_0$; $\log x_j!$ cancels."),
        objective="04.3",
    )


def better_learner(curves, n: int) -> Exercise:
    """Which learner has the lower mean test error at training size n in a learning curve."""
    sizes = list(np.asarray(curves.sizes))
    if n not in sizes:
        raise ValueError(f"n must be one of the sizes {sizes}, got {n!r}")
    j = sizes.index(n)
    g = curves.gda_errors[:, j].mean()
    lr = curves.lr_errors[:, j].mean()
    answer = "GDA" if g < lr else "logistic regression"
    other = "logistic regression" if answer == "GDA" else "GDA"
    return Exercise(
        f"Read the learning curves: at n = {n}, which learner has the lower mean test error? "
        f"Answer 'GDA' or 'logistic regression'.",
        answer,
        hint="Compare the two markers at that n (or the arrays lc.gda_errors and lc.lr_errors "
             "averaged over repetitions, axis 0).",
        solution=(f"Mean test errors at $n = {n}$: GDA ${g:.4f}$, logistic regression "
                  f"${lr:.4f}$: {answer} is ahead of {other}."),
        claims=[rf"{answer} (is|stays|keeps) (ahead|lower|better)"], objective="04.4",
    )


def _crossing(phi, mu0, mu1, cov) -> float:
    """Where the boundary theta^T x + theta0 = 0 crosses the segment mu0 -> mu1, as t in
    x = mu0 + t (mu1 - mu0) (t = 1/2: half-way)."""
    theta, theta0 = logistic_params(phi, mu0, mu1, cov)
    mu0, mu1 = np.asarray(mu0, dtype=float), np.asarray(mu1, dtype=float)
    return float(-(theta @ mu0 + theta0) / (theta @ (mu1 - mu0)))


def _boundary_with_phi_transfer(phi_from=0.2, phi_to=0.02, mu0=(0.0, 0.0), mu1=(3.0, 2.0),
                                rho=0.3) -> Choice:
    """The analogous situation after 03's cycle: a screening test's GDA used where the illness
    is rarer; where the boundary crosses the segment from the healthy mean to the ill one is
    computed from the model (:func:`_crossing`, :func:`genviz.gda.logistic_params`)."""
    cov = cov_from_params(1.0, 1.0, rho)
    t0, t1 = _crossing(phi_from, mu0, mu1, cov), _crossing(phi_to, mu0, mu1, cov)
    right = 0 if t1 > t0 else 1
    wrong_side = ("The boundary is where φ p(x | ill) = (1 − φ) p(x | healthy): with a smaller "
                  "φ, which side needs stronger evidence?")
    return _transfer(
        "03-boundary-with-phi", right,
        f"A screening test's two blood readings are classified by GDA with a shared Σ: "
        f"healthy (y = 0) against ill (y = 1). It was fitted where φ = p(ill) = {phi_from:g}; a "
        f"clinic uses it where the illness is rarer, φ = {phi_to:g}, with the same readings "
        f"per class. Where does the boundary p(ill | x) = 0.5 go?",
        [("parallel, towards the ill mean: fewer borderline patients are called ill",
          None if right == 0 else wrong_side),
         ("parallel, towards the healthy mean: more borderline patients are called ill",
          None if right == 1 else wrong_side),
         ("nowhere: ill and healthy patients' readings look the same in both regions",
          "The readings per class are the same, but Bayes' rule also weighs them by the prior "
          "φ."),
         ("it turns, because the rarer class pulls the line round towards its side",
          "The line's direction is Σ⁻¹(μ₁ − μ₀): does φ appear in it?")],
        explanation=(r"Only the intercept holds $\log\frac{\phi}{1-\phi}$; the direction "
                     r"$\Sigma^{-1}(\mu_1 - \mu_0)$ is the same in both regions. On the "
                     rf"segment from the healthy mean to the ill mean the boundary crosses at "
                     rf"{t0:.0%} of the way at $\phi = {phi_from:g}$ and at {t1:.0%} at "
                     rf"$\phi = {phi_to:g}$ (computed from the model): "
                     + ("it moves towards the ill mean, so fewer borderline patients are "
                        "called ill: the rarer illness needs stronger evidence."
                        if right == 0 else
                        "it moves towards the healthy mean, so more borderline patients are "
                        "called ill.")),
        claims=[r"fewer (borderline )?patients[^.]{0,40}called ill" if right == 0 else
                r"more (borderline )?patients[^.]{0,40}called ill"])


def predict_boundary_with_phi(phi_from, phi_to, mu0, mu1, sigma1, sigma2, rho) -> Prediction:
    """Before the GDA fit explorer: which way does the true boundary move when phi changes?
    The observation: the true θ₀ in the explorer's readout at ``phi_to``."""
    cov = cov_from_params(sigma1, sigma2, rho)
    t0, t1 = _crossing(phi_from, mu0, mu1, cov), _crossing(phi_to, mu0, mu1, cov)
    _, theta0 = logistic_params(phi_to, mu0, mu1, cov)
    _, theta0_from = logistic_params(phi_from, mu0, mu1, cov)
    options = ["towards μ₁, the mean of class y = 1",
               "towards μ₀, the mean of class y = 0",
               "nowhere: φ changes the estimates, not the boundary",
               "it turns about the midpoint of μ₀ and μ₁"]
    right = 0 if t1 > t0 else 1 if t1 < t0 else 2
    grows = phi_to > 0.5
    setting = {"phi": phi_to, "mu0x": mu0[0], "mu0y": mu0[1], "mu1x": mu1[0], "mu1y": mu1[1],
               "sigma1": sigma1, "sigma2": sigma2, "rho": rho}
    labels = {"phi": "φ", "mu0x": "μ₀ (x₁)", "mu0y": "μ₀ (x₂)", "mu1x": "μ₁ (x₁)",
              "mu1y": "μ₁ (x₂)", "sigma1": "σ₁", "sigma2": "σ₂", "rho": "ρ"}
    return Prediction(
        f"In the explorer below, drag the true φ = p(y = 1) from {phi_from} to {phi_to}, leaving "
        f"the other sliders alone. Which way does the dashed true boundary p(y = 1 | x) = 0.5 "
        f"move?",
        options, right, id="03-boundary-with-phi",
        explanation=(r"$\phi$ enters only the intercept: $\theta_0$ contains "
                     r"$\log\frac{\phi}{1-\phi}$, "
                     + (r"positive for $\phi > 1/2$" if grows else r"negative for $\phi < 1/2$")
                     + r", while $\theta = \Sigma^{-1}(\mu_1 - \mu_0)$, which sets the "
                     r"direction of the line, does not contain $\phi$. So the line keeps its "
                     r"direction and moves parallel to itself: "
                     + ("the commoner class y = 1 gets more room, and the boundary moves "
                        "towards μ₀." if right == 1 else
                        "the rarer class y = 1 gets less room, and the boundary moves "
                        "towards μ₁.")),
        reasons=[None, None,
                 "The boundary is where p(y=1|x) = 0.5, and Bayes' rule multiplies by the prior "
                 "φ: does that product stay the same?",
                 "The direction of the line is set by θ = Σ⁻¹(μ₁ − μ₀): is φ in it?"],
        claims=[r"(commoner|more (common|likely)) class[^.]{0,30}more room" if right == 1 else
                r"(rarer|less (common|likely)) class[^.]{0,30}less room",
                r"boundary moves towards μ"],
        transfer=_boundary_with_phi_transfer(),
        observation=Observation(
            f"Compare the true θ₀ (the bias in θᵀx + θ₀, dashed line) at φ = {phi_from} and at "
            f"φ = {phi_to} (the other sliders at their start): record both. Did its direction "
            f"θ change too?",
            float(theta0), setting=setting, labels=labels, read="theta0_true", mention=["phi"],
            before={"phi": phi_from}, expected_before=float(theta0_from),
            what="the true θ₀", hint="read θ₀ in the readout's line 'true θ' (3 decimals), not "
                                     "the fitted θ₀ above it.", atol=6e-4))


def duplicated_data_concept(X, y) -> Choice:
    """Fit GDA to the data and to the data twice: which estimates change? (Both fits are
    computed.)"""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    a, b = _fit(X, y), _fit(np.vstack([X, X]), np.concatenate([y, y]))
    same = (np.isclose(a.phi_, b.phi_) and np.allclose(a.means_, b.means_)
            and np.allclose(a.covariance_, b.covariance_))
    options = ["none of them", "only Σ (it divides by n, and n doubles)",
               "φ and Σ, which depend on n", "all four"]
    return Choice(
        "You copy every training example once, so each animal appears twice, and fit GDA "
        "again. Which of the four estimates φ, μ₀, μ₁, Σ change?",
        options, 0 if same else 3, id="03-duplicated-data",
        claims=([r"(copies|twice|doubl\w*)[^.]{0,80}nothing changes",
                 r"doubles each sum and its count"] if same else [r"all four"]),
        objective="03.2",
        explanation=(r"Every estimate is an average: $\phi$ of $1\{y^{(i)}=1\}$, $\mu_k$ of "
                     r"the class-$k$ points, $\Sigma$ of the outer products of the residuals. "
                     r"Doubling every point doubles each sum and its count, so nothing changes "
                     r"(genviz fits both and finds the same numbers). Data give *confidence* "
                     r"only when they are new, not copies."),
        reasons=[None, "Σ divides by n, but its sum of outer products doubles too.",
                 "φ is a count divided by n: both double.",
                 "Each estimate is a sum divided by a count: what happens to both?"],
    )


def _learners_errors(family, params, n, seed, n_test):
    """GDA's and logistic regression's test errors on one sample of ``family``, drawn as the
    GDA-vs-logistic explorer draws it (:func:`genviz.studies.gda_vs_logistic.gda_vs_logistic_trial`:
    training seed ``seed``, test seed ``seed + 1``, the same separable-data fallback)."""
    cov = cov_from_params(params["sigma1"], params["sigma2"], params["rho"])
    model = DataModel(family, [params["mu0x"], params["mu0y"]], [params["mu1x"], params["mu1y"]],
                      cov, phi=params["phi"])
    trial = gda_vs_logistic_trial(model, n, n_test=n_test, seed=seed)
    return {"gda": trial.test_error(trial.gda()), "lr": trial.lr_error}




def _thresholds(x0, x1) -> tuple[float, float]:
    """The score where p(y = 1 | x) = 0.5 for one feature: GDA's (shared variance) and logistic
    regression's, both fitted with genviz."""
    X = np.concatenate([x0, x1])[:, None]
    y = np.concatenate([np.zeros(len(x0), dtype=int), np.ones(len(x1), dtype=int)])
    theta, theta0 = GDA().fit(X, y).logistic_params()
    lr = LogisticRegression().fit(X, y)
    return float(-theta0 / theta[0]), float(-lr.intercept_ / lr.coef_[0])


def _outliers_transfer(n=300, far=40.0, share=0.1, *, seed=0) -> Choice:
    """The analogous situation after 04's cycle: one risk score, genuine payments around 2 and
    fraud around 5, then a tenth of the fraud entered far out; both learners' thresholds are
    fitted with genviz (:func:`_thresholds`) on the seeded sample, with and without."""
    gen = np.random.default_rng(seed)
    genuine, fraud = gen.normal(2.0, 1.0, n), gen.normal(5.0, 1.0, n)
    moved = fraud.copy()
    moved[:int(round(share * n))] = gen.normal(far, 1.0, int(round(share * n)))
    (g0, l0), (g1, l1) = _thresholds(genuine, fraud), _thresholds(genuine, moved)
    if not abs(g1 - g0) > 5 * abs(l1 - l0):
        raise RuntimeError(f"GDA's threshold moves {g1 - g0:.2f}, logistic regression's "
                           f"{l1 - l0:.2f}: change the situation")
    return _transfer(
        "04-outliers", 0,
        f"A bank flags card fraud from one risk score: genuine payments score about 2, fraud "
        f"about 5. Then {share:.0%} of the fraud cases are entered with a score near {far:g}, "
        f"far out on the fraud side. Whose threshold, the score where p(fraud | score) = 0.5, "
        f"moves further: GDA's or logistic regression's?",
        [(f"GDA's: from {g0:.1f} to {g1:.1f}, in among the fraud cases", None),
         ("logistic regression's: the far cases are its largest inputs",
          f"Logistic regression weighs a case by how wrong its prediction is: is a "
          f"score of {far:g} predicted wrongly?"),
         ("neither: the far cases lie on the fraud side already",
          "They are on the right side, but an average moves with every point: is "
          "every learner an average?"),
         ("both the same way: they are fitted to the same payments",
          "They see the same payments but use them differently: compare an average with "
          "a fit of p(y | x).")],
        explanation=(rf"GDA's fraud mean is an average over every fraud case, and the shared "
                     rf"variance sums every squared residual: the far cases drag the mean out "
                     rf"and inflate the variance, so its threshold moves from {g0:.2f} to "
                     rf"{g1:.2f}, in among the fraud cases, and more fraud slips through "
                     rf"unflagged. Logistic regression's moves from {l0:.2f} to {l1:.2f}: it "
                     rf"already calls the far cases fraud with probability near 1, so their "
                     rf"gradient $(y - p)\,x$ is near 0 (both fitted with genviz on {n} "
                     rf"payments of each kind)."),
        claims=[r"more fraud[^.]{0,30}slips through"])


def predict_outliers(n=200, *, seed=0, n_test=4000, **params) -> Prediction:
    """Before the GDA-vs-logistic explorer: which learner suffers more from outliers? (Both are
    fitted to the explorer's samples, with and without the far cluster.) The observation: how
    much higher GDA's test error is than logistic regression's on the outliers."""
    p = {**EXPLORER_START, **params}
    clean = _learners_errors("gaussian", p, n, seed, n_test)
    dirty = _learners_errors("outliers", p, n, seed, n_test)
    hurt = {k: dirty[k] - clean[k] for k in ("gda", "lr")}
    if abs(hurt["gda"] - hurt["lr"]) < 0.01:
        right = 2
    else:
        right = 0 if hurt["gda"] > hurt["lr"] else 1
    setting = {**p, "n": n, "family": "outliers", "gda_cov": "shared"}
    labels = {"mu0x": "μ₀ (x₁)", "mu0y": "μ₀ (x₂)", "mu1x": "μ₁ (x₁)", "mu1y": "μ₁ (x₂)",
              "sigma1": "σ₁", "sigma2": "σ₂", "rho": "ρ", "phi": "φ", "family": "data",
              "gda_cov": "GDA"}
    return Prediction(
        "In the explorer below, switch the data from 'Gaussian, shared Σ' to 'Gaussian + 10% "
        "outliers in class 1' (a tenth of class 1 moved to a far cluster). Whose test error "
        "grows more?",
        ["GDA's", "logistic regression's",
         "about the same: both learners see the same outliers"], right, id="04-outliers",
        explanation=("GDA's μ₁ and Σ are averages over *every* point: the far cluster drags μ₁ "
                     "towards it and inflates Σ, and the boundary GDA computes from them turns "
                     "away from where the classes overlap. Logistic regression fits p(y|x) "
                     "directly: a far point it already classifies correctly has a tiny "
                     "gradient, so it hardly moves the boundary. The model with the stronger "
                     "assumptions is the less robust one when they fail: logistic regression, "
                     "with its weaker assumptions, is the more robust learner."),
        reasons=[None,
                 "Logistic regression weighs a point by how wrong its current prediction is: "
                 "are far-away class-1 points predicted wrongly?",
                 "They see the same points but use them differently: an average moves with "
                 "every point; does a fit of p(y|x)?"],
        claims=[r"logistic regression[^.]{0,60}more robust",
                r"far cluster drags μ ?1"],
        transfer=_outliers_transfer(),
        observation=Observation(
            "Compare GDA's test error minus logistic regression's on 'Gaussian, shared Σ' with "
            "the same gap on 'Gaussian + 10% outliers in class 1' (the other controls at their "
            "start): record both. Whose error grew more is in how the gap changed.",
            dirty["gda"] - dirty["lr"], setting=setting, labels=labels, mention=["family"],
            before={"family": "gaussian"}, expected_before=clean["gda"] - clean["lr"],
            compare="difference",
            read=lambda state: state["errors"]["gda"] - state["errors"]["lr"],
            what="GDA's test error minus logistic regression's",
            hint="subtract the readout's 'test error logistic' from its 'test error GDA' "
                 "(4 decimals each).", atol=2e-4))


def poisson_bias_concept(curves) -> Choice:
    """Can more data bring GDA to the Bayes error on Poisson counts? Read from the curves."""
    g, se = curves.mean_se("gda")
    gap = float(g[-1] - curves.bayes_error)
    stuck = gap > 2 * float(se[-1]) + 1e-9
    return Choice(
        f"On the Poisson counts, GDA's mean test error at n = {curves.sizes[-1]} is still above "
        f"the Bayes error. With a million training examples, would GDA reach it?",
        ["yes: every estimate converges, so the error does too",
         "no: its Gaussian model is wrong for counts",
         "yes, but only with a ridge penalty to tame the variance"],
        1 if stuck else 0, id="04-poisson-bias",
        explanation=(f"GDA converges to the best *Gaussian* fit, whose boundary is not the "
                     f"Bayes boundary of Poisson counts: at n = {curves.sizes[-1]} it is "
                     f"{gap:.4f} above the Bayes error, more than two standard errors, and it has "
                     f"stopped falling. That is a bias; more data shrinks only the variance. "
                     f"Logistic regression's model, p(y|x) logistic, is right here, so it "
                     f"keeps improving towards the Bayes error."),
        reasons=["The estimates converge, but to what? Compare the limit of GDA's boundary "
                 "with the Bayes boundary.", None,
                 "A penalty trades variance for bias; here the error left is not variance."],
        # the rule in a phrase: objective 04.4 names the words (more data, bias, variance)
        claims=([r"(?#phrase)(more data|data) (cannot|can not|does not|shrinks only)[^.]{0,40}"
                 r"(bias|variance)", r"model is wrong for counts"] if stuck else
                [r"every estimate converges"]),
        objective="04.4",
    )



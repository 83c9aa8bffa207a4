"""Exercises for notebooks 03 (fitting GDA by hand) and 04 (GDA vs logistic regression)."""

from __future__ import annotations

import numpy as np

from genviz.exercises import Exercise
from genviz.gda import GDA, logistic_params

__all__ = ["phi_by_hand", "mean_by_hand", "sigma_by_hand", "boundary_point", "theta_from_params",
           "theta0_from_params", "poisson_theta", "better_learner"]


def _fit(X, y):
    return GDA().fit(np.asarray(X, dtype=float), np.asarray(y))


def phi_by_hand(X, y) -> Exercise:
    """phi, the fraction of training examples with y = 1."""
    return Exercise(
        "Compute the maximum-likelihood estimate of phi for this training set.",
        _fit(X, y).phi_,
        hint="phi = (1/n) sum_i 1{y(i) = 1}: count the ones and divide by the number of examples.",
        solution=(r"$\phi = \frac1n \sum_{i=1}^n 1\{y^{(i)} = 1\}$: count the examples with "
                  r"$y = 1$ and divide by $n$."),
    )


def mean_by_hand(X, y, k: int) -> Exercise:
    """mu_k, the average of the class-k examples."""
    if k not in (0, 1):
        raise ValueError(f"k must be 0 or 1, got {k!r}")
    return Exercise(
        f"Compute mu{k} (a vector of length 2).",
        _fit(X, y).means_[k],
        hint=f"mu{k} averages only the x(i) whose label is {k}: add them up and divide by how "
             f"many there are.",
        solution=(rf"$\mu_{k} = \dfrac{{\sum_i 1\{{y^{{(i)}} = {k}\}}\, x^{{(i)}}}}"
                  rf"{{\sum_i 1\{{y^{{(i)}} = {k}\}}}}$: the average of the class-{k} examples."),
    )


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
    )


def theta0_from_params(phi, mu0, mu1, cov) -> Exercise:
    """theta0 = (mu0' S^-1 mu0 - mu1' S^-1 mu1) / 2 + log(phi / (1 - phi))."""
    _, theta0 = logistic_params(phi, mu0, mu1, cov)
    return Exercise(
        f"For the same parameters, compute the intercept theta0.",
        theta0,
        hint="The terms without x: -1/2 mu1^T Sigma^-1 mu1 + 1/2 mu0^T Sigma^-1 mu0, plus the "
             "prior's log-odds log(phi / (1 - phi)).",
        solution=(r"$\theta_0 = \tfrac12 \mu_0^T\Sigma^{-1}\mu_0 - \tfrac12 \mu_1^T\Sigma^{-1}\mu_1"
                  r" + \log\frac{\phi}{1-\phi}$."),
    )


def poisson_theta(lam0, lam1) -> Exercise:
    """For independent Poisson features the log-odds are linear: theta_j = log(lam1_j/lam0_j)."""
    lam0 = np.asarray(lam0, dtype=float)
    lam1 = np.asarray(lam1, dtype=float)
    return Exercise(
        f"x_j | y=0 ~ Poisson({lam0.tolist()}) and x_j | y=1 ~ Poisson({lam1.tolist()}), "
        f"independently. p(y=1|x) is then exactly logistic: what is theta (the coefficients of "
        f"x)?",
        np.log(lam1 / lam0),
        hint="log p(x_j | y) = x_j log(lambda_yj) - lambda_yj - log(x_j!); subtract the class-0 "
             "log-likelihood from the class-1 one and read off the factor multiplying x_j.",
        solution=(r"$\log p(x_j \mid y) = x_j \log\lambda_{yj} - \lambda_{yj} - \log x_j!$; the "
                  r"difference of the two classes is linear in $x_j$ with coefficient "
                  r"$\theta_j = \log(\lambda_{1j}/\lambda_{0j})$. The $-\lambda_{yj}$ terms and "
                  r"$\log\frac{\phi}{1-\phi}$ go into $\theta_0$; $\log x_j!$ cancels."),
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
    return Exercise(
        f"Read the learning curves: at n = {n}, which learner has the lower mean test error? "
        f"Answer 'GDA' or 'logistic regression'.",
        answer,
        hint="Compare the two markers at that n (or the arrays lc.gda_errors and lc.lr_errors "
             "averaged over repetitions, axis 0).",
        solution=f"Mean test errors at $n = {n}$: GDA ${g:.4f}$, logistic regression ${lr:.4f}$.",
    )

"""genviz.gaussian against scipy.stats / scipy.spatial and closed forms."""

import numpy as np
import pytest
from scipy.spatial.distance import mahalanobis as scipy_mahalanobis
from scipy.stats import chi2, multivariate_normal

from genviz.gaussian import (
    cov_eigen,
    cov_from_params,
    ellipse_points,
    factorize_cov,
    mahalanobis,
    mvn_logpdf,
    mvn_pdf,
    mvn_pdf_grid,
    sample_mvn,
)


def random_problem(rng, d):
    A = rng.normal(size=(d, d))
    cov = A @ A.T + 0.1 * np.eye(d)
    mean = rng.normal(size=d) * 2
    X = rng.normal(size=(50, d)) * 2 + mean
    return X, mean, cov


@pytest.mark.parametrize("d", [1, 2, 3, 5])
@pytest.mark.parametrize("seed", range(5))
def test_logpdf_and_pdf_match_scipy(d, seed):
    rng = np.random.default_rng(seed)
    X, mean, cov = random_problem(rng, d)
    ref = multivariate_normal(mean, cov)
    np.testing.assert_allclose(mvn_logpdf(X, mean, cov), ref.logpdf(X), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(mvn_pdf(X, mean, cov), np.atleast_1d(ref.pdf(X)), rtol=1e-12,
                               atol=1e-15)


@pytest.mark.parametrize("seed", range(5))
def test_grid_matches_scipy_pointwise(seed):
    rng = np.random.default_rng(seed)
    _, mean, cov = random_problem(rng, 2)
    x = np.linspace(-3, 3, 7)
    y = np.linspace(-2, 4, 5)
    Z = mvn_pdf_grid(x, y, mean, cov)
    XX, YY = np.meshgrid(x, y)
    ref = multivariate_normal(mean, cov).pdf(np.dstack([XX, YY]))
    assert Z.shape == (5, 7)
    np.testing.assert_allclose(Z, ref, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(mvn_pdf_grid(x, y, mean, cov, log=True),
                               multivariate_normal(mean, cov).logpdf(np.dstack([XX, YY])),
                               rtol=1e-12, atol=1e-12)


def test_peak_height_closed_form():
    # p(mu) = 1 / (2 pi |Sigma|^{1/2}) for d = 2: the heights of the CS229 surfaces.
    for s, expected in [(1.0, 0.1591549), (0.6, 0.2652582), (2.0, 0.0795775)]:
        cov = s * np.eye(2)
        assert mvn_pdf([[0.0, 0.0]], [0, 0], cov)[0] == pytest.approx(expected, rel=1e-6)


@pytest.mark.parametrize("seed", range(3))
def test_mahalanobis_matches_scipy(seed):
    rng = np.random.default_rng(seed)
    X, mean, cov = random_problem(rng, 3)
    VI = np.linalg.inv(cov)
    ref = [scipy_mahalanobis(x, mean, VI) for x in X]
    np.testing.assert_allclose(mahalanobis(X, mean, cov), ref, rtol=1e-10)


def test_cov_from_params_closed_form_and_always_valid():
    cov = cov_from_params(2.0, 0.5, -0.3)
    np.testing.assert_allclose(cov, [[4.0, -0.3], [-0.3, 0.25]])
    for s1, s2, r in [(0.1, 10.0, 0.999), (1.0, 1.0, -0.999999), (3.0, 0.2, 0.0)]:
        factorize_cov(cov_from_params(s1, s2, r))  # never raises for |rho| < 1


def test_sample_moments_converge():
    mean = np.array([1.0, -1.5])
    cov = np.array([[3.0, 0.8], [0.8, 1.0]])
    n = 200_000
    X = sample_mvn(n, mean, cov, rng=np.random.default_rng(1))
    assert X.shape == (n, 2)
    se = np.sqrt(np.diag(cov) / n)
    assert np.all(np.abs(X.mean(axis=0) - mean) < 5 * se)
    np.testing.assert_allclose(np.cov(X, rowvar=False), cov, atol=0.03)


def test_sampling_is_reproducible_and_seeded():
    a = sample_mvn(10, [0, 0], np.eye(2), rng=7)
    b = sample_mvn(10, [0, 0], np.eye(2), rng=np.random.default_rng(7))
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, sample_mvn(10, [0, 0], np.eye(2), rng=8))
    assert sample_mvn(0, [0, 0], np.eye(2), rng=0).shape == (0, 2)


def test_eigen_geometry():
    cov = np.array([[3.0, 0.8], [0.8, 1.0]])
    g = cov_eigen(cov)
    np.testing.assert_allclose(g.eigvals, np.sort(np.linalg.eigvalsh(cov))[::-1], rtol=1e-12)
    np.testing.assert_allclose(g.eigvecs @ np.diag(g.eigvals) @ g.eigvecs.T, cov, atol=1e-12)
    np.testing.assert_allclose(g.half_axes, np.sqrt(g.eigvals))
    # Closed form for the major-axis angle: tan(2 theta) = 2 s12 / (s11 - s22).
    assert g.angle == pytest.approx(np.degrees(0.5 * np.arctan2(1.6, 2.0)), abs=1e-10)
    assert cov_eigen([[1.0, -0.8], [-0.8, 1.0]]).angle == pytest.approx(-45.0)
    assert cov_eigen([[1.0, 0.5], [0.5, 1.0]]).angle == pytest.approx(45.0)
    assert np.isnan(cov_eigen(np.eye(3)).angle)


@pytest.mark.parametrize("k", [0.5, 1.0, 2.0, 3.0])
def test_ellipse_is_a_density_contour(k):
    mean = np.array([0.5, -1.0])
    cov = np.array([[3.0, 0.8], [0.8, 1.0]])
    P = ellipse_points(mean, cov, k=k, n=50)
    np.testing.assert_allclose(mahalanobis(P, mean, cov), k, rtol=1e-12)
    peak = multivariate_normal(mean, cov).pdf(mean)
    np.testing.assert_allclose(multivariate_normal(mean, cov).pdf(P), peak * np.exp(-k**2 / 2),
                               rtol=1e-10)
    np.testing.assert_allclose(P[0], P[-1])


def test_mass_inside_k_sigma_ellipse_is_chi2():
    # The fraction of samples within Mahalanobis k is chi2(2).cdf(k^2) = 1 - exp(-k^2/2).
    X = sample_mvn(100_000, [0, 0], [[2.0, 0.6], [0.6, 0.5]], rng=3)
    r = mahalanobis(X, [0, 0], [[2.0, 0.6], [0.6, 0.5]])
    for k in (1, 2, 3):
        assert np.mean(r <= k) == pytest.approx(chi2(2).cdf(k**2), abs=0.005)


def test_factor_is_reused_and_equivalent():
    cov = np.array([[2.0, 0.3], [0.3, 1.0]])
    f = factorize_cov(cov)
    X = np.random.default_rng(0).normal(size=(5, 2))
    np.testing.assert_array_equal(mvn_logpdf(X, [0, 0], f), mvn_logpdf(X, [0, 0], cov))
    assert f.logdet == pytest.approx(np.log(np.linalg.det(cov)), rel=1e-12)


# ---------------------------------------------------------------- bad input: each names its argument
@pytest.mark.parametrize(
    "cov, match",
    [
        ([[1.0, 0.5], [0.4, 1.0]], "cov is not symmetric"),
        ([[1.0, 2.0], [2.0, 1.0]], "cov is not positive semi-definite"),
        ([[1.0, 1.0], [1.0, 1.0]], "cov is singular"),
        ([[0.0, 0.0], [0.0, 0.0]], "cov is singular"),
        ([[1.0, np.nan], [np.nan, 1.0]], "cov contains 2 NaN"),
        ([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], "cov must be a square"),
        (np.eye(3), "cov is 3x3 but 2x2 was expected"),
        ([1.0, 2.0], "cov must be a square"),
    ],
)
def test_bad_covariance(cov, match):
    with pytest.raises(ValueError, match=match):
        mvn_pdf([[0.0, 0.0]], [0.0, 0.0], cov)


def test_singular_error_suggests_a_remedy():
    with pytest.raises(ValueError, match="reg="):
        factorize_cov([[1.0, 2.0], [2.0, 4.0]])


@pytest.mark.parametrize(
    "X, exc, match",
    [
        ([[np.nan, 0.0]], ValueError, "X contains 1 NaN"),
        ([[np.inf, 0.0]], ValueError, "X contains 1 NaN or infinite"),
        ([0.0, 0.0], ValueError, r"X must be 2-dimensional.*reshape\(1, -1\)"),
        ([[0.0, 0.0, 0.0]], ValueError, "X has 3 feature"),
        (np.zeros((0, 2)), ValueError, "X is empty"),
        ("abc", TypeError, "X must be numeric"),
    ],
)
def test_bad_points(X, exc, match):
    with pytest.raises(exc, match=match):
        mvn_logpdf(X, [0.0, 0.0], np.eye(2))


def test_bad_mean():
    with pytest.raises(ValueError, match="cov is 2x2 but 3x3 was expected"):
        mvn_pdf([[0.0, 0.0, 0.0]], [0.0, 0.0, 0.0], np.eye(2))
    with pytest.raises(ValueError, match="mean contains 1 NaN"):
        mvn_pdf([[0.0, 0.0]], [np.nan, 0.0], np.eye(2))
    with pytest.raises(ValueError, match="mean must be a 1-D vector"):
        mvn_pdf([[0.0, 0.0]], [[0.0, 0.0]], np.eye(2))


@pytest.mark.parametrize(
    "args, exc, match",
    [
        ((0.0, 1.0, 0.0), ValueError, "sigma1 must be > 0"),
        ((1.0, -1.0, 0.0), ValueError, "sigma2 must be > 0"),
        ((1.0, 1.0, 1.0), ValueError, "rho must be < 1"),
        ((1.0, 1.0, -1.5), ValueError, "rho must be > -1"),
        ((1.0, 1.0, np.nan), ValueError, "rho must be finite"),
        (("1", 1.0, 0.0), TypeError, "sigma1 must be a real number"),
    ],
)
def test_bad_cov_params(args, exc, match):
    with pytest.raises(exc, match=match):
        cov_from_params(*args)


def test_bad_sampling_arguments():
    with pytest.raises(TypeError, match="rng must be a numpy Generator or an integer seed"):
        sample_mvn(5, [0, 0], np.eye(2), rng=None)
    with pytest.raises(ValueError, match="n must be >= 0"):
        sample_mvn(-1, [0, 0], np.eye(2), rng=0)
    with pytest.raises(TypeError, match="n must be an integer"):
        sample_mvn(2.5, [0, 0], np.eye(2), rng=0)


def test_bad_grid_and_ellipse_arguments():
    with pytest.raises(ValueError, match="mvn_pdf_grid draws 2-D Gaussians"):
        mvn_pdf_grid([0.0], [0.0], [0.0, 0.0, 0.0], np.eye(3))
    with pytest.raises(ValueError, match="x contains 1 NaN"):
        mvn_pdf_grid([0.0, np.nan], [0.0], [0.0, 0.0], np.eye(2))
    with pytest.raises(ValueError, match="k must be > 0"):
        ellipse_points([0, 0], np.eye(2), k=0.0)
    with pytest.raises(ValueError, match="n must be >= 3"):
        ellipse_points([0, 0], np.eye(2), n=2)
    with pytest.raises(ValueError, match="ellipse_points needs a 2-D Gaussian"):
        ellipse_points([0, 0, 0], np.eye(3))


def test_isotropic_covariance_has_coordinate_axes_by_convention():
    g = cov_eigen(2.0 * np.eye(2))
    assert g.isotropic and g.angle == 0.0
    np.testing.assert_array_equal(g.eigvecs, np.eye(2))
    assert not cov_eigen([[2.0, 0.0], [0.0, 1.0]]).isotropic

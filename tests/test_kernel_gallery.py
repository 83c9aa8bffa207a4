"""The slides' kernel gallery: every kernel integrates to 1 and is symmetric; the compact ones
vanish outside [-1, 1]; the ones genviz.kde also has agree with it."""

import numpy as np
import pytest
from scipy import integrate

from genviz.kde import kernel_pdf
from genviz.kernel_gallery import COMPACT, GALLERY, gallery_kernel


@pytest.mark.parametrize("name", GALLERY)
def test_integrates_to_one_and_is_symmetric(name):
    total, _ = integrate.quad(lambda u: gallery_kernel(u, name), -np.inf, np.inf, limit=200,
                              points=None) if name not in COMPACT else integrate.quad(
        lambda u: gallery_kernel(u, name), -1, 1)
    assert total == pytest.approx(1.0, abs=1e-7)
    u = np.linspace(-4, 4, 81)
    np.testing.assert_allclose(gallery_kernel(u, name), gallery_kernel(-u, name))
    if name in COMPACT:
        assert np.all(gallery_kernel(np.array([-1.01, 1.01, 3.0]), name) == 0)
    if name != "Silverman":
        assert np.all(gallery_kernel(u, name) >= 0)


def test_silverman_dips_below_zero():
    assert gallery_kernel(np.linspace(0, 10, 1001), "Silverman").min() < 0


@pytest.mark.parametrize("ours, theirs", [("Gaussian", "gaussian"), ("Epanechnikov",
                                                                      "epanechnikov"),
                                          ("triangular", "triangular"), ("uniform", "tophat")])
def test_agrees_with_genviz_kde(ours, theirs):
    u = np.linspace(-0.99, 0.99, 41)
    np.testing.assert_allclose(gallery_kernel(u, ours), kernel_pdf(u, theirs))


def test_unknown_kernel():
    with pytest.raises(ValueError, match="name must be one of"):
        gallery_kernel(0.0, "cosine2")

"""From a histogram to a KDE (notebook 05): genviz.kde.histogram_to_kde against numpy's
histogram and scipy's gaussian_kde, and the figure that draws it."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import gaussian_kde

from genviz.kde import histogram_to_kde, kde_pdf, sample_claw
from genviz.plots.kde_steps import histogram_to_kde_figure

X20 = sample_claw(1000, np.random.default_rng(0))[:20]


def test_the_histograms_are_numpys_on_the_same_edges():
    s = histogram_to_kde(X20, 0.5, 0.0)
    for edges, counts, density in ((s.edges, s.counts, s.density),
                                   (s.shifted_edges, s.shifted_counts, s.shifted_density)):
        oracle, _ = np.histogram(X20, bins=edges)
        np.testing.assert_array_equal(counts, oracle)
        np.testing.assert_allclose(density, oracle / (X20.size * 0.5))
    np.testing.assert_allclose(s.edges, np.round(s.edges / 0.5) * 0.5, atol=1e-12)  # from 0
    # the shifted bins start half a width later
    np.testing.assert_allclose(s.shifted_edges - 0.25,
                               np.round((s.shifted_edges - 0.25) / 0.5) * 0.5, atol=1e-12)


def test_the_blocks_are_the_box_kde_with_h_equal_to_the_bin_width():
    s = histogram_to_kde(X20, 0.5)
    # a block centred on x_i: 1/(n w) on [x_i - w/2, x_i + w/2), by hand
    by_hand = ((s.x[None, :] - X20[:, None] >= -0.25) & (s.x[None, :] - X20[:, None] < 0.25)) / (20 * 0.5)
    np.testing.assert_allclose(s.blocks, by_hand)
    np.testing.assert_allclose(s.block_sum, kde_pdf(s.x, X20, 0.5, "box"))


def test_the_bumps_are_scipys_gaussian_kde_with_the_blocks_spread():
    s = histogram_to_kde(X20, 0.5)
    assert s.h == pytest.approx(np.sqrt(np.var(np.random.default_rng(1).uniform(-0.25, 0.25, 400_000))),
                                rel=5e-3)  # a box of width w has standard deviation w / sqrt(12)
    oracle = gaussian_kde(X20, bw_method=s.h / X20.std(ddof=1))(s.x)
    np.testing.assert_allclose(s.kde, oracle, rtol=1e-10, atol=1e-14)
    np.testing.assert_allclose(s.bumps.sum(axis=0), s.kde)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-50, 50), min_size=1, max_size=30), st.floats(0.05, 5.0),
       st.floats(-3.0, 3.0))
def test_every_step_is_a_density_of_area_one(data, width, origin):
    s = histogram_to_kde(data, width, origin)
    n = len(data)
    assert s.counts.sum() == s.shifted_counts.sum() == n
    assert np.sum(s.density) * width == pytest.approx(1.0)
    assert np.sum(s.shifted_density) * width == pytest.approx(1.0)
    # each block and each bump has area 1/n (the grid covers every block; bumps up to ~1.7 sd)
    dx = s.x[1] - s.x[0]
    np.testing.assert_allclose(s.blocks.sum(axis=1) * dx, 1 / n, rtol=0.02 + 2 * dx / width)
    if dx < s.h / 3:  # the grid resolves the bumps (it covers every one to at least 1.7 sd)
        assert np.all(s.bumps.sum(axis=1) * dx <= 1 / n * 1.01)
        assert np.all(s.bumps.sum(axis=1) * dx >= 0.9 / n)


@pytest.mark.parametrize("bad, match", [
    (dict(data=[]), "data"), (dict(data=[0.0, np.nan]), "data"), (dict(width=0.0), "width"),
    (dict(width=-1.0), "width"), (dict(origin=np.inf), "origin"), (dict(n_grid=1), "n_grid")])
def test_bad_input_names_the_argument(bad, match):
    kwargs = dict(data=X20, width=0.5, origin=0.0, n_grid=101) | bad
    with pytest.raises(ValueError, match=match):
        histogram_to_kde(**kwargs)


def test_bad_types():
    with pytest.raises(TypeError):
        histogram_to_kde(["a", "b"], 0.5)
    with pytest.raises(TypeError, match="width"):
        histogram_to_kde(X20, "wide")


def test_the_figure_draws_the_model_numbers():
    fig = histogram_to_kde_figure(X20, 0.5)
    s = fig.steps
    a1, a2, a3, a4 = fig.axes
    # panels 1 and 2: one block per point
    assert len(a1.patches) == X20.size == len(a2.patches)
    tops = {}
    for p in a1.patches:
        left = round(p.get_x(), 9)
        tops[left] = max(tops.get(left, 0.0), p.get_y() + p.get_height())
    np.testing.assert_allclose([tops[round(e, 9)] for e, c in zip(s.edges[:-1], s.counts) if c],
                               s.density[s.counts > 0])
    # panels 3 and 4: the sums are the first curves drawn
    np.testing.assert_allclose(a3.get_lines()[0].get_ydata(), s.block_sum)
    np.testing.assert_allclose(a4.get_lines()[0].get_ydata(), s.kde)
    assert "Gaussian" in a4.get_title() and "0.144" in a4.get_title()
    from genviz.plots._base import figure_description
    assert "20 points" in figure_description(fig)

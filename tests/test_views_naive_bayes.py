"""Naive Bayes views: the numbers they show (the slides', Mitchell's), in-place updates, blitting."""

import numpy as np
import pytest

from genviz import datasets
from genviz.gda import GDA
from genviz.naive_bayes import CategoricalNB, GaussianNB, KDENB, discretize
from genviz.plots.naive_bayes import (CategoricalNBView, DiscretizeView, KDENBView, NBvsGDAView,
                                      decision_regions_figure)
from genviz.synthetic import correlated_classes


def rgba(fig):
    fig.canvas.draw()
    return np.asarray(fig.canvas.buffer_rgba()).copy()


def bimodal(seed=0, n=80):
    rng = np.random.default_rng(seed)
    x = np.concatenate([rng.normal(0, 1, n), rng.normal(-3, 0.6, n // 2),
                        rng.normal(3, 0.6, n // 2)])
    return x, np.repeat(["one", "two"], n)


def test_categorical_view_shows_every_table_and_the_posterior():
    t = datasets.play_tennis()
    v = CategoricalNBView(t.X, t.y, t.feature_names, alpha=0.0,
                          query=["Sunny", "Cool", "High", "Strong"])
    e = v.state["explain"]
    np.testing.assert_allclose(e["joint"], [0.0205714, 0.0052910], atol=1e-7)
    assert [b.get_height() for b in v.post_bars] == pytest.approx(e["posterior"])
    # bars are the smoothed tables: P(Outlook=Sunny | No) = 3/5
    sunny = v.categories[0].index("Sunny")
    assert v.bars[0][0][sunny].get_height() == pytest.approx(3 / 5)
    assert v.bars[0][0][sunny].get_linewidth() > 0  # the queried value is outlined
    v.update(alpha=1.0)
    assert v.bars[0][0][sunny].get_height() == pytest.approx((3 + 1) / (5 + 3))
    ref = CategoricalNB(alpha=1.0).fit(t.X, t.y)
    for j, table in enumerate(v.state["tables"]):
        np.testing.assert_allclose(table, ref.conditional_table(j))
        np.testing.assert_allclose(table.sum(axis=1), 1.0)
    v.update(Outlook="Overcast")
    np.testing.assert_allclose(v.state["explain"]["posterior"],
                               ref.predict_proba([["Overcast", "Cool", "High", "Strong"]])[0])


def test_categorical_view_zero_over_zero_is_shown_not_raised():
    t = datasets.enjoy_sport()
    v = CategoricalNBView(t.X, t.y, t.feature_names, alpha=0.0)
    v.update(Sky="sunny", Temp="cold")  # P(sunny | no) = 0 and P(cold | yes) = 0
    assert v.state["explain"]["posterior"] is None
    assert "0/0" in v.undefined.get_text()
    assert all(b.get_height() == 0 for b in v.post_bars)
    v.update(alpha=0.5)
    assert v.undefined.get_text() == "" and v.state["explain"]["posterior"].sum() == \
        pytest.approx(1.0)


def test_categorical_view_bad_parameters():
    t = datasets.play_tennis()
    v = CategoricalNBView(t.X, t.y, t.feature_names)
    with pytest.raises(ValueError, match="Outlook must be one of"):
        v.update(Outlook="Foggy")
    with pytest.raises(TypeError, match="unknown parameter"):  # the one protocol of every view
        v.update(colour="red")
    with pytest.raises(ValueError, match="alpha must be >= 0"):
        v.update(alpha=-1.0)


def test_categorical_view_blit_equals_full_redraw():
    t = datasets.enjoy_sport()
    v = CategoricalNBView(t.X, t.y, t.feature_names)
    v.fig.canvas.draw()
    v.update(alpha=0.3, Humid="normal")
    assert v.redraw() == "blit"
    blitted = np.asarray(v.fig.canvas.buffer_rgba()).copy()
    np.testing.assert_array_equal(blitted, rgba(v.fig))


def test_discretize_view_matches_categorical_nb_on_bins():
    p = datasets.penguins()
    x = p.X[:, 2]
    v = DiscretizeView(x, p.y, width=10.0, origin=0.0)
    edges = v.state["edges"]
    assert np.all(np.diff(edges) == pytest.approx(10.0)) and edges[0] % 10 == pytest.approx(0)
    nb = CategoricalNB(alpha=1.0).fit(discretize(x, edges)[:, None], p.y,
                                      categories=[range(1, edges.size + 2)])
    assert v.state["accuracy_binned"] == pytest.approx(np.mean(
        nb.predict(discretize(x, edges)[:, None]) == p.y))
    assert v.state["accuracy_gaussian"] == pytest.approx(np.mean(
        GaussianNB().fit(x[:, None], p.y).predict(x[:, None]) == p.y))
    v.update(width=4.0, origin=2.0)
    assert v.state["n_bins"] > 12 and v.state["edges"][0] % 4 == pytest.approx(2.0)
    with pytest.raises(ValueError, match="width must be > 0"):
        v.update(width=0.0)
    with pytest.raises(ValueError, match="wider than the whole range"):
        v.update(width=1000.0)
    with pytest.raises(ValueError, match="alpha = 0.*0/0"):
        v.update(width=0.5, origin=0.0, alpha=0.0)


def test_notes_living_area_bins():
    # CS229: < 400, 400-800, 800-1200, 1200-1600, > 1600 -> 1..5; 890 square feet -> 3
    edges = [400, 800, 1200, 1600]
    assert discretize([890], edges).tolist() == [3]
    assert discretize([0, 399.9, 400, 1599, 1600, 5000], edges).tolist() == [1, 1, 2, 4, 5, 5]
    with pytest.raises(ValueError, match="strictly increasing"):
        discretize([1.0], [800, 400])
    with pytest.raises(ValueError, match="x contains 1 NaN"):
        discretize([np.nan], edges)


def test_nb_vs_gda_view_accuracies_and_ellipses():
    v = NBvsGDAView(0.0)
    gap0 = v.state["accuracy_gda"] - v.state["accuracy_nb"]
    v.update(rho=0.9)
    gap9 = v.state["accuracy_gda"] - v.state["accuracy_nb"]
    assert abs(gap0) < 0.02 and gap9 > 0.1  # independence hurts on correlated features
    X, y = correlated_classes(120, 0.9, rng=0)  # the view's training data (seed 0, drawn first)
    np.testing.assert_allclose(v.state["nb_var"], GaussianNB().fit(X, y).var_)
    np.testing.assert_allclose(v.state["gda_cov"], GDA().fit(X, y).covariance_)
    # naive Bayes ellipses are axis-aligned: x extent of the 1-sigma ellipse = 2 sd
    xs = v.ellipses[0][0].get_xdata()
    assert np.ptp(xs) == pytest.approx(2 * np.sqrt(v.state["nb_var"][0, 0]), rel=1e-3)
    with pytest.raises(ValueError, match="rho must be <= 0.95"):
        v.update(rho=0.99)
    v.fig.canvas.draw()
    v.update(rho=-0.5)
    assert v.redraw() == "blit"


def test_kde_nb_view():
    x, y = bimodal()
    v = KDENBView(x, y, bandwidth=0.4)
    model = KDENB(bandwidth=0.4).fit(x[:, None], y)
    assert v.state["accuracy_kde"] == pytest.approx(np.mean(model.predict(x[:, None]) == y))
    assert v.state["accuracy_kde"] > v.state["accuracy_gaussian"]
    np.testing.assert_allclose(v.post_lines[0].get_ydata(),
                               model.predict_proba(v.grid[:, None])[:, 0])
    # the KDE curve integrates to 1 over the grid (most of the mass)
    assert np.trapezoid(v.kde_lines[1].get_ydata(), v.grid) == pytest.approx(1.0, abs=0.01)
    with pytest.raises(ValueError, match="bandwidth must be > 0"):
        v.update(bandwidth=0.0)


def test_decision_regions_figure_on_penguins():
    p = datasets.penguins()
    X = p.X[:, :2]
    models = {"Gaussian NB": GaussianNB().fit(X, p.y), "GDA": GDA().fit(X, p.y)}
    fig, acc = decision_regions_figure(models, X, p.y, n_grid=40)
    assert len(fig.axes) == 2
    assert acc["GDA"] == pytest.approx(np.mean(models["GDA"].predict(X) == p.y))
    with pytest.raises(ValueError, match="models is empty"):
        decision_regions_figure({}, X, p.y)
    with pytest.raises(ValueError, match="X has 4 feature"):
        decision_regions_figure(models, p.X, p.y)

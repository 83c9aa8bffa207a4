"""Alt text: every view describes its current state in words, with the numbers it shows.

The oracle is the view's own ``state`` (tested against scipy/scikit-learn in the per-module view
tests): each description must carry the state's key numbers, formatted as ``fmt`` writes them,
and change when the state changes.
"""

import ast
import inspect
import pathlib

import matplotlib.pyplot as plt
import numpy as np
import pytest

from explorer_testing import explorer_cases, make_explorer, view_classes
from file_modules import load_file
from genviz import datasets
from genviz.kde import claw_pdf, sample_claw
from genviz.synthetic import two_class_data
from genviz.plots._base import (describe_figure, figure_description, fmt, image_bundle,
                                plain_text, set_description)


TESTS = pathlib.Path(__file__).resolve().parent


def all_view_classes():
    return sorted(view_classes(), key=lambda c: c.__name__)  # the one registry's discovery


def test_every_view_class_has_its_own_describe():
    missing = [c.__name__ for c in all_view_classes() if "describe" not in c.__dict__]
    assert not missing, (f"views without a describe() method (alt text from their state; see "
                         f"genviz/plots/_base.py View.describe): {missing}")


# -- one builder per view: (view, numbers that must appear, an update that changes them) -------
def gaussian():
    from genviz.plots.gaussian import GaussianView
    v = GaussianView(mu1=0.5, mu2=-1.0, sigma1=1.5, sigma2=0.8, rho=0.8, surface=False)
    return v, ["μ = (0.5, -1)", "σ₁ = 1.5", "σ₂ = 0.8", "ρ = 0.8", fmt(v.state["peak"]),
               f"{fmt(round(v.state['angle'], 1))}°"], dict(rho=-0.3)


def gaussian_circle():
    from genviz.plots.gaussian import GaussianView
    v = GaussianView(surface=True)
    return v, ["Surface and contours", "μ = (0, 0)", "ρ = 0", "circles"], dict(sigma1=2.0)


def gda_vs_logistic():
    from genviz.plots.gda_vs_logistic import GDAvsLogisticView
    v = GDAvsLogisticView(n=100)
    e = v.state["errors"]
    return v, ["n = 100", fmt(e["gda"]), fmt(e["lr"]), fmt(e["bayes"]), "shared Σ"], \
        dict(gda_cov="separate")


def gda_fit():
    from genviz.plots.gda import GDAFitView
    v = GDAFitView(n=80)
    s = v.state
    return v, ["n = 80", f"{s['n1']} of class 1", f"φ = {fmt(s['phi'])}", fmt(s["mu0"][0]),
               fmt(s["Sigma"][0, 1]), f"θ₀ = {fmt(s['theta0'])}", fmt(s["training_error"])], \
        dict(rho=-0.5)


def dimensionality():
    from genviz.plots.joint import DimensionalityView
    a = datasets.auto_mpg()
    v = DimensionalityView(a.records, a.record_names, d=3, n=100, seed=0)
    s = v.state
    return v, ["d = 3", f"{s['cells_at_d']} cells", f"{s['occupied_at_d']} holding",
               fmt(s["empty_at_d"])], dict(d=4)


def histogram():
    from genviz.plots.kde import HistogramView
    v = HistogramView(sample_claw(200, 0), 0.3, 0.1, true_pdf=claw_pdf, x_range=(-3, 3))
    return v, ["width 0.3", "origin 0.1", f"{v.state['n_bins']} bins",
               f"{v.state['empty_bins']} of them empty"], dict(width=0.5)


def kde():
    from genviz.plots.kde import KDEView
    v = KDEView(sample_claw(15, 0), 0.4, "epanechnikov", x_range=(-3, 3))
    return v, ["h = 0.4", "epanechnikov", fmt(v.state["integral"]),
               fmt(v.state["density"].max())], dict(h=0.2)


def bandwidth():
    from genviz.plots.kde import BandwidthView
    v = BandwidthView(200, 0.05, seed=1)
    s = v.state
    return v, ["n = 200", "h = 0.05", fmt(s["h_loo"]), fmt(s["h_lscv"]), fmt(s["silverman"]),
               fmt(s["ise"])], dict(h=0.2)


def kde2d():
    from genviz.plots.kde import KDE2DView
    X = np.random.default_rng(2).normal(size=(60, 2))
    v = KDE2DView(X, 1.5, labels=("weight (lbs)", "mpg"))
    return v, ["60 records", "mpg against weight (lbs)", fmt(v.state["h"][0]),
               "1.5 × Scott"], dict(scale=0.5)


def knn_classification():
    from genviz.plots.knn import KNNClassificationView
    X, y = two_class_data(80, rng=0)
    T, yt = two_class_data(100, rng=1)
    v = KNNClassificationView(X, y, T, yt, k=5, noise=0.2, qx=0.5, k_max=15, n_grid=31)
    s = v.state
    return v, ["k = 5", f"{s['n_flipped']} labels flipped", "(0.5, 0)", fmt(s["test_accuracy"]),
               f"{s['query_votes'][1]} of class 1", fmt(s["train_error"])], dict(k=9)


def projection():
    from genviz.plots.knn import ProjectionView
    X = np.random.default_rng(0).normal(size=(40, 50))
    v = ProjectionView(X, d=12, eps=0.4, d_max=20, seed=5)
    st = v.state["stats"]
    return v, ["d = 12", "ε = 0.4", fmt(st["mean"]), fmt(st["std"]),
               f"d ≥ {v.state['jl_dim']}", "from 50 to"], dict(d=5)


def categorical_nb():
    from genviz.plots.naive_bayes import CategoricalNBView
    t = datasets.play_tennis()
    v = CategoricalNBView(t.X, t.y, t.feature_names, alpha=1.0)
    post = v.state["explain"]["posterior"]
    return v, ["α = 1", fmt(post[0]), fmt(post[1]), v.state["explain"]["decision"]], \
        dict(alpha=0.5)


def categorical_nb_undefined():
    from genviz.plots.naive_bayes import CategoricalNBView
    t = datasets.enjoy_sport()
    v = CategoricalNBView(t.X, t.y, t.feature_names, alpha=0.0)
    # rainy skies only on 'no' days, forecast 'same' only on 'yes' days: 0/0 at alpha = 0
    v.update(**{v.names[0]: "rainy", v.names[5]: "same"})
    assert v.state["explain"]["posterior"] is None
    return v, ["α = 0", "undefined"], dict(alpha=1.0)


def discretize():
    from genviz.plots.naive_bayes import DiscretizeView
    p = datasets.penguins()
    x = p.X[:, list(p.feature_names).index("flipper_length_mm")] if "flipper_length_mm" in \
        list(p.feature_names) else p.X[:, 2]
    v = DiscretizeView(x, p.y, width=10.0)
    s = v.state
    return v, [f"{s['n_bins']} bins", "width 10", fmt(s["accuracy_binned"]),
               fmt(s["accuracy_gaussian"])], dict(width=5.0)


def nb_vs_gda():
    from genviz.plots.naive_bayes import NBvsGDAView
    v = NBvsGDAView(0.6)
    return v, ["ρ = 0.6", fmt(v.state["accuracy_nb"]), fmt(v.state["accuracy_gda"])], \
        dict(rho=0.0)


def kde_nb():
    from genviz.plots.naive_bayes import KDENBView
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.normal(0, 1, 40), rng.normal(3, 0.6, 40)])
    y = np.repeat(["one", "two"], 40)
    v = KDENBView(x, y, bandwidth=0.4)
    return v, ["bandwidth 0.4", fmt(v.state["accuracy_kde"]),
               fmt(v.state["accuracy_gaussian"])], dict(bandwidth=1.2)


def _spam_data():
    from genviz.datasets import spam_assassin
    from genviz.naive_bayes import BernoulliNB, MultinomialNB
    from genviz.text import bag_of_words, build_vocabulary
    c = spam_assassin()
    keep = np.arange(0, len(c.text), 10)
    text, label = c.text[keep], c.label[keep]
    vocab = build_vocabulary(text, min_count=2, stop_words="english")
    X = bag_of_words(text, vocab)
    models = {"multinomial": MultinomialNB().fit(X, label), "bernoulli": BernoulliNB().fit(X, label)}
    return X, label, vocab, models


def spam_threshold():
    from genviz.plots.spam import SpamThresholdView
    X, y, _, _ = _spam_data()
    v = SpamThresholdView(X, y, X, y, log10_c=1.0)
    pt = v.state["points"]["multinomial"]
    return v, ["c = 10^1", "multinomial", fmt(pt["tpr"]), fmt(pt["fpr"]),
               fmt(v.state["auc"]["bernoulli"])], dict(log10_c=-2.0)


def email():
    from genviz.plots.spam import EmailView
    _, _, vocab, models = _spam_data()
    v = EmailView(models, vocab, text="Cheap mortgage rates: reply today, free offer")
    s = v.state
    return v, [f"verdict {s['verdict']}", f"{s['log_odds']:+.2f}", f"{s['n_known']} known words",
               fmt(s["p_spam"])], dict(model="bernoulli")


def learning_curves():
    from explorer_testing import _spam_curves
    from genviz.plots.learning_curves import LearningCurveView
    v = LearningCurveView(_spam_curves(), 10)
    s = v.state
    return v, ["n = 10", "naive Bayes", "logistic regression", fmt(s["gen_error"]),
               fmt(s["lr_error"])], dict(n=int(_spam_curves().sizes[-1]))


def vocabulary_curves():
    from explorer_testing import _spam_sweep
    from genviz.plots.learning_curves import VocabularyCurveView
    v = VocabularyCurveView(_spam_sweep(), d=30, features="counts", n=10)
    s = v.state
    return v, ["d = 30", "counts", "n = 10", fmt(s["gen_error"]), fmt(s["lr_error"])], dict(d=100)


def topic_cases(tests=TESTS) -> list:
    """The alt-text cases a topic keeps in its own test files (ARCHITECTURE.md, "How to add a
    topic", step 3): module-level functions named ``alt_text_case_<view>`` in ``tests/test_*.py``,
    each returning what a builder above returns. Their files are loaded under a name of their
    own (not the module pytest collects)."""
    out = []
    for path in sorted(tests.glob("test_*.py")):
        if path.name == "test_describe.py" or "def alt_text_case_" not in path.read_text():
            continue
        names = [node.name for node in ast.parse(path.read_text()).body
                 if isinstance(node, ast.FunctionDef) and node.name.startswith("alt_text_case_")]
        module = load_file(path, f"_alt_text_{path.stem}")
        out += [getattr(module, name) for name in names]
    return out


BUILDERS = [gaussian, gaussian_circle, gda_vs_logistic, gda_fit, dimensionality, histogram, kde,
            bandwidth, kde2d, knn_classification, projection, categorical_nb,
            categorical_nb_undefined, discretize, nb_vs_gda, kde_nb, spam_threshold, email,
            learning_curves, vocabulary_curves, *topic_cases()]


def test_a_topic_keeps_its_alt_text_case_in_its_own_test_file(tmp_path):
    (tmp_path / "test_prior.py").write_text(
        "def alt_text_case_prior():\n    return 'view', ['φ = 0.3'], {'phi': 0.5}\n\n"
        "def helper():\n    pass\n")
    (tmp_path / "test_other.py").write_text("def test_x():\n    pass\n")
    [case] = topic_cases(tmp_path)
    assert case.__name__ == "alt_text_case_prior" and case()[1] == ["φ = 0.3"]
    # the repository's own: notebook 09's regression view keeps its case in test_views_knn.py
    assert "alt_text_case_knn_regression" in [b.__name__ for b in BUILDERS]


def test_every_view_class_is_covered_here():
    covered = set()
    for build in BUILDERS:
        src = inspect.getsource(build)
        covered |= {c.__name__ for c in all_view_classes() if c.__name__ + "(" in src}
    assert covered == {c.__name__ for c in all_view_classes()} - set(), (
        f"no alt-text case for {sorted({c.__name__ for c in all_view_classes()} - covered)}: add a "
        "function building the view (returning the view, the numbers its describe() must say, and "
        "an update that changes them) named alt_text_case_<view> to the topic's test file "
        "tests/test_<topic>.py, or to BUILDERS in tests/test_describe.py (ARCHITECTURE.md, "
        "'How to add a topic', step 3)")


@pytest.mark.parametrize("build", BUILDERS, ids=lambda b: b.__name__)
def test_description_carries_the_state_numbers_and_follows_updates(build):
    view, expected, change = build()
    text = view.describe()
    assert isinstance(text, str) and len(text) > 60
    for piece in expected:
        assert piece in text, f"{piece!r} missing from {text!r}"
    assert "$" not in text and "nan" not in text.lower().split()
    assert figure_description(view.fig) == text
    view.update(**change)
    assert view.describe() != text, "the description did not follow the update"
    plt.close(view.fig)


def test_the_issue_example_contours_of_a_correlated_gaussian():
    from genviz.plots.gaussian import GaussianView
    v = GaussianView(rho=0.8, surface=False)
    text = v.describe()
    assert text.startswith("Contours of a 2-D Gaussian, μ = (0, 0), σ₁ = 1, σ₂ = 1, ρ = 0.8")
    assert "45°" in text  # equal variances: the major axis lies along x1 = x2
    v.update(rho=-0.8)
    assert "-45°" in v.describe() or "135°" in v.describe()


def test_error_banner_is_part_of_the_figure_description():
    from genviz.plots.gaussian import GaussianView
    v = GaussianView(surface=False)
    v.show_message("Cannot draw this: rho must be < 1")
    assert figure_description(v.fig).endswith("Message shown over the figure: "
                                              "Cannot draw this: rho must be < 1")


# -- static figures and the display bundle -------------------------------------------------------
def test_generic_description_of_a_static_figure_reads_titles_labels_and_legend():
    fig, (a, b) = plt.subplots(1, 2)
    a.plot([0, 1], [0, 1], label=r"$\hat f_h$")
    a.set_title(r"density $p(x;\mu,\Sigma)$")
    a.set_xlabel("$x_1$")
    a.set_ylabel("density")
    a.legend()
    b.bar([0, 1], [1, 2])
    text = describe_figure(fig)
    assert text.startswith("Figure with 2 panels")
    assert "'density p(x;μ,Σ)'" in text and "density against x₁" in text and "f_h" not in text
    assert "bar chart" in text
    assert figure_description(fig) == text
    set_description(fig, "Two panels: a line and two bars.")
    assert figure_description(fig) == "Two panels: a line and two bars."
    plt.close(fig)


@pytest.mark.parametrize("label, text", [
    ("$x_1$", "x₁"), (r"$\Sigma^{-1}$", "Σ⁻¹"), (r"bandwidth $h$", "bandwidth h"),
    (r"$\log_{10}$ odds", "log₁₀ odds"), ("plain", "plain"), (r"$\sqrt{\lambda_1}\,v_1$", "√λ₁ v₁"),
])
def test_plain_text(label, text):
    assert plain_text(label) == text


@pytest.mark.parametrize("value, text", [(0.8, "0.8"), (1.0, "1"), (-2, "-2"), (0.123456, "0.123"),
                                         (3.48e-4, "0.000348"), (1e-6, "1.00e-06"),
                                         (float("nan"), "undefined"), (1234.5, "1234.5")])
def test_fmt(value, text):
    assert fmt(value) == text


def test_image_bundle_puts_the_alt_text_in_html_metadata_and_plain_text():
    data, meta = image_bundle(b"\x89PNG fake", 'a "quoted" <alt>', caption="run it live")
    assert set(data) == {"image/png", "text/html", "text/plain"}
    assert data["text/plain"] == 'a "quoted" <alt>'
    assert 'alt="a &quot;quoted&quot; &lt;alt&gt;"' in data["text/html"]
    assert data["image/png"] in data["text/html"]
    assert "<figcaption>run it live</figcaption>" in data["text/html"]
    assert meta == {"image/png": {"alt": 'a "quoted" <alt>', "caption": "run it live"}}


def test_show_displays_png_with_alt_and_closes_the_figure(monkeypatch):
    from matplotlib._pylab_helpers import Gcf

    import genviz.plots._base
    from genviz.plots import show
    from genviz.plots.gaussian import GaussianView
    shown = []
    monkeypatch.setattr(genviz.plots._base, "display",  # IPython's display, where show() uses it
                        lambda *a, **kw: shown.append((a, kw)))
    v = GaussianView(rho=0.5, surface=False)
    show(v.fig)
    (args, kw), = shown
    assert kw["raw"] is True
    assert args[0]["text/plain"] == v.describe()
    assert kw["metadata"]["image/png"]["alt"] == v.describe()
    # a view's figure is not pyplot's (genviz.plots._base.new_figure): nothing keeps it alive
    assert all(m.canvas.figure is not v.fig for m in Gcf.get_all_fig_managers())
    fig = plt.figure()
    fig.add_subplot().plot([1, 2])
    show(fig, alt="A rising line.")
    assert shown[-1][0][0]["text/plain"] == "A rising line."
    assert not plt.fignum_exists(fig.number)  # a pyplot figure is closed


def _panel_arrangement(fig) -> tuple[bool, bool]:
    """(some panels side by side, some panels stacked), from the axes' drawn boxes."""
    boxes = {tuple(np.round(ax.get_position().extents, 3)) for ax in fig.axes if ax.get_visible()}
    beside = stacked = False
    for (ax0, ay0, ax1, ay1) in boxes:
        for (bx0, by0, bx1, by1) in boxes:
            x_apart, y_apart = ax1 <= bx0, ay1 <= by0
            x_overlap = min(ax1, bx1) > max(ax0, bx0)
            y_overlap = min(ay1, by1) > max(ay0, by0)
            beside |= x_apart and y_overlap
            stacked |= y_apart and x_overlap
    return beside, stacked


@pytest.mark.parametrize("case", explorer_cases())
def test_where_the_description_places_panels_is_where_they_are(case):
    """An explorer's alt text that says "left"/"right" needs panels side by side; one that says
    "top"/"below"/"bottom" needs panels stacked (a layout change must update the words)."""
    e = make_explorer(case)
    try:
        text = e.view.describe()
        beside, stacked = _panel_arrangement(e.view.fig)
        if any(w in text for w in (": left", "; right", "left,", "right,")):
            assert beside, f"{case}: says left/right but no panels are side by side: {text}"
        if any(w in text for w in ("top,", "below it", "bottom,", "bottom:")):
            assert stacked, f"{case}: says top/below but no panels are stacked: {text}"
    finally:
        e.close()

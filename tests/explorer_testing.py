"""The one registry of explorers for every test, and the shared checks (ARCHITECTURE.md,
"Conventions": explorers; "How to add a topic", step 4).

- ``explorer_cases()`` / ``make_explorer(case)``: every explorer, built as its notebook builds it.
  Factories whose arguments all have defaults are found by themselves; one that needs data gets
  a case here: its name in ``BUILDERS`` and a branch in ``_build``. tests/test_layout.py,
  test_frames.py and test_describe.py take their explorers from here.
- ``view_classes()``: every ``View`` subclass of ``genviz.plots`` (each must be reached by an
  explorer case, tests/test_layout.py, and have an alt-text case in tests/test_describe.py).
- ``sweep_explorer(explorer)`` moves each control over its range, ends included, one at a time,
  and after every move checks that nothing raised into the notebook, the readout is non-empty,
  and nothing drawn is NaN. Use it in each topic's widget test.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil

import matplotlib.collections as mcoll
import matplotlib.image as mimage
import matplotlib.lines as mlines
import numpy as np

import genviz.plots
import genviz.widgets
from genviz.plots._base import View
from genviz.widgets._controls import Choice, SelectionSlider, Slider, TextArea

#: where a missing case goes (the messages of the coverage tests say it)
ADD_A_CASE = ("add the explorer's name to BUILDERS and a branch building it to _build in "
              "tests/explorer_testing.py (ARCHITECTURE.md, 'How to add a topic', step 4)")


def control_values(control, n: int = 5) -> list:
    """Values spanning a control's range, ends included (every option of a choice; for text,
    the current text, an empty one and one with no known word)."""
    if isinstance(control, SelectionSlider):
        return list(control.options)
    if isinstance(control, Slider):
        if control.base is not None:
            exps = np.linspace(control.min, control.max, n)
            return [float(control.base ** e) for e in exps]
        if control.integer:
            return sorted({int(round(v)) for v in np.linspace(control.min, control.max, n)})
        return [float(v) for v in np.linspace(control.min, control.max, n)]
    if isinstance(control, Choice):
        return [value for _, value in control.options]
    if isinstance(control, TextArea):
        return [control.value, "", "zzqx 12345 !!!", control.value]
    raise TypeError(f"no sweep rule for {type(control).__name__}; extend control_values")


def drawn_arrays(fig):
    """Every numeric array the figure currently draws (lines, collections, images)."""
    for ax in fig.axes:
        for artist in ax.get_children():
            if not artist.get_visible():
                continue
            if isinstance(artist, mlines.Line2D):
                yield np.asarray(artist.get_xydata(), dtype=float)
            elif isinstance(artist, mimage.AxesImage):
                yield np.ma.filled(np.asarray(artist.get_array(), dtype=float), 0.0)
            elif isinstance(artist, mcoll.PathCollection):
                yield np.asarray(artist.get_offsets(), dtype=float)


def assert_nothing_nan(fig):
    for arr in drawn_arrays(fig):
        assert not np.isnan(arr).any(), "a drawn artist contains NaN"


def sweep_explorer(explorer, n: int = 5, *, allow_messages: bool = False):
    """Sweep every control of ``explorer``; returns the number of updates made."""
    made = 0
    for name, control in explorer.controls.items():
        start = control.value
        for value in control_values(control, n):
            control.value = value
            made += 1
            if not allow_messages:
                assert explorer.error is None, f"{name}={value!r}: {explorer.error}"
                assert explorer.view.message == "", f"{name}={value!r}: {explorer.view.message}"
            assert explorer.readout.value.strip(), f"{name}={value!r}: empty readout"
            assert_nothing_nan(explorer.view.fig)
        control.value = start
    return made


def problems_across_controls(explorer, check, n: int = 2) -> dict:
    """``check(explorer)`` (a list of problems) at the default state, then with each control
    moved over ``control_values(control, n)`` one at a time (options: first, middle, last);
    ``{where: problems}`` of the states that have any. The layout tests' sweep."""
    found = {}
    problems = check(explorer)
    if problems:
        found["default"] = problems
    for name, control in explorer.controls.items():
        start = control.value
        values = control_values(control, n)
        if len(values) > 3:  # options: first, middle, last
            values = [values[0], values[len(values) // 2], values[-1]]
        for value in values:
            control.value = value
            problems = check(explorer)
            if problems:
                found[f"{name}={value!r}"] = problems
        control.value = start
    return found


def found_message(case, style, found) -> str:
    """One line per failing state of :func:`problems_across_controls` (at most 4 problems)."""
    return f"{case} ({style}): " + "; ".join(
        f"[{where}] " + " | ".join(p[:4]) + (f" (+{len(p) - 4})" if len(p) > 4 else "")
        for where, p in found.items())


# -- every explorer, built as its notebook builds it (test_layout.py, test_frames.py) --------------
# -- explorers that need data --------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _spam():
    from spam_testing import fitted_models, spam_split

    d = spam_split(every=4, rng=2)
    return (d["X_train"], d["y_train"], d["X_test"], d["y_test"], d["vocab"],
            fitted_models(d["X_train"], d["y_train"]))


@functools.lru_cache(maxsize=None)
def _spam_curves():
    """Notebook 10's learning curves, smaller: the spam sample above, 4 sizes, 3 repetitions."""
    from genviz.nb_vs_logistic import nb_vs_logistic_curves

    X_train, y_train, X_test, y_test, _, _ = _spam()
    return nb_vs_logistic_curves(X_train, y_train, X_test, y_test,
                                 [10, 40, 160, X_train.shape[0]], 3, rng=0, n_words=100)


def _spam_sweep():
    """Notebook 10's investigation, smaller: the spam sample above, 3 sizes, 2 repetitions, two
    vocabulary sizes, both kinds of feature and two values each of λ and α (the notebook's
    default and its strong one, so the λ and α drop-downs are there)."""
    from genviz.studies.learning_curves_vocabulary import vocabulary_curves

    X_train, y_train, X_test, y_test, _, _ = _spam()
    return vocabulary_curves(X_train, y_train, X_test, y_test, [10, 40, X_train.shape[0]], 2,
                             rng=0, vocabularies=(30, 100), alpha=(1.0, 10.0), l2=(1.0, 100.0))


def _claw(n):
    from genviz.kde import sample_claw

    return sample_claw(1000, np.random.default_rng(0))[:n]


def _two_classes():
    rng = np.random.default_rng(7)

    def draw(n):
        one = rng.normal(0.0, 1.0, n)
        two = np.concatenate([rng.normal(-3.0, 0.6, n // 2), rng.normal(3.0, 0.6, n - n // 2)])
        return np.concatenate([one, two]), np.repeat(["one", "two"], n)
    return (*draw(150), *draw(1000))


def _build(name):
    """The explorer ``name`` built as its notebook builds it (same data, same arguments)."""
    from genviz import datasets
    from genviz.kde import claw_pdf
    from genviz.widgets import gaussian, joint, kde, knn, naive_bayes, spam

    if name == "dimensionality_explorer":
        cars = datasets.auto_mpg()
        return joint.dimensionality_explorer(cars.records, cars.record_names, d=3)
    if name == "histogram_explorer":
        return kde.histogram_explorer(_claw(200), width=0.3, true_pdf=claw_pdf, x_range=(-3, 3))
    if name == "kde_explorer":
        return kde.kde_explorer(_claw(20), h=0.3, true_pdf=claw_pdf, x_range=(-3, 3), ymax=0.9)
    if name == "kde2d_explorer":
        cars = datasets.auto_mpg()
        return kde.kde2d_explorer(cars.X[:, [4, 0]], labels=("weight (lbs)", "mpg"))
    if name == "categorical_nb_explorer":
        t = datasets.play_tennis()
        return naive_bayes.categorical_nb_explorer(t.X, t.y, t.feature_names, alpha=0.0)
    if name == "categorical_nb_explorer_enjoysport":  # notebook 06: 6 attributes, 7 panels
        t = datasets.enjoy_sport()
        return naive_bayes.categorical_nb_explorer(t.X, t.y, t.feature_names, alpha=0.0)
    if name == "discretize_explorer":
        p = datasets.penguins()
        return naive_bayes.discretize_explorer(p.X[:, 2], p.y, width=10.0,
                                               xlabel="flipper length (mm)")
    if name == "kde_nb_explorer":
        x, y, xt, yt = _two_classes()
        return naive_bayes.kde_nb_explorer(x, y, xt, yt, bandwidth=0.3)
    if name == "threshold_explorer":
        X_train, y_train, X_test, y_test, _, _ = _spam()
        return spam.threshold_explorer(X_train, y_train, X_test, y_test)
    if name == "email_explorer":
        *_, vocab, models = _spam()
        return spam.email_explorer(models, vocab, text=(
            "Dear friend, click here to get your FREE money now! Unsubscribe. "
            "Meeting about the neurips paper tomorrow."))
    if name == "projection_explorer":
        X, _ = datasets.optical_digits()
        return knn.projection_explorer(X[:300], d=16, eps=0.3)
    if name == "learning_curve_explorer":  # notebook 10
        from genviz.widgets.learning_curves import learning_curve_explorer
        return learning_curve_explorer(_spam_curves())
    if name == "vocabulary_curve_explorer":  # notebook 10's investigation
        from genviz.widgets.learning_curves import vocabulary_curve_explorer
        return vocabulary_curve_explorer(_spam_sweep())
    if name == "gaussian_explorer_contours":  # notebook 00: the 2-D view only
        return gaussian.gaussian_explorer(surface=False)
    raise KeyError(f"no branch for {name!r} in _build: {ADD_A_CASE}")


#: explorer cases that need arguments (or a second configuration of the same factory)
BUILDERS = ["dimensionality_explorer", "histogram_explorer", "kde_explorer", "kde2d_explorer",
            "categorical_nb_explorer", "categorical_nb_explorer_enjoysport", "discretize_explorer", "kde_nb_explorer",
            "threshold_explorer", "email_explorer", "projection_explorer",
            "gaussian_explorer_contours", "learning_curve_explorer",
            "vocabulary_curve_explorer"]


def explorer_factories() -> dict:
    """Every public ``*_explorer`` function of every ``genviz.widgets`` module."""
    found = {}
    for info in pkgutil.iter_modules(genviz.widgets.__path__):
        module = importlib.import_module(f"genviz.widgets.{info.name}")
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if name.endswith("_explorer") and inspect.isfunction(obj):
                found[name] = obj
    return found


def view_classes() -> set:
    """Every :class:`~genviz.plots._base.View` subclass defined in a ``genviz.plots`` module."""
    for info in pkgutil.iter_modules(genviz.plots.__path__):
        importlib.import_module(f"genviz.plots.{info.name}")
    out, todo = set(), list(View.__subclasses__())
    while todo:
        cls = todo.pop()
        if cls not in out:
            out.add(cls)
            todo.extend(cls.__subclasses__())
    return {c for c in out if c.__module__.startswith("genviz.plots.")}


def _builds_without_arguments(fn) -> bool:
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
               for p in inspect.signature(fn).parameters.values())


def explorer_cases() -> list[str]:
    """Every explorer case: each argument-free factory, and each entry of ``BUILDERS``."""
    return sorted(set(BUILDERS) | {n for n, f in explorer_factories().items()
                                   if _builds_without_arguments(f)})


def make_explorer(case):
    """Build the explorer of one case from :func:`explorer_cases`."""
    factories = explorer_factories()
    if case in factories and _builds_without_arguments(factories[case]) and case not in BUILDERS:
        return factories[case]()
    return _build(case)



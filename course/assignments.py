"""What each graded assignment asks: one spec per topic notebook (01-10), and each student's
variant of it.

An assignment is the topic notebook's exercises, graded. Its spec says

- ``setup``: the lines of the notebook that make the exercises' data (copied statement for
  statement from the notebook; a ``progress=`` callback is the one argument a setup line may
  drop: it draws a progress bar and changes no data);
- ``questions``: calls of the notebook's ``genviz.exercises`` builders (the same calls, written
  as in the notebook with the module named ``exercises``), each a graded question; the
  Exercise's prompt is the question, its answer the reference, its tolerance and hint the
  grader's. A multiple-choice item (:class:`genviz.exercises.choice.Choice`, kind ``"concept"``)
  is graded too: the student answers with an option's letter and the grader calls the Choice's
  own check (a guessable item, so it is worth 1 point);
- ``defaults`` and ``draw``: the **variant**. The setup and the calls name some of their values
  with upper-case names (``X_EX``, ``ALARM``, ``WORD`` ...); ``defaults`` gives each name the
  notebook's own value, and ``draw(d)`` (``d`` a :class:`course.variants.Draw`) a student's
  values. ``tests/test_grading.py`` puts the defaults in and checks that every non-import
  statement of the setup and every builder call then occurs in the notebook itself: the
  graded question is the notebook's question, asked on each student's own data. To follow a
  changed notebook, change the line here and, if the changed value is a named one, its
  default. ``accept(params)`` (optional) rejects a draw whose question would be ambiguous (a
  tie, a value on a bin edge); the next draw is taken;
- ``working``: the questions whose worked solution is a derivation: the student writes the
  working in a manually graded cell (the Exercise's worked solution is the grader's reference,
  kept in the source and solution notebooks only);
- ``left_out``: the notebook's self-check items (``answer_box``/``choice_box``/``derivation_box``
  calls) that the assignment does not ask, each with the reason (a test checks that every such
  item of the notebook is either asked or listed here, so a new exercise in a notebook is not
  silently forgotten).

Left out on purpose: the *predictions* (``prediction_box``: asked before an explorer shows
the answer, a commitment rather than an answer to grade) and whatever needs the explorer (the
graded notebook has none: the investigations, ``INVESTIGATION`` below). The notebooks have no
items of kind ``"explorer"`` (set the sliders, copy the readout) since issue #40 item 6: they
repeated the observation of the cycle before them.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import math
import re
from typing import Callable

from course.cells import is_choice, notebook, reference
from course.variants import Draw, Variant, permute_choice, render, render_text, seed
from genviz.topics import TOPICS


@dataclasses.dataclass(frozen=True)
class Question:
    """One auto-graded question: a builder call (``exercises.name(...)``) evaluated in the setup's
    namespace, its points, and a note naming the variables that hold its data (``{NAME}`` in a
    note is replaced by the variant's value)."""

    call: str
    points: int = 2
    note: str = ""


@dataclasses.dataclass(frozen=True, eq=False)
class Assignment:
    name: str
    notebook: str
    title: str
    exercises: str
    setup: str
    questions: tuple[Question, ...]
    working: tuple[int, ...] = ()
    working_points: int = 2
    left_out: tuple[tuple[str, str], ...] = ()
    defaults: dict = dataclasses.field(default_factory=dict)
    draw: Callable | None = None
    accept: Callable | None = None

    def module(self):
        """The ``genviz.exercises`` module whose builders the questions call."""
        return importlib.import_module(self.exercises)

    def setup_code(self, params: dict | None = None) -> str:
        """The setup with a variant's values (the notebook's values by default)."""
        return render(self.setup, {**self.defaults, **(params or {})})

    def call_code(self, question: Question, params: dict | None = None) -> str:
        return render(question.call, {**self.defaults, **(params or {})})

    def note_text(self, question: Question, params: dict | None = None) -> str:
        return render_text(question.note, {**self.defaults, **(params or {})})


#: Why a practice item added by issue #30 is not graded (yet): the graded variants of the new
#: kinds are the grading update's to decide (an investigation needs the notebook's explorer;
#: a derivation's key steps are the same formulas for every student; a retrieval item
#: checks an earlier notebook's objective, graded in that notebook's assignment).
INVESTIGATION = ("investigation: answered by searching with the notebook's explorer, which the "
                 "graded notebook does not have")
DERIVATION = ("derivation (#30, #40): written as its key steps, each a formula checked by what "
              "it computes, the worked derivation after every step is tried; not graded: its "
              "formulas are the same for every student (no variant), so a classmate's would do")
RETRIEVAL = ("retrieval (#30): it checks an earlier notebook's objective, which that notebook's "
             "assignment grades")

ASSIGNMENTS: dict[str, Assignment] = {}

#: Notebooks with no graded assignment, and why: built from the topics' declarations
#: (``ungraded=`` in genviz/topics.py, the reason in at least 12 words; tests/test_project.py
#: reads it). None at present: the capstone (10) is graded as ``a10_capstone``.
UNGRADED: dict[str, str] = {t.file: t.ungraded for t in TOPICS if t.ungraded}


def _add(a: Assignment) -> None:
    unknown = set(a.draw(Draw(0))) - set(a.defaults) if a.draw else set()
    if unknown:
        raise ValueError(f"{a.name}: draw gives names without a default: {sorted(unknown)}")
    ASSIGNMENTS[a.name] = a


def _choice(call: str, note: str = "") -> Question:
    return Question(call, points=1, note=note)


def _matrix2(d: Draw, low=0.5, high=3.0, *, max_rho=0.9, exclude_rho=()) -> list:
    """A 2x2 symmetric matrix [[a, b], [b, c]] with b = rho sqrt(ac), rounded to 0.1."""
    a, c = d.grid(low, high, 0.5), d.grid(low, high, 0.5)
    rho = d.grid(-max_rho, max_rho, 0.1, exclude=(0.0, *exclude_rho))
    b = round(rho * (a * c) ** 0.5, 1)
    return [[a, b], [b, c]]


# -- a01: joint tables ------------------------------------------------------------------------------

def _draw_a01(d: Draw) -> dict:
    base = [0.01, 0.08, 0.01, 0.09, 0.001, 0.009, 0.01, 0.79]
    raw = [p * d.grid(0.5, 1.5, 0.05) for p in base]
    total = sum(raw)
    alarm = [round(p / total, 3) for p in raw[:-1]]
    alarm = [max(p, 0.001) for p in alarm]
    alarm.append(round(1.0 - sum(alarm), 3))
    return {"ALARM": alarm, "SPLIT_SEED": d.integer(0, 9999),
            "CARDINALITIES": {"mpg": d.integer(2, 5), "maker": d.integer(2, 6),
                              "cylinders": d.integer(3, 6), "horsepower": d.integer(2, 5)}}


_add(Assignment(
    name="a01_joint", notebook="01_probability_and_joint_tables.ipynb",
    title="Probability and joint tables", exercises="genviz.exercises.joint",
    setup='''\
import numpy as np

from genviz.datasets import auto_mpg
from genviz.joint import JointTable

alarm = JointTable(
    {"Alarm": ["alarm", "no alarm"], "Theft": ["theft", "no theft"],
     "Earthquake": ["earthquake", "no earthquake"]},
    ALARM)  # alarm: theft & eq, theft & no eq, no theft & eq, no theft & no eq; then no alarm
cars = auto_mpg()
names = cars.record_names[:3]
values = {k: cars.record_values[k] for k in names}
records = cars.records[:, :3]
order = np.random.default_rng(SPLIT_SEED).permutation(len(records))
train, test = records[order[:196]], records[order[196:]]
model = JointTable.from_records(train, names, values)
''',
    questions=(
        Question('exercises.posterior_by_bayes(alarm, {"Earthquake": "earthquake"}, '
                 '{"Alarm": "alarm"})', note="The joint table is `alarm`."),
        Question("exercises.parameter_count(CARDINALITIES)"),
        Question("exercises.dataset_log_likelihood(model, test[:3])",
                 note="The table is `model`, the records are `test[:3]`."),
        _choice("exercises.independence_concept()"),
    ),
    working=(1,),
    left_out=(("exercises.fewest_records_to_fill(cars.records, cars.record_names, d=4, filled=25)",
               INVESTIGATION),
              ("exercises.training_log_likelihood_derivation(train, names, values)", DERIVATION)),
    defaults={"ALARM": [0.01, 0.08, 0.01, 0.09, 0.001, 0.009, 0.01, 0.79], "SPLIT_SEED": 4,
              "CARDINALITIES": {"mpg": 2, "maker": 3, "cylinders": 5, "horsepower": 2}},
    draw=_draw_a01,
))


# -- a02: the multivariate Gaussian -----------------------------------------------------------------

def _draw_a02(d: Draw) -> dict:
    return {"AXIS_COV": _matrix2(d, 1.0, 4.0, max_rho=0.8),
            "K_SIGMA": d.grid(0.5, 3.0, 0.1, exclude=(1.0, 2.0)),
            # valid (|rho| < 1) or not (|rho| > 1), never singular
            "CHECK_COV": _matrix2(d, 1.0, 4.0, max_rho=1.6, exclude_rho=(-1.0, 1.0, -0.9, 0.9,
                                                                         -1.1, 1.1))}


_add(Assignment(
    name="a02_gaussian", notebook="02_multivariate_gaussian.ipynb",
    title="The multivariate Gaussian", exercises="genviz.exercises.gaussian",
    setup="import numpy as np\n",
    questions=(
        Question("exercises.major_axis_angle(AXIS_COV)"),
        Question("exercises.mass_inside(K_SIGMA)"),
        _choice("exercises.valid_covariance(CHECK_COV)"),
    ),
    working=(1,),
    left_out=(("exercises.rho_for_peak_ratio(1.5)", INVESTIGATION),
              ("exercises.peak_formula_derivation()", DERIVATION),
              ("exercises.uncorrelated_gaussian_independence(0.0)", RETRIEVAL)),
    defaults={"AXIS_COV": [[2, -0.6], [-0.6, 1]],
              "K_SIGMA": 1.5, "CHECK_COV": [[1, 2], [2, 1]]},
    draw=_draw_a02,
    accept=lambda p: abs(p["AXIS_COV"][0][1]) > 0 and abs(
        p["CHECK_COV"][0][1] ** 2 - p["CHECK_COV"][0][0] * p["CHECK_COV"][1][1]) > 0.05,
))


# -- a03: GDA by hand -------------------------------------------------------------------------------

def _draw_a03(d: Draw) -> dict:
    """5 to 8 distinct points on the integer grid, 2 or more of each class, class 1 up and to
    the right of class 0 (as in the notebook's six)."""
    n = d.integer(5, 8)
    ones = set(d.sample(range(n), d.integer(2, n - 2)))
    labels = [int(i in ones) for i in range(n)]
    points = []
    for label in labels:
        while True:
            p = [d.integer(0, 4) + 2 * label, d.integer(0, 4) + 2 * label]
            if p not in points:
                break
        points.append(p)
    return {"X_EX": points, "Y_EX": labels, "X1_LINE": d.grid(1.0, 5.0, 0.5)}


def _accept_a03(p) -> bool:
    """A boundary that is not vertical (it crosses the line x1 = X1_LINE) and a covariance
    that is far from singular."""
    import numpy as np

    from genviz.gda import GDA

    X, y = np.asarray(p["X_EX"], dtype=float), np.asarray(p["Y_EX"])
    model = GDA().fit(X, y)
    theta, _ = model.logistic_params()
    return abs(theta[1]) > 0.05 and float(np.linalg.det(model.covariance_)) > 0.1


#: the data every question of a03 is asked on
_A03_DATA = "The training set is `X_ex`, `y_ex`."

_add(Assignment(
    name="a03_gda", notebook="03_gaussian_discriminant_analysis.ipynb",
    title="Gaussian discriminant analysis", exercises="genviz.exercises.gda",
    setup='''\
import numpy as np

X_ex = np.array(X_EX, dtype=float)
y_ex = np.array(Y_EX)
''',
    questions=(
        Question("exercises.sigma_by_hand(X_ex, y_ex)", note=_A03_DATA),
        Question("exercises.boundary_point(X_ex, y_ex, X1_LINE)", note=_A03_DATA),
        _choice("exercises.duplicated_data_concept(X_ex, y_ex)", note=_A03_DATA),
    ),
    working=(1,),
    left_out=(("exercises.phi_for_boundary_through_origin(mu0=(-1.0, -0.5), mu1=(1.5, 1.0), "
               "sigma1=1.0, sigma2=0.8, rho=0.4)", INVESTIGATION),
              ("exercises.qda_quadratic_term([[1, 0.5], [0.5, 0.6]], [[2, -0.5], [-0.5, 1]])",
               DERIVATION),
              ("exercises.shared_sigma_same_peak(X_ex, y_ex)", RETRIEVAL)),
    defaults={"X_EX": [[0, 1], [1, 0], [2, 2], [4, 3], [5, 5], [6, 4]], "Y_EX": [0, 0, 1, 1, 1, 0],
              "X1_LINE": 3.0},
    draw=_draw_a03, accept=_accept_a03,
))


# -- a04: GDA and logistic regression ---------------------------------------------------------------

def _draw_a04(d: Draw) -> dict:
    mu1 = [d.grid(-3, 3, 1), d.grid(-3, 3, 1)]
    if mu1 == [0, 0]:
        mu1 = [2, 1]
    return {"MU1": mu1, "COV": _matrix2(d, 0.5, 2.0, max_rho=0.8),
            "POISSON_MU1": [d.grid(1.0, 3.0, 0.5), d.grid(0.0, 1.5, 0.5)],
            "CURVES_SEED": d.integer(0, 9999)}


_add(Assignment(
    name="a04_gda_vs_logistic", notebook="04_gda_vs_logistic_regression.ipynb",
    title="GDA and logistic regression", exercises="genviz.exercises.gda",
    # the Poisson learning curves take ~1.5 s (60 repetitions x 10 sizes): cheap enough for
    # every graded kernel; the Gaussian curves are not needed by any question
    setup='''\
import numpy as np

from genviz.studies.gda_vs_logistic_curves import learning_curves
from genviz.synthetic import DataModel

SIZES = [10, 20, 30, 50, 100, 200, 500, 1000, 2000, 5000]
poisson = DataModel("poisson", mu0=[-1.0, 0.0], mu1=POISSON_MU1, cov=np.eye(2))
curves_pois = learning_curves(poisson, SIZES, n_reps=60, rng=CURVES_SEED)
''',
    questions=(
        Question("exercises.theta_from_params(0.5, [0, 0], MU1, COV)"),
        Question("exercises.poisson_theta(poisson.rates[0], poisson.rates[1])",
                 note="The rates are `poisson.rates[0]` and `poisson.rates[1]`."),
        Question("exercises.better_learner(curves_pois, 1000)",
                 note="The learning curves of the Poisson counts are `curves_pois` "
                      "(`curves_pois.sizes`; `curves_pois.gda_errors` and "
                      "`curves_pois.lr_errors`: one row per repetition, one column per size)."),
        _choice("exercises.poisson_bias_concept(curves_pois)",
                note="The learning curves are `curves_pois` (see the question before)."),
    ),
    working=(2,),
    left_out=(("exercises.rho_for_separable_sample()", INVESTIGATION),
              ("exercises.newton_hessian_derivation([[0.0, 1.0], [1.0, 0.5], [2.0, 2.5], "
               "[3.0, 1.0]], [0, 1, 0, 1])", DERIVATION),
              ("exercises.midpoint_boundary([0.0, 0.0], [1.5, 0.0], [[1.0, 0.8], [0.8, 1.0]])",
               RETRIEVAL)),
    defaults={"MU1": [2, 0], "COV": [[1, 0.5], [0.5, 1]],
              "POISSON_MU1": [2.0, 1.0], "CURVES_SEED": 1},
    draw=_draw_a04,
))


# -- a05: density estimation ------------------------------------------------------------------------

def _draw_a05(d: Draw) -> dict:
    five = sorted(d.sample([round(-2.0 + 0.1 * k, 1) for k in range(41)], 5))
    return {"FIVE": five, "KDE_X0": d.grid(-1.0, 1.0, 0.1), "KDE_H": d.grid(0.5, 1.5, 0.1),
            "BIN_WIDTH": d.choice([0.4, 0.5, 0.8, 1.0, 1.2]), "BIN_ORIGIN": d.choice([0.0, 0.25, -0.25]),
            "HIST_X0": d.grid(-1.0, 1.0, 0.1)}


def _accept_a05(p) -> bool:
    """No data point on the edge of the box kernel's window or of a histogram bin (the
    convention at an edge would decide the answer), the query point not on a bin edge, and at
    least one point in the window and in the query's bin (an answer of 0 is too easy)."""
    x0, h, w, o, q = p["KDE_X0"], p["KDE_H"], p["BIN_WIDTH"], p["BIN_ORIGIN"], p["HIST_X0"]
    if any(abs(abs(x - x0) - h) < 1e-9 for x in p["FIVE"]):
        return False
    if any(abs((v - o) / w - round((v - o) / w)) < 1e-9 for v in [*p["FIVE"], q]):
        return False
    in_window = any(abs(x - x0) < h for x in p["FIVE"])
    in_bin = any((x - o) // w == (q - o) // w for x in p["FIVE"])
    return in_window and in_bin


_add(Assignment(
    name="a05_density", notebook="05_density_estimation.ipynb",
    title="Density estimation", exercises="genviz.exercises.kde",
    setup='''\
import numpy as np

five = np.array(FIVE)
''',
    questions=(
        Question('exercises.kde_by_hand(five, KDE_X0, KDE_H, "box")', note="The data are `five`."),
        Question("exercises.histogram_height(five, BIN_WIDTH, BIN_ORIGIN, HIST_X0)",
                 note="The data are `five`."),
        _choice("exercises.more_smoothing_with_fewer_points()"),
    ),
    working=(1,),
    left_out=(("exercises.ise_optimal_bandwidth(1000)", INVESTIGATION),
              ("exercises.lscv_leave_one_out_derivation()", DERIVATION),
              ("exercises.empty_histogram_bins(1000, 10)", RETRIEVAL)),
    defaults={"FIVE": [-1.0, -0.2, 0.1, 0.3, 1.4], "KDE_X0": 0.0, "KDE_H": 1.0,
              "BIN_WIDTH": 1.0, "BIN_ORIGIN": 0.0, "HIST_X0": 0.2},
    draw=_draw_a05, accept=_accept_a05,
))


# -- a06: naive Bayes by counting -------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def _tennis():
    from genviz import datasets

    return datasets.play_tennis()


def _draw_a06(d: Draw) -> dict:
    t = _tennis()
    names = list(t.feature_names)
    j = d.integer(0, len(names) - 1)
    values = sorted(set(t.X[:, j].tolist()))
    query = [d.choice(sorted(set(t.X[:, k].tolist()))) for k in range(len(names))]
    return {"FEATURE": names[j], "VALUE": d.choice(values), "LABEL": d.choice(["Yes", "No"]),
            "QUERY": query}


def _accept_a06(p) -> bool:
    """The query's two class scores (alpha = 0) differ and are not both 0: one decision."""
    import numpy as np

    t = _tennis()
    scores = []
    for label in sorted(set(t.y.tolist())):
        rows = t.X[t.y == label]
        s = len(rows) / len(t.X)
        for j, v in enumerate(p["QUERY"]):
            s *= float(np.mean(rows[:, j] == v))
        scores.append(s)
    return max(scores) > 0 and abs(scores[0] - scores[1]) > 1e-9 * max(scores)


#: the table every question of a06 is asked on
_A06_DATA = "The table is `tennis` (PlayTennis)."

_add(Assignment(
    name="a06_naive_bayes", notebook="06_naive_bayes_by_counting.ipynb",
    title="Naive Bayes by counting", exercises="genviz.exercises.naive_bayes",
    setup='''\
from genviz import datasets

tennis = datasets.play_tennis()
''',
    questions=(
        Question("exercises.conditional_by_counting(tennis.X, tennis.y, tennis.feature_names, "
                 "FEATURE, VALUE, LABEL)", note=_A06_DATA),
        Question("exercises.decision_of_query(tennis.X, tennis.y, tennis.feature_names, QUERY)",
                 note=_A06_DATA),
        _choice("exercises.smoothing_can_flip(tennis.X, tennis.y, tennis.feature_names)",
                note=_A06_DATA),
    ),
    working=(2,),
    left_out=(("exercises.alpha_for_posterior(tennis.X, tennis.y, tennis.feature_names, "
               "['Overcast', 'Cool', 'High', 'Strong'], 'No', 0.2)", INVESTIGATION),
              ("exercises.logsumexp_shift_derivation()", DERIVATION),
              ("exercises.full_joint_of_a_small_table(tennis.X, tennis.y)", RETRIEVAL)),
    defaults={"FEATURE": "Temperature", "VALUE": "Mild", "LABEL": "Yes",
              "QUERY": ["Rain", "Hot", "Normal", "Strong"]},
    draw=_draw_a06, accept=_accept_a06,
))


# -- a07: the spam filter ---------------------------------------------------------------------------

#: Words of the spam corpus's vocabulary (min_count 2, English stop words removed).
SPAM_WORDS = ("click free money offer remove email list business credit call order price save "
              "time people information report internet software company mail market program "
              "service website address subscribe million cash bonus guarantee investment loan "
              "mortgage deal cheap discount win winner prize urgent account bank password "
              "meeting paper project code linux python thanks week group data server version "
              "update help please today unsubscribe").split()


def _draw_a07(d: Draw) -> dict:
    words = d.sample(SPAM_WORDS, 7)
    return {"WORD": words[0], "CLASS": d.choice(["spam", "ham"]),
            "C_THRESHOLD": d.choice([10.0, 50.0, 100.0, 200.0, 500.0, 2000.0, 5000.0, 10000.0]),
            "EMAIL": " ".join(words[1:]).capitalize() + "."}


_add(Assignment(
    name="a07_spam", notebook="07_naive_bayes_spam_filter.ipynb",
    title="A naive Bayes spam filter", exercises="genviz.exercises.spam",
    setup='''\
import numpy as np

from genviz.datasets import spam_assassin
from genviz.model_selection import stratified_split
from genviz.naive_bayes import MultinomialNB
from genviz.text import bag_of_words, build_vocabulary

corpus = spam_assassin()
train, test = stratified_split(corpus.label, test_size=0.3, rng=0)
y_train, y_test = corpus.label[train], corpus.label[test]
vocab = build_vocabulary(corpus.text[train], min_count=2, stop_words="english")
X_train = bag_of_words(corpus.text[train], vocab)   # counts: multinomial event model
X_test = bag_of_words(corpus.text[test], vocab)
multi = MultinomialNB(alpha=1.0).fit(X_train, y_train)
email_text = ("Dear friend, click here to get your FREE money now! "
              "Unsubscribe. Meeting about the neurips paper tomorrow.")
''',
    questions=(
        Question("exercises.laplace_phi(X_train, y_train, vocab, word=WORD, label=CLASS)",
                 note="Use `X_train`, `y_train` and `vocab`."),
        Question("exercises.smola_offset(y_train, c=C_THRESHOLD)", note="Use `y_train`."),
        Question("exercises.email_log_odds(multi, vocab, EMAIL)",
                 note="The model is `multi`, the vocabulary `vocab`."),
        _choice("exercises.doubled_email(multi, vocab, email_text)",
                note="The model is `multi`, the vocabulary `vocab`, the email `email_text`."),
    ),
    working=(2,),
    left_out=(("exercises.log10_c_for_flagged_ham(multi, X_test, y_test, 10)", INVESTIGATION),
              ("exercises.bernoulli_weight_derivation(bern)", DERIVATION),
              ("exercises.generative_or_discriminative()", RETRIEVAL)),
    defaults={"WORD": "click", "CLASS": "spam", "C_THRESHOLD": 1000.0,
              "EMAIL": "Cheap mortgage rates: reply today, the offer ends soon"},
    draw=_draw_a07,
))


# -- a08: naive Bayes with continuous features ------------------------------------------------------

def _draw_a08(d: Draw) -> dict:
    return {"AREA": d.grid(150, 2200, 10, exclude=(400, 800, 1200, 1600)),
            "NB_SEED": d.integer(8, 9999), "NB_CLASS": d.choice(["one", "two"])}


_add(Assignment(
    name="a08_continuous", notebook="08_naive_bayes_continuous.ipynb",
    title="Naive Bayes with continuous features", exercises="genviz.exercises.naive_bayes",
    setup='''\
import numpy as np

from genviz import datasets

penguins = datasets.penguins()
flipper = penguins.X[:, 2]
rng = np.random.default_rng(NB_SEED)

def two_classes(n):
    one = rng.normal(0.0, 1.0, n)
    two = np.concatenate([rng.normal(-3.0, 0.6, n // 2), rng.normal(3.0, 0.6, n - n // 2)])
    return np.concatenate([one, two]), np.repeat(["one", "two"], n)

x_train, y_train = two_classes(150)
''',
    questions=(
        Question("exercises.living_area_bin(AREA)"),
        Question("exercises.gaussian_nb_parameters(x_train, y_train, NB_CLASS)",
                 note="The feature is `x_train`, the labels `y_train` (the KDE naive Bayes "
                      "section\'s training set)."),
        _choice("exercises.duplicated_feature(flipper, penguins.y)",
                note="The feature is `flipper` (flipper length, mm), the labels `penguins.y`."),
    ),
    working=(2,),
    left_out=(("exercises.rho_for_gda_advantage(0.10)", INVESTIGATION),
              ("exercises.gaussian_nb_as_gaussian_derivation()", DERIVATION),
              ('exercises.silverman_on_two_modes(x_train, y_train, "two")', RETRIEVAL)),
    defaults={"AREA": 1600, "NB_SEED": 7, "NB_CLASS": "two"},
    draw=_draw_a08,
))


# -- a09: nearest neighbours ------------------------------------------------------------------------

X_SMALL = [[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [3.0, 3.0], [2.5, 2.0]]


def _draw_a09(d: Draw) -> dict:
    return {"QUERY": [d.grid(-0.5, 3.5, 0.1), d.grid(-0.5, 3.5, 0.1)],
            "REG_SEED": d.integer(1, 9999), "REG_X0": d.grid(1.0, 9.0, 0.5),
            "REG_K": d.choice([3, 5, 7, 9, 11])}


def _accept_a09(p) -> bool:
    """The query's 3rd and 4th nearest points are not at the same distance (no tie)."""
    qx, qy = p["QUERY"]
    dist = sorted(((x - qx) ** 2 + (y - qy) ** 2) ** 0.5 for x, y in X_SMALL)
    return dist[3] - dist[2] > 1e-6


_add(Assignment(
    name="a09_knn", notebook="09_nearest_neighbors.ipynb",
    title="Nearest neighbours", exercises="genviz.exercises.knn",
    setup='''\
import numpy as np

from genviz.synthetic import regression_data, two_class_data

X, y = two_class_data(200, rng=0)          # training set: two classes, each a mix of blobs
X_small = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [3.0, 3.0], [2.5, 2.0]])
y_small = np.array(["red", "blue", "blue", "red", "red"])
x_r, y_r = regression_data(100, rng=REG_SEED)
''',
    questions=(
        Question("exercises.majority_vote(X_small, y_small, QUERY, k=3)",
                 note="The points are `X_small`, their labels `y_small`."),
        Question("exercises.knn_regression_value(x_r, y_r, REG_X0, k=REG_K)",
                 note="The data are `x_r`, `y_r`."),
        _choice("exercises.k_equals_m(X, y)", note="The training set is `X`, `y`."),
    ),
    working=(2,),
    left_out=(("exercises.dimension_for_spread(X_digits[:300], 0.1)", INVESTIGATION),
              ("exercises.knn_average_variance_derivation(k=7, sigma=0.3)", DERIVATION),
              ("exercises.k_like_a_bandwidth(x_r, y_r)", RETRIEVAL)),
    defaults={"QUERY": [0.4, 0.5], "REG_SEED": 0, "REG_X0": 5.0, "REG_K": 7},
    draw=_draw_a09, accept=_accept_a09,
))


# -- a10: the capstone, naive Bayes against logistic regression --------------------------------------

#: The sweep's settings and its sizes below the whole training set (notebook 10's SIZES): a
#: student reads the lead at one of these, from the sweep every release computes the same way.
SWEEP_DS = (30, 300, 3000)
SWEEP_SIZES = (10, 20, 40, 80, 160, 320, 640, 1280)


def _draw_a10(d: Draw) -> dict:
    """The experiment is the same for every student (the sweep, about 15 s, computed once by
    the grader: the setup has no named value; each submission's own run in the sandbox still
    runs it); each student reads their own setting and size
    of it and counts the fits of their own experiment."""
    return {"N_SIZES": d.integer(4, 16),
            "N_REPS": d.integer(2, 50), "LEAD_D": d.choice(SWEEP_DS),
            "LEAD_KIND": d.choice(["presence", "counts"]), "LEAD_N": d.choice(SWEEP_SIZES)}


def _accept_a10(p) -> bool:
    """A lead of at least 0.1 standard errors either way: a lead near 0 could coincide, at the
    checker's tolerance (0.01), with a test error the setup leaves in the kernel (0.02-0.07)."""
    import numpy as np

    sweep = setup_namespace(ASSIGNMENTS["a10_capstone"], p)["sweep"]  # the class's one run
    c = sweep[(p["LEAD_D"], p["LEAD_KIND"])]
    j = list(sweep.sizes).index(p["LEAD_N"])
    diff = c.nb_errors[:, j] - c.lr_errors[:, j]
    se = diff.std(ddof=1) / np.sqrt(diff.size)
    return bool(se > 0 and abs(diff.mean()) >= 0.1 * se)


_add(Assignment(
    name="a10_capstone", notebook="10_capstone_nb_vs_logistic.ipynb",
    title="Capstone: naive Bayes against logistic regression",
    exercises="genviz.exercises.nb_vs_logistic",
    # the sweep (3 vocabulary sizes x 2 kinds x 5 orders, each learner at 3 values of its
    # lambda or alpha) and the full-dictionary fits take about 15 s; no named value enters the
    # setup, so the grader runs it once for the class
    setup='''\
import numpy as np

from genviz.datasets import spam_assassin
from genviz.model_selection import stratified_split
from genviz.studies.learning_curves_vocabulary import full_dictionary_errors, vocabulary_curves
from genviz.text import bag_of_words, build_vocabulary

corpus = spam_assassin()
train, test = stratified_split(corpus.label, test_size=0.3, rng=0)
y_train, y_test = corpus.label[train], corpus.label[test]
vocab = build_vocabulary(corpus.text[train], min_count=2, stop_words="english")
X_train = bag_of_words(corpus.text[train], vocab)
X_test = bag_of_words(corpus.text[test], vocab)
N_WORDS = 300
SIZES = [10, 20, 40, 80, 160, 320, 640, 1280, len(train)]
SWEEP_REPS = 5
L2_VALUES, ALPHA_VALUES = (0.01, 1.0, 100.0), (0.01, 1.0, 10.0)
sweep = vocabulary_curves(X_train, y_train, X_test, y_test, SIZES, SWEEP_REPS, rng=0,
                          vocabularies=(30, 300, 3000), alpha=ALPHA_VALUES, l2=L2_VALUES)
every = full_dictionary_errors(X_train, y_train, X_test, y_test, alpha=1.0, l2=1.0)
err_nb_every, err_lr_every = every.nb_counts, every.lr
err_lr_300 = float(sweep[(N_WORDS, "presence")].mean_se("lr")[0][-1])
''',
    questions=(
        Question("exercises.fits_in_the_experiment(N_SIZES, N_REPS)"),
        Question("exercises.lead_in_standard_errors(sweep, LEAD_D, LEAD_KIND, LEAD_N)",
                 note="The sweep is `sweep`: `sweep[(d, kind)]` has `.nb_errors` and "
                      "`.lr_errors` (a row per repetition, a column per size of `sweep.sizes`)."),
        _choice('exercises.full_dictionary(err_nb_every, err_lr_every["counts"], '
                'err_lr_every["presence"], err_lr_300, len(test))',
                note="The test errors are `err_nb_every` (naive Bayes, counts of every word), "
                     "`err_lr_every` (logistic regression on every word, counts and presence) "
                     "and `err_lr_300` (logistic regression on the 300 presence features)."),
        _choice("exercises.top_features_encode()"),
    ),
    working=(2,),
    left_out=(("exercises.smallest_n_logistic_ahead(curves)", INVESTIGATION),
              ("exercises.crossing_with_regularisation(sweep)", INVESTIGATION),
              ("exercises.log_d_claim(sweep)", INVESTIGATION),
              ("exercises.presence_nb_weight_derivation(X_train, y_train, N_WORDS)", DERIVATION),
              ("exercises.bias_or_variance(curves)", RETRIEVAL)),
    defaults={"N_SIZES": 9, "N_REPS": 10, "LEAD_D": 3000,
              "LEAD_KIND": "presence", "LEAD_N": 1280},
    draw=_draw_a10, accept=_accept_a10,
))


# -- wordings of the choice options ----------------------------------------------------------------

#: Other wordings of a graded choice's options, per choice id: option text as the notebook
#: words it -> the other ways of saying the same thing. A student's release words each option
#: one of these ways (or the notebook's), drawn from their own stream (``variant``), so the
#: text of the right option in a classmate's release or in the self-study notebook is, for
#: most students, not a text of their own release. Same meaning, same reason shown: only the
#: words change. An option not listed keeps the notebook's text.
WORDINGS: dict[str, dict[str, tuple[str, ...]]] = {
    "01-independence-given-c": {
        "yes, always: conditioning can only remove dependence": (
            "yes: knowing C can only take dependence away, never add it",
            "always: independence given C implies independence"),
        "not necessarily: it depends on the joint table": (
            "not always: some joint tables make them dependent",
            "it depends on the table: A and B can be dependent"),
        "only when C has two values": (
            "only if C is binary",
            "yes, but only for a C with two values"),
    },
    "02-valid-covariance": {
        "no: it is not positive definite (ρ would be outside [-1, 1])": (
            "no: it fails to be positive definite (its ρ would lie outside [-1, 1])",
            "not valid: ρ would fall outside [-1, 1], so it is not positive definite"),
        "yes: it is symmetric and its diagonal (the variances) is positive": (
            "yes: it is symmetric with positive variances on the diagonal",
            "valid: symmetric, and every diagonal entry (a variance) is positive"),
        "no: an entry off the diagonal may not exceed the variances": (
            "no: an off-diagonal entry must not be larger than the variances",
            "not valid: no off-diagonal entry may exceed a variance"),
    },
    "04-poisson-bias": {
        "yes, but only with a ridge penalty to tame the variance": (
            "only with a ridge penalty, which tames the variance",
            "yes, provided a ridge penalty keeps the variance down"),
        "yes: every estimate converges, so the error does too": (
            "yes: all the estimates converge, and so does the error",
            "it does: with converging estimates the error vanishes too"),
        "no: its Gaussian model is wrong for counts": (
            "no: a Gaussian model does not fit counts",
            "it does not: the Gaussian model is wrong for counts"),
    },
    "07-doubled-email": {
        "The whole log-odds doubles, b included.": (
            "All of the log-odds doubles, the prior term b too.",
            "Everything doubles, b as well."),
        "The word part doubles; b, the prior term, stays.": (
            "The words' part doubles, while the prior term b stays the same.",
            "Only the word part doubles; b (the prior) is unchanged."),
        "It stays the same: the same words, in the same proportions.": (
            "Nothing changes: the words and their proportions are the same.",
            "It is unchanged, as the proportions of the words are the same."),
    },
    "08-duplicated-feature": {
        "They get less extreme, nearer the prior.": (
            "Less extreme, closer to the prior.",
            "They move towards the prior."),
        "Nothing: naive Bayes sees that one column is a copy.": (
            "They do not change: naive Bayes spots the copied column.",
            "Nothing happens: naive Bayes notices the copy."),
        "They get more extreme, nearer 0 or 1.": (
            "More extreme, closer to 0 or 1.",
            "They move further from 1/2."),
    },
    "09-k-equals-m": {
        "The label of the query's nearest point.": (
            "Whatever label the closest point has.",
            "The nearest point's label."),
        "A smooth boundary that fits best.": (
            "The smooth boundary that fits best.",
            "A boundary smoothed to fit best."),
        "The majority class, everywhere.": (
            "The most common class, for any query.",
            "Everywhere the majority class."),
    },
    "03-duplicated-data": {
        "none of them": ("not one of the four", "no estimate changes"),
        "only Σ (it divides by n, and n doubles)": (
            "Σ alone, because n doubles in its denominator",
            "just the covariance Σ (n is twice as large)"),
        "φ and Σ, which depend on n": (
            "the two that depend on n: φ and Σ",
            "φ and Σ (both are divided by n)"),
        "all four": ("every one of φ, μ₀, μ₁ and Σ", "φ, μ₀, μ₁ and Σ all change"),
    },
    "05-more-smoothing": {
        "about 1/5: fewer points, less noise": (
            "about a fifth: fewer points make less noise",
            "close to 0.2, as fewer points add fewer bumps"),
        "about 5": ("close to five", "roughly 5 times"),
        "1: at the same h the noise does not change": (
            "no change (ratio 1): the noise depends on h only",
            "the same (about 1), since h is unchanged"),
        "about √5 ≈ 2.2": ("close to √5, i.e. about 2.24", "roughly 2.2 (the square root of 5)"),
    },
    "06-smoothing-can-flip": {
        "Yes: a class whose score rests on few counts can lose its lead": (
            "Yes: a class resting on few counts can lose its lead",
            "It can: a score built on few counts may fall behind"),
        "Only from α = 1 on: a smaller α only rescales": (
            "Only for α ≥ 1: below 1 it just rescales",
            "From α = 1 upwards only; a smaller α rescales"),
        "No: every estimate moves by about the same factor": (
            "No: all estimates move by about one factor",
            "Never: every estimate scales alike"),
    },
    "10-full-dictionary": {
        "only on the same features: on every word, naive Bayes is about as good": (
            "only with the same features: given every word, naive Bayes does about as well",
            "on the same 300 words only; on the whole dictionary naive Bayes is as good"),
        "always: logistic regression beats naive Bayes on every set of features we tried": (
            "always: on every feature set tried, logistic regression is ahead of naive Bayes",
            "every time: whatever the features, logistic regression beats naive Bayes"),
        "never here: naive Bayes is ahead on 300 words too": (
            "not here at all: naive Bayes leads on the 300 words as well",
            "never: naive Bayes is ahead on the 300 words too"),
        "only with counts, never with presence features": (
            "with counts only, not with presence features",
            "only on word counts; never on 0/1 presence"),
    },
    "10-top-features": {
        "where the corpus came from (mailing-list footers), not what spam says": (
            "the corpus' sources (mailing-list footers), not the content of spam",
            "how the e-mails were collected (list footers), not what spam is about"),
        "the vocabulary of spam itself, which would carry over to any inbox it filters": (
            "spam's own vocabulary, which would transfer to any inbox it filters",
            "what spam itself says, so they would work in any inbox"),
        "stop words that the tokenizer should have removed before fitting": (
            "stop words the tokenizer ought to have dropped before fitting",
            "common stop words that should have been removed before the fit"),
        "random noise: with 300 features some weights are large by chance": (
            "chance: among 300 features a few weights are large at random",
            "noise: with 300 weights some come out large by chance"),
    },
}


def _wording(choice, d: Draw) -> tuple[str, ...] | None:
    """One wording per option of ``choice`` (in its own order), drawn from ``d``; None when the
    course has no other wording for it."""
    table = WORDINGS.get(getattr(choice, "id", None) or "")
    if not table:
        return None
    return tuple(d.choice((text, *table.get(text, ()))) for text in choice.options)


# -- building the questions --------------------------------------------------------------------------

# A setup is a pure function of its code. Kept for every variant a process meets: an entry is a
# few kB (a03's 75 variants of 60 students: no measurable memory), while a miss reruns a setup
# that can take seconds (a10's sweep ~7 s, a04's curves ~0.9 s) -- with 16 entries, a test run
# that met a03's variants evicted a10's setup and ran it again in every test that asked for it.
@functools.lru_cache(maxsize=1024)
def _setup_namespace(name: str, code: str) -> dict:
    namespace: dict = {"__name__": f"course_setup_{name}"}
    exec(compile(code, f"<setup of {name}>", "exec"), namespace)  # noqa: S102 (our own specs)
    return namespace


def setup_namespace(assignment: Assignment, params: dict | None = None) -> dict:
    """Run the assignment's setup (as the released notebook does) with a variant's values (the
    notebook's by default) and return its namespace (a copy: the same setup is run once)."""
    return dict(_setup_namespace(assignment.name, assignment.setup_code(params)))


def build_exercises(assignment: Assignment, params: dict | None = None) -> list:
    """The assignment's Exercises, built by the notebook's own calls on the notebook's data (or
    on a variant's: ``params``), options in the notebook's order."""
    namespace = setup_namespace(assignment, params)
    namespace["exercises"] = assignment.module()
    return [eval(assignment.call_code(q, params), namespace)  # noqa: S307 (our own specs)
            for q in assignment.questions]


#: How many redraws a variant may take before the assignment's draw is declared broken.
MAX_ATTEMPTS = 200


@functools.lru_cache(maxsize=16)
def _self_study_answers(name: str) -> tuple:
    return tuple(None if is_choice(ex) else reference(ex)
                 for ex in build_exercises(ASSIGNMENTS[name]))


def _self_study_transfers(assignment: Assignment, exercises) -> bool:
    """Would the self-study notebook's answer be right for one of these numeric questions?
    (A word or a label may coincide: there are only a few; a number may not.)"""
    import numpy as np

    for ex, own in zip(exercises, _self_study_answers(assignment.name)):
        if own is None or isinstance(own, str) or (
                isinstance(own, (list, tuple)) and own and isinstance(own[0], str)):
            continue
        if np.shape(own) == np.shape(ex._answer) and ex.check(own).correct:
            return True
    return False


#: A number as it can stand in a released notebook's text (code or prose).
_NUMBER = re.compile(r"-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?")


def _release_gives_away(assignment: Assignment, var: Variant, exercises) -> bool:
    """Would a number printed in this variant's released notebook pass one of its numeric
    questions? (A parameter or a sentence of the notebook can coincide with a student's answer
    within the checker's tolerance; the release must hold no passing value, so such a draw is
    taken again.)"""
    import json

    text = json.dumps([c.source for c in notebook(assignment, var, exercises).cells])
    numbers = {float(t) for t in _NUMBER.findall(text)}
    import numpy as np

    printed = np.array(sorted(numbers) or [np.nan])
    for ex in exercises:
        ref = reference(ex)
        if is_choice(ex) or isinstance(ref, (bool, str)):
            continue
        try:
            values = np.ravel(np.asarray(ref, dtype=float))
        except (TypeError, ValueError):  # labels, text
            continue
        for r in filter(_distinctive, values):
            # an element of the answer printed in the release, at the checker's tolerance
            if np.any(np.abs(printed - r) <= ex.atol + ex.rtol * abs(r)):
                return True
    return False


def _distinctive(value: float) -> bool:
    """A value whose appearance in a text would give an answer away: finite, not an integer,
    three or more significant digits (0.5, 4 or 71 stand in prompts and data by themselves)."""
    if not math.isfinite(value) or value == round(value):
        return False
    return len(f"{abs(value):.10g}".split("e")[0].replace(".", "").strip("0")) >= 3


def variant(assignment: Assignment, student: str | None, secret: bytes | None):
    """(Variant, exercises) of ``student``: the values drawn from the student id and the course
    secret, the questions built on them, each multiple-choice question's options shuffled (and,
    where the course has other wordings of them, :data:`WORDINGS`, worded per student). A
    draw is taken again when a question would be ambiguous (``accept``), cannot be built, has a
    numeric answer that the self-study notebook's answer would pass, or has one that a number
    printed in the student's own release would pass.
    ``student=None`` is the notebook's own variant (the self-study data, options in order)."""
    if student is None:
        return Variant(assignment.name, None, dict(assignment.defaults), {}), \
            build_exercises(assignment)
    last = None
    for attempt in range(MAX_ATTEMPTS):
        d = Draw(seed(secret, assignment.name, student, attempt))
        params = {**assignment.defaults, **(assignment.draw(d) if assignment.draw else {})}
        if params == assignment.defaults and assignment.draw:
            continue
        try:
            if assignment.accept and not assignment.accept(params):
                continue
            exercises = build_exercises(assignment, params)
        except (ValueError, ZeroDivisionError, ArithmeticError) as err:
            last = err
            continue
        if _self_study_transfers(assignment, exercises):
            continue
        orders, wordings = {}, {}
        words = Draw(seed(secret, assignment.name, student, attempt, stream="wording"))
        for i, ex in enumerate(exercises):
            if is_choice(ex):
                orders[i] = d.permutation(len(ex.options))
                texts = _wording(ex, words)
                if texts is not None:
                    wordings[i] = texts
                exercises[i] = permute_choice(ex, orders[i], texts)
        var = Variant(assignment.name, student, params, orders, attempt, wordings)
        if _release_gives_away(assignment, var, exercises):
            continue
        return var, exercises
    raise RuntimeError(f"{assignment.name}: no valid variant for {student!r} in {MAX_ATTEMPTS} "
                       "draws: the assignment's draw or accept is broken") from last

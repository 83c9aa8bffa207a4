"""What each graded assignment asks: one spec per topic notebook (01-09).

An assignment is the topic notebook's exercises, graded. Its spec says

- ``setup``: the lines of the notebook that make the exercises' data (copied statement for
  statement from the notebook: ``tests/test_grading.py`` checks that every non-import statement
  and every builder call below occurs in the notebook itself, so the graded question is asked on
  the same data the self-check box uses; a ``progress=`` callback is the one argument a setup
  line may drop: it draws a progress bar and changes no data);
- ``questions``: calls of the notebook's ``genviz.exercises`` builders (the same calls, written
  as in the notebook with the module named ``exercises``), each a graded question; the
  Exercise's prompt is the question, its answer (computed when the assignment is built) the
  hidden test's reference, its tolerance the hidden test's tolerance and its hint the feedback.
  A multiple-choice item (:class:`genviz.exercises.choice.Choice`, kind ``"concept"``) is
  graded too: the student answers with an option's letter and the hidden test is the Choice's
  own check (a guessable item, so it is worth 1 point);
- ``working``: the questions whose worked solution is a derivation: the student writes the
  working in a manually graded cell (the Exercise's worked solution is the grader's reference,
  kept in the source notebook only);
- ``left_out``: the notebook's self-check items (``answer_box``/``choice_box`` calls) that the
  assignment does not ask, each with the reason (a test checks that every such item of the
  notebook is either asked or listed here, so a new exercise in a notebook is not silently
  forgotten).

Left out on purpose: the *explorer* items (kind ``"explorer"``: answered by setting the
notebook's interactive explorer and reading its readout; the graded notebook has no explorer,
and its prompt would send the student to one) and the *predictions* (``prediction_box``: asked
before an explorer shows the answer, a commitment rather than an answer to grade).
"""

from __future__ import annotations

import dataclasses
import importlib


@dataclasses.dataclass(frozen=True)
class Question:
    """One auto-graded question: a builder call (``exercises.name(...)``) evaluated in the setup's
    namespace, its points, and a note naming the variables that hold its data."""

    call: str
    points: int = 2
    note: str = ""


@dataclasses.dataclass(frozen=True)
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

    def module(self):
        """The ``genviz.exercises`` module whose builders the questions call."""
        return importlib.import_module(self.exercises)


#: Why an explorer item of a notebook is not graded.
EXPLORER = ("explorer item: answered by reading the notebook's interactive explorer, which the "
            "graded notebook does not have")

#: Why a practice item added by issue #30 is not graded (yet): the graded variants of the new
#: kinds are the grading update's to decide (an investigation, like an explorer item, needs the
#: explorer; a derivation is a choice whose worked derivation is the point; a retrieval item
#: checks an earlier notebook's objective, graded in that notebook's assignment).
INVESTIGATION = ("investigation: answered by searching with the notebook's explorer, which the "
                 "graded notebook does not have")
DERIVATION = ("derivation (#30): a choice of a derivation's step or result, its worked "
              "derivation behind the solution button; not graded until the grading update "
              "decides how derivations are graded")
RETRIEVAL = ("retrieval (#30): it checks an earlier notebook's objective, which that notebook's "
             "assignment grades")

ASSIGNMENTS: dict[str, Assignment] = {}


def _add(a: Assignment) -> None:
    ASSIGNMENTS[a.name] = a


def _choice(call: str, note: str = "") -> Question:
    return Question(call, points=1, note=note)


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
    [0.01, 0.08, 0.01, 0.09,       # alarm:    theft & eq, theft & no eq, no theft & eq, no theft & no eq
     0.001, 0.009, 0.01, 0.79])    # no alarm: the same four
cars = auto_mpg()
names = cars.record_names[:3]
values = {k: cars.record_values[k] for k in names}
records = cars.records[:, :3]
order = np.random.default_rng(4).permutation(len(records))
train, test = records[order[:196]], records[order[196:]]
model = JointTable.from_records(train, names, values)
''',
    questions=(
        Question('exercises.marginal_probability(alarm, {"Earthquake": "no earthquake"})',
                 note="The joint table is `alarm`."),
        Question('exercises.posterior_by_bayes(alarm, {"Earthquake": "earthquake"}, '
                 '{"Alarm": "alarm"})', note="The joint table is `alarm`."),
        Question('exercises.parameter_count({"mpg": 2, "maker": 3, "cylinders": 5, '
                 '"horsepower": 2})'),
        Question("exercises.dataset_log_likelihood(model, test[:3])",
                 note="The table is `model`, the records are `test[:3]`."),
        _choice("exercises.independence_concept()"),
    ),
    working=(2,),
    left_out=(("exercises.explorer_empty_fraction(cars.records, cars.record_names, d=4, n=150)",
               EXPLORER),
              ("exercises.fewest_records_to_fill(cars.records, cars.record_names, d=4, filled=25)",
               INVESTIGATION),
              ("exercises.training_log_likelihood_derivation(train, names, values)", DERIVATION)),
))

_add(Assignment(
    name="a02_gaussian", notebook="02_multivariate_gaussian.ipynb",
    title="The multivariate Gaussian", exercises="genviz.exercises.gaussian",
    setup="import numpy as np\n",
    questions=(
        Question("exercises.covariance_entries(2.0, 0.5, -0.3)",
                 note="Give a nested list or a NumPy array."),
        Question("exercises.peak_height(2.0, 0.5, -0.3)"),
        Question("exercises.major_axis_angle([[2, -0.6], [-0.6, 1]])"),
        Question("exercises.mass_inside(1.5)"),
        _choice("exercises.valid_covariance([[1, 2], [2, 1]])"),
    ),
    working=(2,),
    left_out=(("exercises.explorer_peak_height(1.5, 0.8, 0.9)", EXPLORER),
              ("exercises.rho_for_peak_ratio(1.5)", INVESTIGATION),
              ("exercises.peak_formula_derivation()", DERIVATION),
              ("exercises.uncorrelated_gaussian_independence(0.0)", RETRIEVAL)),
))

_add(Assignment(
    name="a03_gda", notebook="03_gaussian_discriminant_analysis.ipynb",
    title="Gaussian discriminant analysis", exercises="genviz.exercises.gda",
    setup='''\
import numpy as np

X_ex = np.array([[0, 1], [1, 0], [2, 2], [4, 3], [5, 5], [6, 4]], dtype=float)
y_ex = np.array([0, 0, 1, 1, 1, 0])
''',
    questions=(
        Question("exercises.phi_by_hand(X_ex, y_ex)", note="The training set is `X_ex`, `y_ex`."),
        Question("exercises.mean_by_hand(X_ex, y_ex, 1)", note="The training set is `X_ex`, `y_ex`."),
        Question("exercises.sigma_by_hand(X_ex, y_ex)", note="The training set is `X_ex`, `y_ex`."),
        Question("exercises.boundary_point(X_ex, y_ex, 3.0)",
                 note="The training set is `X_ex`, `y_ex`."),
        _choice("exercises.duplicated_data_concept(X_ex, y_ex)",
                note="The training set is `X_ex`, `y_ex`."),
    ),
    working=(3,),
    left_out=(("exercises.explorer_true_theta0(0.2, mu0=(-1.0, -0.5), mu1=(1.5, 1.0), "
               "sigma1=1.0, sigma2=0.8, rho=0.4)", EXPLORER),
              ("exercises.phi_for_boundary_through_origin(mu0=(-1.0, -0.5), mu1=(1.5, 1.0), "
               "sigma1=1.0, sigma2=0.8, rho=0.4)", INVESTIGATION),
              ("exercises.qda_quadratic_term([[1, 0.5], [0.5, 0.6]], [[2, -0.5], [-0.5, 1]])",
               DERIVATION),
              ("exercises.shared_sigma_same_peak(X_ex, y_ex)", RETRIEVAL)),
))

_add(Assignment(
    name="a04_gda_vs_logistic", notebook="04_gda_vs_logistic_regression.ipynb",
    title="GDA and logistic regression", exercises="genviz.exercises.gda",
    # the Poisson learning curves take ~1.5 s (60 repetitions x 10 sizes): cheap enough for
    # every graded kernel; the Gaussian curves are not needed by any question
    setup='''\
import numpy as np

from genviz.experiments import learning_curves
from genviz.synthetic import DataModel

SIZES = [10, 20, 30, 50, 100, 200, 500, 1000, 2000, 5000]
poisson = DataModel("poisson", mu0=[-1.0, 0.0], mu1=[2.0, 1.0], cov=np.eye(2))
curves_pois = learning_curves(poisson, SIZES, n_reps=60, rng=1)
''',
    questions=(
        Question("exercises.theta_from_params(0.5, [0, 0], [2, 0], [[1, 0.5], [0.5, 1]])"),
        Question("exercises.theta0_from_params(0.25, [0, 0], [2, 0], [[1, 0.5], [0.5, 1]])",
                 note="Here phi = 0.25 (the other parameters as in the question before)."),
        Question("exercises.poisson_theta(poisson.rates[0], poisson.rates[1])",
                 note="The rates are `poisson.rates[0]` and `poisson.rates[1]`."),
        Question("exercises.better_learner(curves_pois, 1000)",
                 note="The learning curves of the Poisson counts are `curves_pois` "
                      "(`curves_pois.sizes`; `curves_pois.gda_errors` and "
                      "`curves_pois.lr_errors`: one row per repetition, one column per size)."),
        _choice("exercises.poisson_bias_concept(curves_pois)",
                note="The learning curves are `curves_pois` (see the question before)."),
    ),
    working=(3,),
    left_out=(("exercises.explorer_bayes_error(0.3, sigma1=1.5, sigma2=1.5)", EXPLORER),
              ("exercises.sigma_for_separable_sample(100)", INVESTIGATION),
              ("exercises.newton_hessian_derivation([[0.0, 1.0], [1.0, 0.5], [2.0, 2.5], "
               "[3.0, 1.0]], [0, 1, 0, 1])", DERIVATION),
              ("exercises.midpoint_boundary([0.0, 0.0], [1.5, 0.0], [[1.0, 0.8], [0.8, 1.0]])",
               RETRIEVAL)),
))

_add(Assignment(
    name="a05_density", notebook="05_density_estimation.ipynb",
    title="Density estimation", exercises="genviz.exercises.kde",
    setup='''\
import numpy as np

from genviz.kde import sample_claw

rng = np.random.default_rng(0)
x = sample_claw(1000, rng)     # the slides' n = 1,000 draws
five = np.array([-1.0, -0.2, 0.1, 0.3, 1.4])
''',
    questions=(
        Question('exercises.kde_by_hand(five, 0.0, 1.0, "box")', note="The data are `five`."),
        Question("exercises.histogram_height(five, 1.0, 0.0, 0.2)", note="The data are `five`."),
        Question("exercises.silverman_bandwidth(x[:200])", note="The sample is `x[:200]`."),
        _choice("exercises.more_smoothing_with_fewer_points()"),
    ),
    working=(1,),
    left_out=(("exercises.cv_bandwidth_in_explorer(300)", EXPLORER),
              ("exercises.ise_optimal_bandwidth(1000)", INVESTIGATION),
              ("exercises.lscv_leave_one_out_derivation()", DERIVATION),
              ("exercises.empty_histogram_bins(1000, 10)", RETRIEVAL)),
))

_add(Assignment(
    name="a06_naive_bayes", notebook="06_naive_bayes_by_counting.ipynb",
    title="Naive Bayes by counting", exercises="genviz.exercises.naive_bayes",
    setup='''\
from genviz import datasets

tennis = datasets.play_tennis()
''',
    questions=(
        Question('exercises.conditional_by_counting(tennis.X, tennis.y, tennis.feature_names, '
                 '"Temperature", "Mild", "Yes")', note="The table is `tennis` (PlayTennis)."),
        Question('exercises.conditional_by_counting(tennis.X, tennis.y, tennis.feature_names, '
                 '"Temperature", "Mild", "Yes", alpha=1)',
                 note="The table is `tennis` (PlayTennis)."),
        Question('exercises.decision_of_query(tennis.X, tennis.y, tennis.feature_names, '
                 '["Overcast", "Hot", "High", "Weak"])', note="The table is `tennis` (PlayTennis)."),
        _choice("exercises.smoothing_can_flip(tennis.X, tennis.y, tennis.feature_names)",
                note="The table is `tennis` (PlayTennis)."),
    ),
    working=(3,),
    left_out=(("exercises.posterior_in_query_builder(tennis.X, tennis.y, tennis.feature_names, "
               "['Sunny', 'Mild', 'Normal', 'Weak'], 'Yes', alpha=1.0)", EXPLORER),
              ("exercises.alpha_for_posterior(tennis.X, tennis.y, tennis.feature_names, "
               "['Overcast', 'Cool', 'High', 'Strong'], 'No', 0.2)", INVESTIGATION),
              ("exercises.logsumexp_shift_derivation()", DERIVATION),
              ("exercises.full_joint_of_a_small_table(tennis.X, tennis.y)", RETRIEVAL)),
))

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
        Question('exercises.laplace_phi(X_train, y_train, vocab, word="click", label="spam")',
                 note="Use `X_train`, `y_train` and `vocab`."),
        Question("exercises.smola_offset(y_train, c=1000.0)", note="Use `y_train`."),
        Question('exercises.email_log_odds(multi, vocab, "Cheap mortgage rates: reply today, the '
                 'offer ends soon")', note="The model is `multi`, the vocabulary `vocab`."),
        _choice("exercises.doubled_email(multi, vocab, email_text)",
                note="The model is `multi`, the vocabulary `vocab`, the email `email_text`."),
    ),
    working=(2,),
    left_out=(("exercises.flagged_ham_in_explorer(multi, X_test, y_test, log10_c=3.0)",
               EXPLORER),
              ("exercises.log10_c_for_flagged_ham(multi, X_test, y_test, 10)", INVESTIGATION),
              ("exercises.bernoulli_weight_derivation(bern)", DERIVATION),
              ("exercises.generative_or_discriminative()", RETRIEVAL)),
))

_add(Assignment(
    name="a08_continuous", notebook="08_naive_bayes_continuous.ipynb",
    title="Naive Bayes with continuous features", exercises="genviz.exercises.naive_bayes",
    setup='''\
import numpy as np

from genviz import datasets

penguins = datasets.penguins()
flipper = penguins.X[:, 2]
rng = np.random.default_rng(7)

def two_classes(n):
    one = rng.normal(0.0, 1.0, n)
    two = np.concatenate([rng.normal(-3.0, 0.6, n // 2), rng.normal(3.0, 0.6, n - n // 2)])
    return np.concatenate([one, two]), np.repeat(["one", "two"], n)

x_train, y_train = two_classes(150)
''',
    questions=(
        Question("exercises.living_area_bin(1600)"),
        Question('exercises.gaussian_nb_parameters(x_train, y_train, "two")',
                 note="The feature is `x_train`, the labels `y_train` (the KDE naive Bayes "
                      "section\'s training set)."),
        Question("exercises.parameter_count(4, 3)"),
        _choice("exercises.duplicated_feature(flipper, penguins.y)",
                note="The feature is `flipper` (flipper length, mm), the labels `penguins.y`."),
    ),
    working=(3,),
    left_out=(("exercises.accuracy_in_nb_vs_gda_explorer(0.6)", EXPLORER),
              ("exercises.rho_for_gda_advantage(0.10)", INVESTIGATION),
              ("exercises.gaussian_nb_as_gaussian_derivation()", DERIVATION),
              ('exercises.silverman_on_two_modes(x_train, y_train, "two")', RETRIEVAL)),
))

_add(Assignment(
    name="a09_knn", notebook="09_nearest_neighbors.ipynb",
    title="Nearest neighbours", exercises="genviz.exercises.knn",
    setup='''\
import numpy as np

from genviz.synthetic import regression_data, two_class_data

X, y = two_class_data(200, rng=0)          # training set: two classes, each a mix of blobs
X_small = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [3.0, 3.0], [2.5, 2.0]])
y_small = np.array(["red", "blue", "blue", "red", "red"])
x_r, y_r = regression_data(100, rng=0)
''',
    questions=(
        Question("exercises.majority_vote(X_small, y_small, [0.4, 0.5], k=3)",
                 note="The points are `X_small`, their labels `y_small`."),
        Question("exercises.knn_regression_value(x_r, y_r, 5.0, k=7)",
                 note="The data are `x_r`, `y_r`."),
        Question("exercises.jl_dimension(1797, 0.2)"),
        Question("exercises.distance_computations(1400, 397, 64, 16)"),
        _choice("exercises.k_equals_m(X, y)", note="The training set is `X`, `y`."),
    ),
    working=(3,),
    left_out=(("exercises.accuracy_in_knn_explorer(X, y, X_test, y_test, k=1, noise=0.25)",
               EXPLORER),
              ("exercises.dimension_for_spread(X_digits[:300], 0.1)", INVESTIGATION),
              ("exercises.knn_average_variance_derivation(k=7, sigma=0.3)", DERIVATION),
              ("exercises.k_like_a_bandwidth(x_r, y_r)", RETRIEVAL)),
))


def setup_namespace(assignment: Assignment) -> dict:
    """Run the assignment's setup (as the released notebook does) and return its namespace."""
    namespace: dict = {"__name__": f"course_setup_{assignment.name}"}
    exec(compile(assignment.setup, f"<setup of {assignment.name}>", "exec"), namespace)
    return namespace


def build_exercises(assignment: Assignment) -> list:
    """The assignment's Exercises, built by the notebook's own calls on the notebook's data."""
    namespace = setup_namespace(assignment)
    namespace["exercises"] = assignment.module()
    return [eval(q.call, namespace) for q in assignment.questions]  # noqa: S307 (our own specs)

"""The course's notebooks, one declaration each: what a topic is made of (issue #41, item 1).

A :class:`Topic` names everything about one topic notebook that another file lists: the
notebook, its title and one-line summaries, its explorers, its benchmark cases, the sections the
start-here map points at (or that it goes beyond the notes), its graded assignment or the reason
it is not graded, how many objectives it lists and the kinds of practice it asks. ``TOPICS`` holds
them in reading order and ``START`` the start-here notebook.

Generated from it (``python scripts/topics.py --write``; ``tests/test_topics.py`` fails while a
file is stale): README.md's notebook table, the "Notebooks" toctree of docs/index.md, and in
``notebooks/00_start_here.ipynb`` the reading order, the map's stated item counts and the stored
output of the cell that lists the topic notebooks. Checked against it (``tests/test_topics.py``,
each failure naming the step of ARCHITECTURE.md "How to add a topic" and the file to edit): the
files in ``notebooks/``, the explorer factories of ``genviz.widgets`` and the notebooks' calls of
them, the explorer cases of ``tests/explorer_testing.py``, the benchmark cases and the rows of
``benchmarks/results.md``, ``course.assignments.ASSIGNMENTS`` and ``UNGRADED``, the map's rows,
the objectives each notebook lists and the practice kinds its items have.

Plain data (strings and numbers): it imports nothing of genviz, so every layer, the course, the
scripts, the benchmarks and the tests can read it.

>>> [t.number for t in TOPICS][:3]
[1, 2, 3]
>>> TOPICS[4].notebook, TOPICS[4].objective_ids
('05_density_estimation', ('05.1', '05.2', '05.3', '05.4'))
>>> next_number() == TOPICS[-1].number + 1  # the number a new topic takes
True
"""

from __future__ import annotations

import dataclasses

__all__ = ["Topic", "START", "TOPICS", "BEYOND_THE_NOTES", "PRACTICE", "REQUIRED_PRACTICE",
           "all_notebooks", "by_notebook", "next_number"]

#: ``Topic.notes`` of a topic that reproduces no item of the lecture notes (the map then lists it
#: as beyond the notes instead of requiring a row)
BEYOND_THE_NOTES = "beyond the notes"

#: the practice kinds a topic declares: the exercise kinds of ``genviz.exercises.PRACTICE_KINDS``
#: that tests/test_practice.py counts, and ``"retrieval"`` (an item naming an earlier notebook's
#: objective)
PRACTICE = ("compute", "investigation", "derivation", "open", "concept", "explorer", "retrieval")

#: the kinds every topic asks (tests/test_practice.py, rule (c)); retrieval from notebook 02 on
REQUIRED_PRACTICE = ("compute", "investigation", "derivation", "open")

_ALL_KINDS = ("compute", "investigation", "derivation", "open", "retrieval")


@dataclasses.dataclass(frozen=True)
class Topic:
    """One notebook of the course.

    Parameters
    ----------
    notebook : str
        The file's stem in ``notebooks/``, ``NN_name`` (numbered next, without gaps).
    title : str
        Its title in the start-here reading order.
    summary : str
        What it covers, for README.md's notebook table.
    learn : str
        "What you learn", for the start-here reading order.
    explorers : tuple of str
        The ``genviz.widgets`` factories (``@explorer_factory``) it introduces; each factory
        belongs to one topic.
    benchmarks : tuple of str
        The names of its explorer cases in ``benchmarks/bench_*.py`` (``CASES``), which are also
        the first cells of their rows in ``benchmarks/results.md``.
    notes : tuple of str or BEYOND_THE_NOTES
        The sections of the notebook that rows of the start-here map point at, or
        :data:`BEYOND_THE_NOTES`.
    assignment : str or None
        The key of its graded assignment in ``course.assignments.ASSIGNMENTS``; None with
        ``ungraded`` set for a notebook the course does not grade.
    ungraded : str
        Why it is not graded, at least 12 words a reader can weigh (``course.assignments.UNGRADED``
        is built from it).
    objectives : int
        How many objectives its "You will be able to" list has (ids ``NN.1`` ... ``NN.k``).
    practice : tuple of str
        The kinds of its practice items (see :data:`PRACTICE`).
    """

    notebook: str
    title: str
    summary: str
    learn: str = ""
    explorers: tuple[str, ...] = ()
    benchmarks: tuple[str, ...] = ()
    notes: tuple[str, ...] | str = ()
    assignment: str | None = None
    ungraded: str = ""
    objectives: int = 0
    practice: tuple[str, ...] = _ALL_KINDS

    @property
    def number(self) -> int:
        """The notebook's number (its first two digits)."""
        return int(self.notebook[:2])

    @property
    def file(self) -> str:
        """The notebook's file name in ``notebooks/``."""
        return f"{self.notebook}.ipynb"

    @property
    def objective_ids(self) -> tuple[str, ...]:
        """The ids a practice item names its objective by (``objective="05.3"``)."""
        return tuple(f"{self.number:02d}.{k}" for k in range(1, self.objectives + 1))


START = Topic(
    "00_start_here", "Start here",
    "the course, the reading order, and a map of every figure of the lecture notes")

TOPICS: tuple[Topic, ...] = (
    Topic(
        "01_probability_and_joint_tables", "Probability and joint tables",
        "Bayes' rule, joint tables, learning a joint, the curse of dimensionality",
        "Bayes' rule, marginals and conditionals from a joint table, learning a joint from "
        "records, why big joint tables over-fit",
        explorers=("dimensionality_explorer",),
        benchmarks=("dimensionality_explorer (d, n)",),
        notes=("Conditioning and Bayes' rule", "Independence", "Russell & Norvig's alarm domain",
               "Prior (marginal) probabilities", "The recipe for a joint distribution: A, B, C",
               "Learning a joint distribution from records",
               "The slides' example: the UCI Adult census", "Learning one ourselves: Auto MPG",
               "How likely is the data set?", "The curse of dimensionality"),
        assignment="a01_joint", objectives=4,
        practice=("compute", "investigation", "derivation", "open")),
    Topic(
        "02_multivariate_gaussian", "The multivariate Gaussian",
        "the multivariate normal: every Gaussian figure of the CS229 notes",
        r"how $\mu$ and $\Sigma$ shape the density; eigenvectors, contours and samples",
        explorers=("gaussian_explorer",),
        benchmarks=("gaussian_explorer (surface + contours)", "gaussian_explorer(surface=False)"),
        notes=("2 · The multivariate Gaussian",
               r"Scaling the covariance: $\Sigma = I,\ 0.6I,\ 2I$",
               "Correlation: off-diagonal entries 0, 0.5, 0.8",
               "Negative correlation and unequal variances",
               r"Moving the mean: $\mu = (1, 0),\ (-0.5, 0),\ (-1, -1.5)$ with $\Sigma = I$",
               "Mean and covariance of samples"),
        assignment="a02_gaussian", objectives=5),
    Topic(
        "03_gaussian_discriminant_analysis", "Gaussian discriminant analysis",
        "GDA fitted by hand; its posterior is a sigmoid; shared vs separate Σ",
        "the first generative classifier, fitted by hand; its posterior is a sigmoid",
        explorers=("gda_fit_explorer",),
        notes=("Bayes' rule with two Gaussian classes", "Fitting GDA by hand",
               "Explore: fit GDA to a sample you control", "What the algorithm is doing",
               "The posterior is a sigmoid of a linear function"),
        assignment="a03_gda", objectives=4),
    Topic(
        "04_gda_vs_logistic_regression", "GDA vs logistic regression",
        "boundaries and learning curves: generative vs discriminative",
        "generative vs discriminative: who wins with little data, who wins when the model is "
        "wrong",
        explorers=("gda_vs_logistic_explorer",),
        benchmarks=("gda_vs_logistic_explorer (gaussian)",
                    "gda_vs_logistic_explorer (outliers, quadric Bayes boundary)"),
        notes=("Learning curves: which learner needs less data?",
               "Explore: boundaries and test errors"),
        assignment="a04_gda_vs_logistic", objectives=4),
    Topic(
        "05_density_estimation", "Density estimation",
        "histograms, kernels, KDE, bandwidth by cross-validation (claw, n = 1000)",
        "histograms, kernels, KDE, choosing the bandwidth by cross-validation",
        explorers=("histogram_explorer", "kde_explorer", "bandwidth_explorer", "kde2d_explorer"),
        benchmarks=("histogram_explorer (width, origin)", "kde_explorer (h, kernel; 20 bumps)",
                    "bandwidth_explorer (h moves; n=1000)",
                    "bandwidth_explorer (n moves: resample + both CV sweeps)",
                    "kde2d_explorer (auto mpg weight vs mpg)"),
        notes=("5 · Density estimation: histograms, kernels, KDE and bandwidth selection",
               "Histograms", "Kernels", "The kernel density estimate: a sum of scaled bumps",
               "The slides' four panels", "Bandwidth selection",
               "Comparing density estimators on a test set"),
        assignment="a05_density", objectives=4),
    Topic(
        "06_naive_bayes_by_counting", "Naive Bayes by counting",
        "EnjoySport and PlayTennis by counting, Laplace smoothing, log space",
        "the naive Bayes assumption, counting, Laplace smoothing, log space",
        explorers=("categorical_nb_explorer",),
        benchmarks=("categorical_nb_explorer (PlayTennis, 4 tables + posterior)",),
        notes=("Laplace smoothing", "EnjoySport: training by counting",
               r"Classifying a new day, and the normaliser $\alpha$"),
        assignment="a06_naive_bayes", objectives=4),
    Topic(
        "07_naive_bayes_spam_filter", "A spam filter",
        "Bernoulli vs multinomial on the SpamAssassin corpus, threshold c",
        "Bernoulli vs multinomial event models on the SpamAssassin e-mails; the decision "
        "threshold",
        explorers=("threshold_explorer", "email_explorer"),
        benchmarks=("spam threshold_explorer (move c)",
                    "spam email_explorer (type text, switch model)"),
        notes=("Why naive? The parameter count and the assumption",
               "The three maximum-likelihood estimates, and the prediction",
               'The Bernoulli event model and the "neurips" problem',
               "Two stories of how an email is written",
               "The multinomial event model — a linear classifier",
               "Bernoulli vs multinomial on the same split",
               "The dictionary and the feature vectors",
               "Counts instead of sequences: the multinomial coefficient",
               "Smola's threshold $c$", "Algorithm 1.1 line by line",
               "Products underflow; sums of logs do not"),
        assignment="a07_spam", objectives=4),
    Topic(
        "08_naive_bayes_continuous", "Continuous features",
        "discretising, Gaussian and KDE naive Bayes vs GDA, penguins",
        "discretising, Gaussian and KDE naive Bayes, naive Bayes vs GDA",
        explorers=("discretize_explorer", "nb_vs_gda_explorer", "kde_nb_explorer"),
        benchmarks=("discretize_explorer (penguin flipper length)", "nb_vs_gda_explorer",
                    "kde_nb_explorer (300 points)"),
        notes=("Discretising: the living-area bins", "Gaussian naive Bayes",
               "KDE naive Bayes: multimodal class densities",
               "A multivariate KDE per class: no independence assumption",
               "Gaussian naive Bayes vs GDA on two features"),
        assignment="a08_continuous", objectives=4),
    Topic(
        "09_nearest_neighbors", "Nearest neighbours",
        "k-NN, label noise, regression, random projections on digits",
        "k-NN, label noise, regression, random projections",
        explorers=("knn_classification_explorer", "knn_regression_explorer",
                   "projection_explorer"),
        benchmarks=("knn_classification_explorer (k, noise, query)",
                    "knn_regression_explorer (k)",
                    "knn projection_explorer (digits, 300 points: d, eps)"),
        notes=("Algorithm 1.2 in six lines", "Figure 1.17: one nearest neighbour, three classes",
               "Figure 1.18 live: label noise and the majority vote",
               "Figure 1.19: k-NN regression with 1 and 7 neighbours",
               "The cost of distances, and random projections", "Real data: handwritten digits"),
        assignment="a09_knn", objectives=4),
    Topic(
        "10_capstone_nb_vs_logistic", "Capstone: naive Bayes vs logistic regression",
        "capstone: naive Bayes vs logistic regression learning curves on the spam split "
        "(Ng & Jordan)",
        "Ng & Jordan's experiment on the spam split: who needs less data, who wins with more",
        explorers=("learning_curve_explorer", "vocabulary_curve_explorer"),
        benchmarks=("learning_curve_explorer (n; notebook 10's curves)",
                    "vocabulary_curve_explorer (d, features, λ, α, n)"),
        notes=("What the curves say",),
        assignment="a10_capstone", objectives=5),
)


def all_notebooks() -> tuple[Topic, ...]:
    """The start-here notebook and every topic, in reading order (the order of ``notebooks/``)."""
    return (START, *TOPICS)


def by_notebook(name: str) -> Topic:
    """The topic of a notebook, by stem or file name.

    >>> by_notebook("09_nearest_neighbors.ipynb").title
    'Nearest neighbours'
    """
    stem = name.removesuffix(".ipynb")
    for topic in all_notebooks():
        if topic.notebook == stem:
            return topic
    raise KeyError(f"no topic declares the notebook {name!r} (genviz/topics.py, TOPICS)")


def next_number() -> int:
    """The number the next topic notebook takes."""
    return len(TOPICS) + 1

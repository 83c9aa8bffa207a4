"""Deprecated: the experiments that fit models to generated data moved to :mod:`genviz.studies` (one module per painter module).

Every name that was here still resolves, with a ``DeprecationWarning`` naming its new home
(:mod:`genviz._moved`): a student's notebook pulled before the move keeps running. Import from
the new home.
"""

from genviz._moved import moved_names

__all__ = []

__getattr__ = moved_names(__name__, {
    "LearningCurves": "genviz.studies.gda_vs_logistic_curves",
    "learning_curves": "genviz.studies.gda_vs_logistic_curves",
    "crossing_size": "genviz.studies.gda_vs_logistic_curves",
    "NBvsGDA": "genviz.studies.naive_bayes_experiments",
    "nb_vs_gda": "genviz.studies.naive_bayes_experiments",
    "bin_edges": "genviz.studies.naive_bayes_experiments",
    "data_window": "genviz.studies.naive_bayes_experiments",
    "Discretization": "genviz.studies.naive_bayes_experiments",
    "discretization": "genviz.studies.naive_bayes_experiments",
})

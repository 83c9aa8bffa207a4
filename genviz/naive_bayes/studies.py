"""Deprecated: the naive Bayes and spam explorers' studies moved to :mod:`genviz.studies` (one module per painter module).

Every name that was here still resolves, with a ``DeprecationWarning`` naming its new home
(:mod:`genviz._moved`): a student's notebook pulled before the move keeps running. Import from
the new home.
"""

from genviz._moved import moved_names

__all__ = []

__getattr__ = moved_names(__name__, {
    "FitPath": "genviz.studies.naive_bayes_experiments",
    "KDEvsGaussianNB": "genviz.studies.naive_bayes_experiments",
    "TEXT_MODELS": "genviz.studies.spam",
    "ThresholdFit": "genviz.studies.spam",
    "ThresholdStudy": "genviz.studies.spam",
})

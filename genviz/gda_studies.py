"""Deprecated: the GDA explorers' studies moved to :mod:`genviz.studies` (one module per painter module).

Every name that was here still resolves, with a ``DeprecationWarning`` naming its new home
(:mod:`genviz._moved`): a student's notebook pulled before the move keeps running. Import from
the new home.
"""

from genviz._moved import moved_names

__all__ = []

__getattr__ = moved_names(__name__, {
    "GDAFit": "genviz.studies.gda_fits",
    "fit_gda_sample": "genviz.studies.gda_fits",
    "GDACovarianceFit": "genviz.studies.gda_fits",
    "gda_covariance_fits": "genviz.studies.gda_fits",
    "PosteriorTwoWays": "genviz.studies.gda_fits",
    "posterior_two_ways": "genviz.studies.gda_fits",
    "GDAvsLogisticTrial": "genviz.studies.gda_vs_logistic",
    "gda_vs_logistic_trial": "genviz.studies.gda_vs_logistic",
})

"""Deprecated: the explorers' seeded samplers moved to :mod:`genviz.studies` (one module per painter module).

Every name that was here still resolves, with a ``DeprecationWarning`` naming its new home
(:mod:`genviz._moved`): a student's notebook pulled before the move keeps running. Import from
the new home.
"""

from genviz._moved import moved_names

__all__ = []

__getattr__ = moved_names(__name__, {
    "LabelNoise": "genviz.studies.knn",
    "GDASample": "genviz.studies.gda_fits",
    "GDAFitSampler": "genviz.studies.gda_fits",
    "GaussianSample": "genviz.studies.gaussian",
    "gaussian_sample": "genviz.studies.gaussian",
    "random_order": "genviz.studies.joint",
})

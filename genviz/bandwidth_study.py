"""Deprecated: the bandwidth explorer's study moved to :mod:`genviz.studies` (one module per painter module).

Every name that was here still resolves, with a ``DeprecationWarning`` naming its new home
(:mod:`genviz._moved`): a student's notebook pulled before the move keeps running. Import from
the new home.
"""

from genviz._moved import moved_names

__all__ = []

__getattr__ = moved_names(__name__, {
    "BandwidthSweeps": "genviz.studies.kde_bandwidth",
    "BandwidthAt": "genviz.studies.kde_bandwidth",
    "BandwidthStudy": "genviz.studies.kde_bandwidth",
})

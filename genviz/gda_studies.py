"""Deprecated, removed in genviz 0.2.0 (:data:`genviz._moved.REMOVED_IN`): the GDA explorers' studies moved to
:mod:`genviz.studies`. The old names resolve with a ``DeprecationWarning`` naming their new home
(:data:`genviz._moved.MOVED`), so a student's notebook pulled before the move keeps running."""

from genviz._moved import moved_names

__all__ = []

__getattr__ = moved_names(__name__)

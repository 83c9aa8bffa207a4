"""Studies: what every figure shows, computed (model layer: numpy and scipy only).

One module per painter module, under the same name: :mod:`genviz.studies.gaussian` computes
what :mod:`genviz.plots.gaussian` draws, and so on. A live view ``XView`` is drawn from
``XStudy`` (its results ``XResult``, and ``XStatic`` for what is drawn once); a static figure
``x_figure`` from ``x_figure_study``; the building blocks they share (samplers, trials,
sweeps, fits along a hyperparameter) sit beside them. Every result is a
:class:`~genviz.studies._base.Result`: a frozen dataclass that also reads as a mapping.
"""

from genviz.studies._base import Result, Study

__all__ = ["Result", "Study"]

"""Deprecated aliases: names that moved to another module, still found at their old home.

Every alias is listed here, in :data:`MOVED` (old home -> {name: its module now}), and all of
them go in one release, :data:`REMOVED_IN`, which every warning names. A module whose names
moved out sets ``__getattr__ = moved_names(__name__)``.
The old spelling (``from genviz.knn import two_class_data``) then still works -- a student's
notebook pulled before the move keeps running, because nbgitpuller never overwrites a notebook
the student edited -- but warns with the new home, and the new home is imported only when an
old name is used: the old module does not import it, so no import cycle is possible.
"""

from __future__ import annotations

import importlib
import warnings

__all__ = ["moved_names"]

#: The release that removes every deprecated alias of :data:`MOVED` (and the five modules that
#: hold nothing else: genviz.experiments, gda_studies, samplers, bandwidth_study,
#: naive_bayes.studies).
REMOVED_IN = "0.2.0"

_NB08 = "genviz.studies.naive_bayes_experiments"
_CURVES = "genviz.studies.gda_vs_logistic_curves"
_FITS = "genviz.studies.gda_fits"

#: old home -> {name that moved out of it: its module now} (issues 15, 20, 32)
MOVED = {
    "genviz.knn": {
        **dict.fromkeys(["random_projection", "jl_min_dim", "distance_ratios",
                         "distortion_stats", "projection_benchmark"], "genviz.projections"),
        **dict.fromkeys(["two_class_data", "regression_data", "regression_truth",
                         "flip_labels"], "genviz.synthetic")},
    "genviz.text": dict.fromkeys(["stratified_split", "binary_metrics", "ThresholdCurves"],
                                 "genviz.model_selection"),
    "genviz.synthetic": dict.fromkeys(["LearningCurves", "learning_curves", "crossing_size"],
                                      _CURVES),
    "genviz.experiments": {
        **dict.fromkeys(["LearningCurves", "learning_curves", "crossing_size"], _CURVES),
        **dict.fromkeys(["NBvsGDA", "nb_vs_gda", "bin_edges", "data_window", "Discretization",
                         "discretization"], _NB08)},
    "genviz.gda_studies": {
        **dict.fromkeys(["GDAFit", "fit_gda_sample", "GDACovarianceFit", "gda_covariance_fits",
                         "PosteriorTwoWays", "posterior_two_ways"], _FITS),
        **dict.fromkeys(["GDAvsLogisticTrial", "gda_vs_logistic_trial"],
                        "genviz.studies.gda_vs_logistic")},
    "genviz.samplers": {"LabelNoise": "genviz.studies.knn", "GDASample": _FITS,
                        "GDAFitSampler": _FITS, "GaussianSample": "genviz.studies.gaussian",
                        "gaussian_sample": "genviz.studies.gaussian",
                        "random_order": "genviz.studies.joint"},
    "genviz.bandwidth_study": dict.fromkeys(["BandwidthSweeps", "BandwidthAt", "BandwidthStudy"],
                                            "genviz.studies.kde_bandwidth"),
    "genviz.naive_bayes.studies": {
        **dict.fromkeys(["FitPath", "KDEvsGaussianNB"], _NB08),
        **dict.fromkeys(["TEXT_MODELS", "ThresholdFit", "ThresholdStudy"], "genviz.studies.spam")},
    "genviz.naive_bayes": {"FitPath": _NB08, "KDEvsGaussianNB": _NB08,
                           "ThresholdStudy": "genviz.studies.spam"},
    "genviz.plots.gda": {"line_in_box": _FITS},
}


def moved_names(module: str, moved: dict | None = None):
    """A module ``__getattr__`` resolving each name of ``moved`` (name -> its module now; by
    default the module's entry of :data:`MOVED`).

    Examples
    --------
    >>> import warnings
    >>> getattr_ = moved_names("genviz.old", {"check_int": "genviz._validation"})
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     f = getattr_("check_int")
    >>> f.__module__, caught[0].category.__name__
    ('genviz._validation', 'DeprecationWarning')
    >>> str(caught[0].message)
    'genviz.old.check_int moved to genviz._validation; import it from there (the old name will be removed in genviz 0.2.0)'
    >>> getattr_("nothing")
    Traceback (most recent call last):
    ...
    AttributeError: module 'genviz.old' has no attribute 'nothing'
    """
    moved = dict(MOVED[module] if moved is None else moved)

    def __getattr__(name):
        if name not in moved:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        home = moved[name]
        warnings.warn(f"{module}.{name} moved to {home}; import it from there "
                      f"(the old name will be removed in genviz {REMOVED_IN})",
                      DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(home), name)

    __getattr__.moved = moved  # read by tests/test_project.py
    return __getattr__

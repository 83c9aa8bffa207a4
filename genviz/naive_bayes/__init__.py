"""Naive Bayes classifiers by counting, in log space (a package: one module per family).

Every model here scores a row ``x`` by the unnormalised joint log-probability
``log P(x, y=k) = log P(y=k) + sum_j log P(x_j | y=k)`` (:meth:`predict_joint_log_proba`),
then normalises with ``scipy.special.logsumexp`` (the slides' normalising constant, the
evidence ``P(x) = sum_k P(x, y=k)``) to get the posterior. The shared logic lives once in
:class:`_BaseNB`; each model only says how it counts (``fit``) and how it scores one feature.

- :class:`CategoricalNB`: features with named values ("Sunny"), count tables per class (the
  slides' EnjoySport walk-through and Mitchell's PlayTennis).
- :class:`GaussianNB`: one normal per feature and class (axis-aligned ellipses).
- :class:`KDENB`: one kernel density estimate (``genviz.kde``) per feature and class.
- :class:`MultinomialNB`, :class:`BernoulliNB`: the two text event models of CS229 (word counts
  / word presence), dense or ``scipy.sparse`` input, never densified; two-class extras
  (``decision_function``, Smola's threshold ``c``, the linear form, the most indicative words).

Laplace/Lidstone smoothing: ``alpha`` pseudo-counts are added to every count; ``alpha=0`` is the
maximum-likelihood estimate, where a value never seen with a class gets probability 0 (log-prob
``-inf``); a row that is impossible under every class has posterior 0/0 and raises a clear error.
"""

from genviz._moved import moved_names
from genviz._validation import NotFittedError
from genviz.naive_bayes._base import ClassDensities, _BaseNB  # noqa: F401 (subclassed elsewhere)
from genviz.naive_bayes.categorical import CategoricalNB, SmoothedTable, discretize
from genviz.naive_bayes.continuous import KDENB, GaussianNB
from genviz.naive_bayes.evaluation import leave_one_out_accuracy, leave_one_out_predict
from genviz.naive_bayes.text import BernoulliNB, MultinomialNB

__all__ = ["CategoricalNB", "GaussianNB", "KDENB", "MultinomialNB", "BernoulliNB",
           "NotFittedError", "leave_one_out_accuracy", "leave_one_out_predict", "discretize",
           "SmoothedTable", "ClassDensities"]

# deprecated aliases: the explorers' studies moved to genviz.studies (genviz._moved.MOVED),
# until genviz._moved.REMOVED_IN
__getattr__ = moved_names(__name__)

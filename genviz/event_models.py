"""CS229's argument for naive Bayes and its two event models for text, as numbers.

* :func:`parameter_counts` — the full joint over ``x in {0,1}^|V|`` against naive Bayes:
  ``2^|V| - 1`` parameters per class against ``2|V| + 1`` in all (CS229 part IV, §2).
* :func:`word_dependence` — conditional independence given ``y`` is not independence: the
  probability that word ``j`` occurs, alone, given word ``k``, given the class, and given both.
* :func:`binary_vector` and :func:`word_ids` — the notes' two representations of one email:
  ``x_j = 1{word j occurs}`` over a dictionary (Bernoulli event model) and ``x_j`` = the
  dictionary index of the ``j``-th word (multinomial event model, 1-based as in the notes).
* :func:`bernoulli_mle` — the three maximum-likelihood estimates ``phi_y``, ``phi_{j|y=1}``,
  ``phi_{j|y=0}`` by the notes' formulas, and :func:`bernoulli_posterior` — the notes'
  prediction formula ``p(y=1|x)`` written as a product over every dictionary word.
* :func:`multinomial_log_likelihood` — one document's log-likelihood under a multinomial event
  model, with or without the multinomial coefficient ``(sum_k n_k)! / prod_k n_k!`` (which is
  the same for every class, so it cancels in the posterior).

numpy + scipy only.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp
from scipy.special import gammaln, logsumexp

from genviz._validation import check_int, check_labels
from genviz.text import Vocabulary, tokenize

__all__ = ["parameter_counts", "word_dependence", "binary_vector", "word_ids", "bernoulli_mle",
           "bernoulli_posterior", "multinomial_log_likelihood"]


def parameter_counts(n_words) -> dict:
    """Free parameters of a model of ``p(x, y)`` with ``x in {0, 1}^n_words`` and binary ``y``.

    Returns
    -------
    dict
        ``joint_per_class``: ``2^n - 1`` (a multinomial over the ``2^n`` outcomes, one per class;
        an exact Python int), ``joint_digits``: its number of decimal digits,
        ``naive_bayes``: ``2 n + 1`` (``phi_{j|y=0}``, ``phi_{j|y=1}`` for every word, and
        ``phi_y``).

    Examples
    --------
    >>> c = parameter_counts(50000)
    >>> c["joint_digits"], c["naive_bayes"]
    (15052, 100001)
    >>> parameter_counts(3)["joint_per_class"]
    7
    """
    n = check_int(n_words, "n_words", low=1)
    joint = 2 ** n - 1
    return dict(joint_per_class=joint, joint_digits=len(str(joint)) if n < 5000
                else int(math.floor(n * math.log10(2))) + 1, naive_bayes=2 * n + 1)


def _presence(X):
    X = X.tocsc() if sp.issparse(X) else sp.csc_matrix(np.asarray(X))
    return (X > 0).astype(np.int8).tocsc()


def _positive_rows(y, n: int, positive):
    """Rows whose label is the class called ``y = 1`` (default: the larger of two labels),
    after the one label check of genviz (:func:`genviz._validation.check_labels`)."""
    y = check_labels(y, n)
    classes = np.unique(y)
    if classes.size != 2:
        raise ValueError(f"y must have exactly two classes, got {classes.tolist()}")
    positive = classes[1] if positive is None else positive
    if positive not in classes:
        raise ValueError(f"positive must be one of {classes.tolist()}, got {positive!r}")
    return y == positive, positive


def word_dependence(X, y, j: int, k: int, *, positive=None) -> dict:
    """How word ``j``'s occurrence depends on word ``k``'s, with and without the class.

    Parameters
    ----------
    X : array_like or sparse matrix of shape (n, V)
        Counts or presences.
    y : array_like of shape (n,)
        Labels of two classes.
    j, k : int
        Columns of the two words.
    positive : label, optional
        The class called ``y = 1`` (default: the larger label).

    Returns
    -------
    dict of floats
        ``p_j`` = P(x_j = 1), ``p_j_given_k`` = P(x_j = 1 | x_k = 1),
        ``p_j_given_y`` = P(x_j = 1 | y = 1), ``p_j_given_y_k`` = P(x_j = 1 | y = 1, x_k = 1), and
        the same two for ``y = 0`` (``..._given_y0...``); NaN where the condition never occurs.

    Examples
    --------
    >>> X = np.array([[1, 1], [1, 1], [0, 0], [0, 0], [1, 0], [0, 1]])
    >>> d = word_dependence(X, [1, 1, 0, 0, 1, 0], 0, 1)
    >>> round(d["p_j"], 3), round(d["p_j_given_k"], 3), d["p_j_given_y"], d["p_j_given_y_k"]
    (0.5, 0.667, 1.0, 1.0)
    """
    P = _presence(X)
    one, _ = _positive_rows(y, P.shape[0], positive)
    j = check_int(j, "j", low=0, high=P.shape[1] - 1)
    k = check_int(k, "k", low=0, high=P.shape[1] - 1)
    xj = P[:, j].toarray().ravel().astype(bool)
    xk = P[:, k].toarray().ravel().astype(bool)

    def frac(mask):
        return float(xj[mask].mean()) if mask.any() else float("nan")

    return dict(p_j=frac(np.ones_like(xj)), p_j_given_k=frac(xk),
                p_j_given_y=frac(one), p_j_given_y_k=frac(one & xk),
                p_j_given_y0=frac(~one), p_j_given_y0_k=frac(~one & xk))


def binary_vector(text: str, words) -> np.ndarray:
    """CS229's feature vector of an email over a dictionary ``words``: ``x_j = 1`` if word ``j``
    occurs in ``text`` (tokenised like every genviz document), else 0.

    Examples
    --------
    >>> binary_vector("A great offer: buy now!", ["a", "aardvark", "aardwolf", "buy", "zygmurgy"])
    array([1, 0, 0, 1, 0])
    """
    present = set(tokenize(text))
    return np.array([int(w in present) for w in words])


def word_ids(text: str, vocabulary: Vocabulary, *, one_based: bool = True) -> list:
    """The multinomial event model's representation: ``x_j`` is the dictionary index of the
    ``j``-th word of the email (words not in the dictionary are skipped, as the filter does).

    Examples
    --------
    >>> from genviz.text import build_vocabulary
    >>> v = build_vocabulary(["a neurips paper"])
    >>> word_ids("A NeurIPS paper, a paper", v)
    [1, 2, 3, 1, 3]
    """
    if not isinstance(vocabulary, Vocabulary):
        raise TypeError(f"vocabulary must be a genviz.text.Vocabulary, got "
                        f"{type(vocabulary).__name__}")
    start = 1 if one_based else 0
    return [vocabulary.index[t] + start for t in tokenize(text) if t in vocabulary.index]


def bernoulli_mle(X, y, *, positive=None) -> dict:
    r"""CS229's three maximum-likelihood estimates of the Bernoulli event model, by its formulas:

    .. math::

        \phi_y = \frac{\sum_i 1\{y^{(i)}=1\}}{n},\quad
        \phi_{j|y=1} = \frac{\sum_i 1\{x^{(i)}_j = 1 \wedge y^{(i)} = 1\}}{\sum_i 1\{y^{(i)}=1\}},\quad
        \phi_{j|y=0} = \frac{\sum_i 1\{x^{(i)}_j = 1 \wedge y^{(i)} = 0\}}{\sum_i 1\{y^{(i)}=0\}}.

    Returns
    -------
    dict
        ``phi_y`` (float), ``phi_1`` and ``phi_0`` ((V,) arrays), ``positive`` (the label of
        ``y = 1``).

    Examples
    --------
    >>> m = bernoulli_mle(np.array([[1, 0], [1, 1], [0, 1]]), [1, 1, 0])
    >>> m["phi_y"], m["phi_1"].tolist(), m["phi_0"].tolist()
    (0.6666666666666666, [1.0, 0.5], [0.0, 1.0])
    """
    P = _presence(X).tocsr()
    one, positive = _positive_rows(y, P.shape[0], positive)
    phi_1 = np.asarray(P[one].sum(axis=0)).ravel() / one.sum()
    phi_0 = np.asarray(P[~one].sum(axis=0)).ravel() / (~one).sum()
    return dict(phi_y=float(one.mean()), phi_1=phi_1, phi_0=phi_0, positive=positive)


def bernoulli_posterior(x, phi_y, phi_1, phi_0) -> float:
    r"""The notes' prediction formula for one email ``x in {0,1}^|V|``:

    .. math::

        p(y=1\mid x) = \frac{\prod_j p(x_j\mid y=1)\,p(y=1)}
        {\prod_j p(x_j\mid y=1)\,p(y=1) + \prod_j p(x_j\mid y=0)\,p(y=0)},

    with :math:`p(x_j \mid y) = \phi_{j|y}^{x_j}(1-\phi_{j|y})^{1-x_j}` — every dictionary word
    contributes, present or absent. Computed in log space (the products underflow).

    Raises
    ------
    ValueError
        If both products are 0 (the posterior is 0/0: a word with ``phi = 0`` in one class and a
        word with ``phi = 0`` in the other, or ``phi = 1`` and absent).

    Examples
    --------
    >>> round(bernoulli_posterior([1, 0], 0.5, [0.8, 0.5], [0.2, 0.5]), 4)
    0.8
    """
    x = np.asarray(x.toarray() if sp.issparse(x) else x, dtype=float).ravel() > 0
    logs = []
    for phi, prior in ((np.asarray(phi_1, float), phi_y), (np.asarray(phi_0, float), 1 - phi_y)):
        if phi.shape != x.shape:
            raise ValueError(f"phi has {phi.size} entries but x has {x.size}")
        with np.errstate(divide="ignore"):
            logs.append(np.log(prior) + np.sum(np.where(x, np.log(phi), np.log1p(-phi))))
    logs = np.array(logs)
    if np.all(np.isneginf(logs)):
        raise ValueError("both products are 0: the posterior is 0/0 (an unsmoothed estimate of 0 "
                         "in each class); use Laplace smoothing")
    return float(np.exp(logs[0] - logsumexp(logs)))


def multinomial_log_likelihood(counts, log_phi, *, coefficient: bool = True) -> float:
    r"""Log-likelihood of one document with word counts ``n_k`` under word probabilities
    ``phi_k`` (a multinomial event model):

    .. math::

        \log p(x) = \underbrace{\log\frac{(\sum_k n_k)!}{\prod_k n_k!}}_{\text{coefficient}}
        + \sum_k n_k \log\phi_k .

    The coefficient depends only on the counts, not on the class, so it is the same in
    ``p(x|y=0)`` and ``p(x|y=1)`` and cancels from the posterior; ``coefficient=False`` drops it
    (as CS229's sequence-of-words likelihood and Smola's Algorithm 1.1 do).

    Examples
    --------
    >>> round(multinomial_log_likelihood([2, 1], np.log([0.5, 0.5])), 6)  # 3 * 0.5^3
    -0.980829
    >>> round(multinomial_log_likelihood([2, 1], np.log([0.5, 0.5]), coefficient=False), 6)
    -2.079442
    """
    n = np.asarray(counts.toarray() if sp.issparse(counts) else counts, dtype=float).ravel()
    lp = np.asarray(log_phi, dtype=float).ravel()
    if n.shape != lp.shape:
        raise ValueError(f"counts has {n.size} entries but log_phi has {lp.size}")
    if np.any(n < 0):
        raise ValueError("counts must be >= 0")
    used = n > 0
    ll = float(np.sum(n[used] * lp[used]))
    if coefficient:
        ll += float(gammaln(n.sum() + 1) - np.sum(gammaln(n[used] + 1)))
    return ll

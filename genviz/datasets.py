"""Small real data sets shipped inside genviz (no network at run time).

Each data file ``genviz/data/<file>`` has a sidecar ``genviz/data/<file>.json`` with its
provenance (where it was taken from, by which script), licence and SHA-256 checksum. Loading
verifies the checksum, so a corrupted or truncated file gives a clear error, not a wrong answer.
Each topic adds its loader below, built on :func:`read_verified`.
"""

from __future__ import annotations

import hashlib
import json
from importlib import resources

__all__ = ["DataFileError", "read_verified", "provenance", "optical_digits"]


class DataFileError(RuntimeError):
    """A shipped data file is missing, corrupted or has no provenance record."""


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

# -- UCI optical digits (notebook 09, scripts/build_optical_digits.py) -------------------------
OPTICAL_DIGITS_FILE = "optical_digits.csv.gz"


def optical_digits():
    """The UCI optical handwritten digits (test set): 1797 images of 8x8 pixels, digits 0..9.

    Each pixel is the count (0..16) of on pixels in a 4x4 block of a 32x32 bitmap. Built by
    ``scripts/build_optical_digits.py`` from the copy in scikit-learn (UCI, CC BY 4.0).

    Returns
    -------
    X : ndarray of float, shape (1797, 64)
        Pixels row by row (reshape a row to (8, 8) to see the image).
    y : ndarray of int, shape (1797,)
        The digits.

    Raises
    ------
    DataFileError
        If the data file is missing, corrupted (checksum) or unreadable.

    Examples
    --------
    >>> X, y = optical_digits()
    >>> X.shape, int(X.max()), sorted(set(y.tolist())) == list(range(10))
    ((1797, 64), 16, True)
    """
    import gzip as _gzip
    import io as _io

    import numpy as _np

    raw = read_verified(OPTICAL_DIGITS_FILE)
    try:
        table = _np.loadtxt(_io.BytesIO(_gzip.decompress(raw)), delimiter=",", skiprows=1,
                            dtype=_np.int64)
    except (OSError, EOFError, ValueError) as exc:
        raise DataFileError(f"data file genviz/data/{OPTICAL_DIGITS_FILE} cannot be read ({exc}); "
                            f"regenerate it with scripts/build_optical_digits.py") from None
    return table[:, :64].astype(_np.float64), table[:, 64].copy()


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

__all__ = ["DataFileError", "read_verified", "provenance"]


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

"""The learner's predictions kept on their own machine, across sessions (issue #40 item 3).

The review at the end of a notebook (:func:`genviz.widgets.predictions.prediction_review`)
lists what the learner predicted, why, what they saw and whether it held. A kernel forgets it
when it stops; this module keeps it in a small JSON file **beside the notebook** (the kernel's
working directory, which JupyterLab and Voilà set to the notebook's folder), so the review of
a later session still shows the predictions of an earlier one. The file is the learner's: it
is never sent anywhere (no stage of :func:`~genviz.widgets.predictions.report_stage` reads it),
the course repository ignores it (``.gitignore``), and nbgitpuller leaves untracked files alone.

Only a learner's own predictions are kept (not a room's votes in lecture mode), only once
committed, and only what the review shows: the question, the option, the reason, what was
seen, whether it held, the one-line why. ``GENVIZ_PREDICTION_LOG`` names another file, or
``off`` keeps nothing (the test suite sets it).
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import warnings
from pathlib import Path

__all__ = ["LOG_NAME", "ENV", "log_path", "read_log", "write_log"]

#: The file's name, in the notebook's folder.
LOG_NAME = "genviz-predictions.json"
#: The environment variable naming another file, or ``off``.
ENV = "GENVIZ_PREDICTION_LOG"
#: What one kept entry holds (the review's row), each a string, a bool or None.
FIELDS = ("id", "question", "predicted", "reason", "saw", "held", "why")
_VERSION = 1


def log_path() -> Path | None:
    """The file the predictions are kept in: ``$GENVIZ_PREDICTION_LOG``, or
    ``genviz-predictions.json`` in the working directory; None when the variable is ``off``."""
    value = os.environ.get(ENV, "")
    if value.strip().lower() == "off":
        return None
    return Path(value) if value else Path.cwd() / LOG_NAME


def _check_path(path):
    if path is None:
        return None
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a file path or None, got {type(path).__name__}")
    return Path(path)


def _read(path: Path) -> tuple[dict[str, dict], str | None]:
    """The entries of the file and None, or {} and what is wrong with it."""
    if not path.exists():
        return {}, None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        entries = data["predictions"]
        if data.get("version") != _VERSION or not isinstance(entries, dict):
            raise ValueError(f"version {data.get('version')!r}")
        return {k: {f: e.get(f) for f in FIELDS} | {"saved": e.get("saved")}
                for k, e in entries.items() if isinstance(e, dict)}, None
    except (OSError, ValueError, KeyError, TypeError) as err:
        return {}, f"{path} is not a genviz predictions file ({err})"


def read_log(path=None) -> dict[str, dict]:
    """The kept entries by prediction id (``{}`` when there is no file, it is off, or the file
    is not one this module wrote: then a warning says so and the file is left as it is).

    ``path``: the file (default :func:`log_path`)."""
    path = _check_path(path) if path is not None else log_path()
    if path is None:
        return {}
    entries, wrong = _read(path)
    if wrong:
        warnings.warn(f"{wrong}; the review shows only this session's predictions", stacklevel=2)
    return entries


def write_log(rows: list[dict], path=None) -> Path | None:
    """Keep ``rows`` (the review's rows of committed predictions: dicts with :data:`FIELDS`),
    merged into the file's entries (other notebooks' entries stay; a row replaces its id's
    entry). Written atomically (a temporary file renamed), so a crash leaves the old file.
    Returns the file, or None when off or when it cannot be written (a read-only folder: a
    warning, the notebook goes on).

    ``path``: the file (default :func:`log_path`)."""
    if not isinstance(rows, list) or not all(isinstance(r, dict) and "id" in r for r in rows):
        raise TypeError("rows must be a list of dicts with an 'id' (the review's rows)")
    path = _check_path(path) if path is not None else log_path()
    if path is None:
        return None
    entries, wrong = _read(path)
    if wrong:  # not ours, or damaged: left for the learner to look at, never overwritten
        warnings.warn(f"{wrong}; your predictions are not kept there", stacklevel=2)
        return None
    now = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    changed = False
    for row in rows:
        entry = {f: row.get(f) for f in FIELDS}
        old = entries.get(row["id"])
        if old is None or {f: old.get(f) for f in FIELDS} != entry:
            entries[row["id"]] = entry | {"saved": now}
            changed = True
    if not changed:
        return path
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        # ASCII with escapes: whatever a learner typed (a lone surrogate pasted from elsewhere,
        # control characters) is written and read back exactly, as valid JSON
        tmp.write_text(json.dumps({"version": _VERSION, "predictions": entries}, indent=1),
                       encoding="ascii")
        os.replace(tmp, path)
    except OSError as err:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:  # the folder itself is what failed
            pass
        warnings.warn(f"your predictions could not be kept in {path} ({err}); the review "
                      "still shows this session's", stacklevel=2)
        return None
    return path

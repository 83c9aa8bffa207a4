"""What the data build scripts share (dev time only): a byte-identical gzip file and its
provenance sidecar.

The scripts run as ``python scripts/build_NAME.py``, so this module is imported from the
scripts folder (``from _data_file import ...``).
"""

from __future__ import annotations

import csv
import gzip
import hashlib
import io
import json
import pathlib


def csv_text(columns, rows) -> str:
    """A CSV table with a header line, ``\\n`` line ends."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(rows)
    return buf.getvalue()


def write_gz(out: pathlib.Path, text: str, encoding: str = "ascii") -> bytes:
    """Write ``text`` gzip-compressed to ``out`` with a zero timestamp and no file name, so
    that every run writes the same bytes; return those bytes."""
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as fh:
        fh.write(text.encode(encoding))
    data = buf.getvalue()
    out.write_bytes(data)
    return data


def write_sidecar(out: pathlib.Path, record: dict) -> None:
    """Write the provenance record next to ``out`` as ``<name>.json``."""
    out.with_name(out.name + ".json").write_text(json.dumps(record, indent=2) + "\n",
                                                 encoding="utf-8")


def write_csv_table(out: pathlib.Path, columns, rows, *, source: str, license: str, script: str,
                    description: str, counts: dict) -> bytes:
    """Write ``rows`` under ``columns`` as the byte-identical gzip CSV ``out`` and its sidecar
    (source, license, the file's sha256, script, description, counts, in that order); print
    what was written and return the file's bytes."""
    data = write_gz(out, csv_text(columns, rows))
    write_sidecar(out, {"source": source, "license": license,
                        "sha256": hashlib.sha256(data).hexdigest(), "script": script,
                        "description": description, "counts": counts})
    print(f"wrote {out} ({len(data)} bytes, {counts['rows']} rows)")
    return data

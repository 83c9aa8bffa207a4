#!/usr/bin/env python
"""Build genviz/data/penguins.csv.gz from the PyPI package ``palmerpenguins`` (dev time only).

The Palmer penguins data (Horst, Hill & Gorman 2020, https://allisonhorst.github.io/
palmerpenguins/; measurements by K. Gorman, Palmer Station LTER, Gorman et al. 2014, PLoS ONE
9(3): e90081) are released under CC0 1.0. The PyPI package ``palmerpenguins`` (MIT-licensed code)
ships them as ``palmerpenguins/data/penguins.csv``. It is not a genviz dependency: install it
into the venv only to rebuild the file, then run

    .venv/bin/python -m pip install palmerpenguins==0.1.6
    .venv/bin/python scripts/build_penguins.py

What it does, deterministically: reads the CSV (344 rows), drops the 2 rows whose four body
measurements are missing ("NA"), keeps species, island, the four measurements, sex ("" when
missing) and year in the original row order, writes them gzip-compressed with a zero timestamp
(byte-identical on every run), and the provenance sidecar ``penguins.csv.gz.json``.
"""

from __future__ import annotations

import csv
import hashlib
import io
import pathlib

from _data_file import write_csv_table

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "genviz" / "data" / "penguins.csv.gz"
COLUMNS = ["species", "island", "bill_length_mm", "bill_depth_mm", "flipper_length_mm",
           "body_mass_g", "sex", "year"]
MEASURES = COLUMNS[2:6]


def main() -> None:
    import importlib.metadata

    import palmerpenguins

    src = pathlib.Path(palmerpenguins.__file__).parent / "data" / "penguins.csv"
    raw = src.read_bytes()
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8"))))
    if len(rows) != 344 or list(rows[0]) != COLUMNS:
        raise SystemExit(f"unexpected table in {src}: {len(rows)} rows, columns {list(rows[0])}")
    kept = [r for r in rows if all(r[m] != "NA" for m in MEASURES)]
    for r in kept:
        for m in MEASURES:
            float(r[m])  # must parse
        if r["sex"] == "NA":
            r["sex"] = ""
    species = sorted({r["species"] for r in kept})
    write_csv_table(
        OUT, COLUMNS, ([r[c] for c in COLUMNS] for r in kept),
        source="Palmer penguins (Horst, Hill & Gorman 2020, https://allisonhorst.github.io/"
               "palmerpenguins/; data: Gorman, Williams & Fraser 2014, PLoS ONE 9(3): e90081, "
               "Palmer Station Antarctica LTER), as shipped in the PyPI package palmerpenguins "
               f"{importlib.metadata.version('palmerpenguins')} (palmerpenguins/data/"
               f"penguins.csv, sha256 {hashlib.sha256(raw).hexdigest()})",
        license="CC0 1.0 (data); the palmerpenguins package code is MIT",
        script="scripts/build_penguins.py",
        description="CSV (gzip) with a header line: species, island, bill_length_mm, "
                    "bill_depth_mm, flipper_length_mm, body_mass_g, sex ('' if unknown), year. "
                    "The 2 rows without body measurements are dropped; 342 rows.",
        counts={"rows": len(kept), **{s: sum(r["species"] == s for r in kept) for s in species}},
    )


if __name__ == "__main__":
    main()

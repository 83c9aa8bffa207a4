#!/usr/bin/env python
"""Build genviz/data/auto_mpg.csv.gz from the PyPI package ``vega_datasets`` (dev time only).

The UCI Auto MPG data (Quinlan 1993, "Combining instance-based and model-based learning", ICML;
UCI Machine Learning Repository, https://archive.ics.uci.edu/dataset/9/auto+mpg, CC BY 4.0;
originally from StatLib, Carnegie Mellon University, used in the 1983 ASA data exposition) is
shipped by the PyPI package ``vega_datasets`` (MIT-licensed) as
``vega_datasets/_data/cars.json`` (406 cars: the 398 UCI records plus 8 without mpg). It is not a
genviz dependency: install it into the venv only to rebuild the file, then run

    .venv/bin/python -m pip install vega_datasets==0.9.0
    .venv/bin/python scripts/build_auto_mpg.py

What it does, deterministically: reads cars.json, drops the 14 records with a missing value
(8 without mpg, 6 without horsepower), which leaves the 392 complete UCI records the slides use
(their train and test sets have 196 each), keeps the original order, writes name, mpg, cylinders,
displacement, horsepower, weight, acceleration, model year (70..82) and origin (USA, Europe,
Japan) as gzip-compressed CSV with a zero timestamp (byte-identical on every run), and the
provenance sidecar ``auto_mpg.csv.gz.json``.
"""

from __future__ import annotations

import hashlib
import json
import pathlib

from _data_file import write_csv_table

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "genviz" / "data" / "auto_mpg.csv.gz"
FIELDS = ["Name", "Miles_per_Gallon", "Cylinders", "Displacement", "Horsepower",
          "Weight_in_lbs", "Acceleration", "Year", "Origin"]
COLUMNS = ["name", "mpg", "cylinders", "displacement", "horsepower", "weight", "acceleration",
           "year", "origin"]


def _num(v) -> str:
    return f"{v:g}"


def main() -> None:
    import importlib.metadata

    import vega_datasets

    src = pathlib.Path(vega_datasets.__file__).parent / "_data" / "cars.json"
    raw = src.read_bytes()
    cars = json.loads(raw)
    if len(cars) != 406 or sorted(cars[0]) != sorted(FIELDS):
        raise SystemExit(f"unexpected table in {src}: {len(cars)} rows, fields {sorted(cars[0])}")
    kept = [c for c in cars if all(c[f] is not None for f in FIELDS)]
    if len(kept) != 392:
        raise SystemExit(f"expected 392 complete records, got {len(kept)}")
    rows = ([c["Name"], _num(c["Miles_per_Gallon"]), int(c["Cylinders"]),
             _num(c["Displacement"]), _num(c["Horsepower"]), _num(c["Weight_in_lbs"]),
             _num(c["Acceleration"]), int(c["Year"][:4]) - 1900, c["Origin"]] for c in kept)
    origins = sorted({c["Origin"] for c in kept})
    write_csv_table(
        OUT, COLUMNS, rows,
        source="UCI Machine Learning Repository, Auto MPG (Quinlan 1993; "
               "https://archive.ics.uci.edu/dataset/9/auto+mpg; originally StatLib, Carnegie "
               "Mellon University), as shipped in the PyPI package vega_datasets "
               f"{importlib.metadata.version('vega_datasets')} (vega_datasets/_data/cars.json, "
               f"sha256 {hashlib.sha256(raw).hexdigest()})",
        license="CC BY 4.0 (UCI Machine Learning Repository); the vega_datasets package is "
                "MIT-licensed",
        script="scripts/build_auto_mpg.py",
        description="CSV (gzip) with a header line: name, mpg, cylinders, displacement (cu in), "
                    "horsepower, weight (lbs), acceleration (s, 0-60 mph), year (70..82), origin "
                    "(USA, Europe, Japan). The 14 records with a missing value are dropped; "
                    "392 rows in the original order.",
        counts={"rows": len(kept), **{o: sum(c["Origin"] == o for c in kept) for o in origins}},
    )


if __name__ == "__main__":
    main()

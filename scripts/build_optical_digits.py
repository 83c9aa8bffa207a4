#!/usr/bin/env python
"""Build genviz/data/optical_digits.csv.gz from the copy shipped in scikit-learn (dev time only).

The data are the test set of the UCI "Optical Recognition of Handwritten Digits" data set
(E. Alpaydin, C. Kaynak, 1998; https://archive.ics.uci.edu/dataset/80, CC BY 4.0): 1797 8x8
images of handwritten digits, each pixel an integer count 0..16, and the digit 0..9. scikit-learn
ships them as ``sklearn/datasets/data/digits.csv.gz`` (used by ``load_digits``); scikit-learn
is a test dependency of genviz, so no extra install is needed (nothing is downloaded). Run:

    .venv/bin/python scripts/build_optical_digits.py

What it does, deterministically: reads the CSV (65 integer columns: 64 pixels row by row, then
the digit), checks its shape and ranges, writes it back as integer CSV with a header line
``p0_0,...,p7_7,digit`` gzip-compressed with a zero timestamp (byte-identical on every run), and
the provenance sidecar ``optical_digits.csv.gz.json`` (source, licence, sha256, counts).
"""

from __future__ import annotations

import gzip
import hashlib
import io
import pathlib

import numpy as np
from _data_file import write_gz, write_sidecar

ROOT = pathlib.Path(__file__).resolve().parents[1]
OUT = ROOT / "genviz" / "data" / "optical_digits.csv.gz"


def main() -> None:
    import sklearn

    src = pathlib.Path(sklearn.__file__).parent / "datasets" / "data" / "digits.csv.gz"
    raw = src.read_bytes()
    table = np.loadtxt(io.BytesIO(gzip.decompress(raw)), delimiter=",", dtype=np.int64)
    if table.shape != (1797, 65):
        raise SystemExit(f"unexpected shape {table.shape} in {src}")
    if table[:, :64].min() < 0 or table[:, :64].max() > 16 or set(table[:, 64]) != set(range(10)):
        raise SystemExit("pixel values outside 0..16 or digits outside 0..9")
    header = ",".join([f"p{r}_{c}" for r in range(8) for c in range(8)] + ["digit"])
    text = header + "\n" + "\n".join(",".join(map(str, row)) for row in table) + "\n"
    data = write_gz(OUT, text)
    record = {
        "source": "UCI Machine Learning Repository, Optical Recognition of Handwritten Digits "
                  "(Alpaydin & Kaynak 1998, https://archive.ics.uci.edu/dataset/80/optical+"
                  "recognition+of+handwritten+digits), test set as shipped in scikit-learn "
                  f"{sklearn.__version__} (sklearn/datasets/data/digits.csv.gz, sha256 "
                  f"{hashlib.sha256(raw).hexdigest()})",
        "license": "CC BY 4.0 (UCI Machine Learning Repository)",
        "sha256": hashlib.sha256(data).hexdigest(),
        "script": "scripts/build_optical_digits.py",
        "description": "CSV (gzip) with a header line: 64 pixel columns p<row>_<col> of an 8x8 "
                       "image (integer counts 0..16 of on pixels in 4x4 blocks of a 32x32 "
                       "bitmap), then the digit 0..9. 1797 rows.",
        "counts": {"rows": int(table.shape[0]),
                   **{f"digit_{d}": int(np.sum(table[:, 64] == d)) for d in range(10)}},
    }
    write_sidecar(OUT, record)
    print(f"wrote {OUT} ({len(data)} bytes)")


if __name__ == "__main__":
    main()

"""scripts/_data_file.py, what the data build scripts share: rebuilding a shipped file from its
own decompressed text gives the shipped bytes (the oracle: the file and its sidecar's sha256)."""

import csv
import gzip
import hashlib
import io
import json
import pathlib

import pytest

from file_modules import load_file

ROOT = pathlib.Path(__file__).resolve().parents[1]
DATA = ROOT / "genviz" / "data"
data_file = load_file(ROOT / "scripts" / "_data_file.py", "data_file_under_test")


@pytest.mark.parametrize("name", ["penguins.csv.gz", "auto_mpg.csv.gz", "optical_digits.csv.gz"])
def test_write_gz_rebuilds_the_shipped_bytes(tmp_path, name):
    shipped = (DATA / name).read_bytes()
    assert hashlib.sha256(shipped).hexdigest() == \
        json.loads((DATA / f"{name}.json").read_text())["sha256"]
    text = gzip.decompress(shipped).decode("ascii")
    out = tmp_path / name
    assert data_file.write_gz(out, text) == shipped == out.read_bytes()
    assert data_file.write_gz(tmp_path / "again.gz", text) == shipped  # no timestamp, no name


@pytest.mark.parametrize("name", ["penguins.csv.gz", "auto_mpg.csv.gz"])
def test_csv_text_writes_the_shipped_tables(name):
    text = gzip.decompress((DATA / name).read_bytes()).decode("ascii")
    rows = list(csv.reader(io.StringIO(text)))
    assert data_file.csv_text(rows[0], rows[1:]) == text


def test_write_sidecar_names_the_file_after_the_data(tmp_path):
    out = tmp_path / "x.csv.gz"
    data_file.write_sidecar(out, {"sha256": "ab", "counts": {"rows": 2}})
    assert (tmp_path / "x.csv.gz.json").read_text() == \
        '{\n  "sha256": "ab",\n  "counts": {\n    "rows": 2\n  }\n}\n'


def test_text_outside_the_encoding_is_refused(tmp_path):
    with pytest.raises(UnicodeEncodeError):
        data_file.write_gz(tmp_path / "x.gz", "café")
    assert data_file.write_gz(tmp_path / "y.gz", "café", encoding="utf-8")


@pytest.mark.parametrize("name", ["penguins.csv.gz", "auto_mpg.csv.gz"])
def test_write_csv_table_rebuilds_the_shipped_file_and_sidecar(tmp_path, capsys, name):
    shipped = (DATA / name).read_bytes()
    record = json.loads((DATA / f"{name}.json").read_text())
    rows = list(csv.reader(io.StringIO(gzip.decompress(shipped).decode("ascii"))))
    out = tmp_path / name
    fields = {k: v for k, v in record.items() if k != "sha256"}
    assert data_file.write_csv_table(out, rows[0], rows[1:], **fields) == shipped
    assert (tmp_path / f"{name}.json").read_text() == (DATA / f"{name}.json").read_text()
    assert capsys.readouterr().out == \
        f"wrote {out} ({len(shipped)} bytes, {record['counts']['rows']} rows)\n"


def test_write_csv_table_wants_every_record_field(tmp_path):
    with pytest.raises(TypeError, match="description"):
        data_file.write_csv_table(tmp_path / "x.csv.gz", ["a"], [[1]], source="s", license="l",
                                  script="x.py", counts={"rows": 1})


def test_every_loader_documents_its_data_file_error():
    """The shared Raises section replaces each loader's mark (genviz.datasets._raises_data_file_error)."""
    from genviz import datasets
    for loader in (datasets.spam_assassin, datasets.optical_digits, datasets.penguins,
                   datasets.auto_mpg):
        doc = loader.__doc__
        assert "{raises" not in doc, loader.__name__
        assert "Raises\n    ------\n    DataFileError\n        If the data file is missing" in doc \
            or "Raises\n------\nDataFileError\n    If the data file is missing" in doc, loader.__name__

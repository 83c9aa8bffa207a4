"""The shipped Auto MPG data: the UCI counts, the slides' discretisation, checksum verification."""

import numpy as np
import pytest

from genviz import datasets
from genviz.datasets import auto_mpg, provenance


def test_uci_counts_and_values():
    a = auto_mpg()
    assert a.X.shape == (392, 7) and a.records.shape == (392, 8)
    # UCI Auto MPG without the 6 missing-horsepower rows: 245 USA, 68 Europe, 79 Japan
    assert [int((a.origin == o).sum()) for o in ("USA", "Europe", "Japan")] == [245, 68, 79]
    assert a.X[:, 0].mean() == pytest.approx(23.445918, abs=1e-6)  # the well-known mean mpg
    assert a.name[0] == "chevrolet chevelle malibu" and a.X[0, 4] == 3504
    assert a.feature_names[0] == "mpg" and a.feature_names[-1] == "year"


def test_discretisation_as_in_the_slides():
    a = auto_mpg()
    mpg, year = a.X[:, 0], a.X[:, 6]
    np.testing.assert_array_equal(a.records[:, 0] == "good", mpg >= 25)
    assert set(a.records[:, 1]) == {"70to74", "75to78", "79to83"}
    np.testing.assert_array_equal(a.records[:, 1] == "75to78", (year >= 75) & (year <= 78))
    np.testing.assert_array_equal(a.records[:, 2] == "asia", a.origin == "Japan")
    assert a.record_names[:3] == ["mpg", "modelyear", "maker"]
    for k, name in enumerate(a.record_names):
        assert set(a.records[:, k]) <= set(a.record_values[name])
    assert int((auto_mpg(mpg_threshold=23.0).records[:, 0] == "good").sum()) == 196


def test_provenance_and_bad_input(monkeypatch):
    rec = provenance("auto_mpg.csv.gz")
    assert "CC BY 4.0" in rec["license"] and "vega_datasets" in rec["source"]
    assert rec["script"] == "scripts/build_auto_mpg.py"
    with pytest.raises(TypeError, match="mpg_threshold must be a real number"):
        auto_mpg(mpg_threshold="25")
    monkeypatch.setattr(datasets, "read_verified", lambda f: b"not gzip")
    with pytest.raises(datasets.DataFileError, match="cannot be read"):
        auto_mpg()

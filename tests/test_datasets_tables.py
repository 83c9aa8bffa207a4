"""genviz.datasets: the EnjoySport and PlayTennis tables, Palmer penguins (verified file)."""

import gzip
import shutil

import numpy as np
import pytest

from genviz import datasets


def test_enjoy_sport_is_the_slides_table():
    t = datasets.enjoy_sport()
    assert t.X.shape == (4, 6) and t.target_name == "Play?"
    assert t.X[2].tolist() == ["rainy", "cold", "high", "strong", "warm", "change"]
    assert t.y.tolist() == ["yes", "yes", "no", "yes"]
    assert set(t.X[:, 3]) == {"strong"}


def test_play_tennis_is_mitchells_table():
    t = datasets.play_tennis()
    assert t.X.shape == (14, 4) and t.feature_names == ["Outlook", "Temperature", "Humidity", "Wind"]
    # Mitchell's counts quoted in section 6.9.1: 9 Yes, 5 No; Strong wind on 3 of each.
    assert int((t.y == "Yes").sum()) == 9 and int((t.y == "No").sum()) == 5
    strong = t.X[:, 3] == "Strong"
    assert int((strong & (t.y == "Yes")).sum()) == 3 and int((strong & (t.y == "No")).sum()) == 3
    assert t.X[13].tolist() == ["Rain", "Mild", "High", "Strong"] and t.y[13] == "No"
    # each call returns fresh arrays
    t.X[0, 0] = "changed"
    assert datasets.play_tennis().X[0, 0] == "Sunny"


def test_penguins_matches_its_provenance_and_the_source():
    p = datasets.penguins()
    record = datasets.provenance(datasets.PENGUINS_FILE)
    assert "CC0" in record["license"] and record["script"] == "scripts/build_penguins.py"
    assert p.X.shape == (342, 4) and p.X.dtype == np.float64 and np.all(np.isfinite(p.X))
    for s in ("Adelie", "Chinstrap", "Gentoo"):
        assert int((p.y == s).sum()) == record["counts"][s]
    assert p.feature_names == ["bill_length_mm", "bill_depth_mm", "flipper_length_mm",
                               "body_mass_g"]
    assert p.X[0].tolist() == [39.1, 18.7, 181.0, 3750.0] and p.y[0] == "Adelie"
    assert set(p.island) == {"Biscoe", "Dream", "Torgersen"}
    assert set(p.sex) == {"female", "male", ""}
    # Well-known summary: mean flipper length of Gentoo penguins is 217.2 mm
    assert p.X[p.y == "Gentoo", 2].mean() == pytest.approx(217.19, abs=0.01)


def test_penguins_corrupted_or_missing_file_is_a_clear_error(tmp_path, monkeypatch):
    src = datasets._data_dir()
    for name in (datasets.PENGUINS_FILE, datasets.PENGUINS_FILE + ".json"):
        shutil.copy(src / name, tmp_path / name)
    monkeypatch.setattr(datasets, "_data_dir", lambda: tmp_path)
    assert datasets.penguins().X.shape == (342, 4)
    raw = gzip.decompress((tmp_path / datasets.PENGUINS_FILE).read_bytes())
    (tmp_path / datasets.PENGUINS_FILE).write_bytes(gzip.compress(raw.replace(b"39.1", b"93.1")))
    with pytest.raises(datasets.DataFileError, match="corrupted.*build_penguins.py"):
        datasets.penguins()
    (tmp_path / datasets.PENGUINS_FILE).unlink()
    with pytest.raises(datasets.DataFileError, match="missing"):
        datasets.penguins()


def test_categorical_table_shows_as_an_html_table():
    import html.parser

    class Cells(html.parser.HTMLParser):
        def __init__(self):
            super().__init__()
            self.rows, self._row, self._in = [], None, False

        def handle_starttag(self, tag, attrs):
            if tag == "tr":
                self._row = []
            elif tag in ("td", "th"):
                self._in = True

        def handle_endtag(self, tag):
            if tag == "tr":
                self.rows.append(self._row)
            elif tag in ("td", "th"):
                self._in = False

        def handle_data(self, data):
            if self._in:
                self._row.append(data)

    t = datasets.enjoy_sport()
    parser = Cells()
    parser.feed(t._repr_html_())
    assert parser.rows[0] == [*t.feature_names, t.target_name]
    assert parser.rows[1:] == [[*map(str, row), str(label)] for row, label in zip(t.X, t.y)]
    # values are escaped, not interpreted as markup
    odd = t._replace(feature_names=["<b>Sky</b>", *t.feature_names[1:]])
    assert "&lt;b&gt;Sky&lt;/b&gt;" in odd._repr_html_()

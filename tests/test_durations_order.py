"""scripts/durations.py: the files of `make test` handed to the workers longest first."""

import json
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import durations as T  # noqa: E402

JUNIT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" tests="5">
<testcase classname="tests.test_durations_fixture_a" name="test_one" time="1.25"/>
<testcase classname="tests.test_durations_fixture_a" name="test_two[3]" time="2.5"/>
<testcase classname="tests.test_durations_fixture_a.TestGroup" name="test_three" time="0.05"/>
<testcase classname="notebooks.02_multivariate_gaussian.ipynb" name="Cell 0" time="3.0"/>
<testcase classname="notebooks.02_multivariate_gaussian.ipynb" name="Cell 1" time="4.0"/>
<testcase classname="genviz.gaussian" name="genviz.gaussian.mvn_pdf" time="0.2"/>
</testsuite></testsuites>"""


@pytest.fixture
def fixture_module(monkeypatch, tmp_path):
    """A test module that exists (the classname is resolved against the tree)."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_durations_fixture_a.py").write_text("")
    (tmp_path / "genviz").mkdir()
    (tmp_path / "genviz" / "gaussian.py").write_text("")
    monkeypatch.setattr(T, "ROOT", tmp_path)


def test_a_junit_report_is_summed_per_file(fixture_module):
    # hand sums: 1.25 + 2.5 + 0.05 (a class's tests belong to their module), 3 + 4 for the
    # notebook's cells, 0.2 for a doctest of genviz/gaussian.py
    assert T.junit_file_seconds(JUNIT) == {
        "genviz/gaussian.py": 0.2,
        "notebooks/02_multivariate_gaussian.ipynb": 7.0,
        "tests/test_durations_fixture_a.py": 3.8}


def test_the_longest_file_comes_first_and_an_unknown_file_counts_as_the_median():
    seconds = {"a.py": 10.0, "b.py": 300.0, "c.py": 40.0}
    # median of the known: 40 -> new.py ties with c.py and keeps its collection place after it
    assert T.order(["a.py", "c.py", "new.py", "b.py"], seconds) == \
        ["b.py", "c.py", "new.py", "a.py"]
    assert T.order(["x.py", "y.py"], {}) == ["x.py", "y.py"]  # no table: collection order


@given(st.dictionaries(st.sampled_from([f"f{k}.py" for k in range(12)]),
                       st.floats(0, 1e4, allow_nan=False), max_size=12),
       st.permutations([f"f{k}.py" for k in range(12)]))
def test_the_order_is_a_permutation_sorted_by_seconds(seconds, files):
    out = T.order(list(files), seconds)
    assert sorted(out) == sorted(files)
    default = sorted(seconds[f] for f in files if f in seconds)
    keys = [seconds.get(f) for f in out]
    known = [k for k in keys if k is not None]
    assert known == sorted(known, reverse=True)
    if not default:
        assert out == list(files)


def test_items_are_grouped_by_file_and_keep_their_order_within_it():
    class Item:
        def __init__(self, nodeid):
            self.nodeid = nodeid

    items = [Item(n) for n in ("a.py::t1", "b.py::t1", "a.py::t2", "b.py::t2[1]")]
    T.order_items(items, {"b.py": 5.0, "a.py": 1.0})
    assert [i.nodeid for i in items] == ["b.py::t1", "b.py::t2[1]", "a.py::t1", "a.py::t2"]


def test_bad_input_is_refused_by_name():
    with pytest.raises(ValueError, match="files"):
        T.order(["a.py", "a.py"], {})
    with pytest.raises(ValueError, match="nodeid"):
        T.file_of("")
    with pytest.raises(TypeError, match="xml_text"):
        T.junit_file_seconds(b"<testsuites/>")
    with pytest.raises(ValueError, match="xml_text"):
        T.junit_file_seconds("<testsuites>")


def test_an_unreadable_table_gives_collection_order(tmp_path):
    bad = tmp_path / "durations.json"
    bad.write_text("{not json")
    assert T.read_table(bad) == {}
    assert T.read_table(tmp_path / "missing.json") == {}
    bad.write_text(json.dumps({"a.py": 3, "b.py": "slow", "c.py": 2.5}))
    assert T.read_table(bad) == {"a.py": 3.0, "c.py": 2.5}


def test_the_stored_table_names_files_of_this_tree():
    table = T.read_table()
    assert table, "tests/durations.json is missing: run scripts/durations.py --write"
    gone = [f for f in table if not (ROOT / f).exists()]
    assert not gone, (f"tests/durations.json names files that are gone: {gone}; refresh it: "
                      "python scripts/durations.py build/junit.xml --write")

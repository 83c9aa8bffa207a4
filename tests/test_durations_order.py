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


def test_the_notebooks_come_first_and_the_consumers_of_their_runs_last():
    """nbval's runs record the notebooks (tests/nbval_records.py): the notebooks are handed out
    first and the consumers last (xdist queues files on a worker before running them: a
    consumer right after the last notebook still started before queued notebooks); each group
    and the files between keep the longest-first order."""
    seconds = {"consumer.py": 100.0, "long.py": 80.0, "nb/a.ipynb": 9.0, "other.py": 5.0,
               "nb/b.ipynb": 3.0, "late.py": 1.0, "short_consumer.py": 0.5}
    files = sorted(seconds)
    assert T.order(files, seconds, after_notebooks=["consumer.py", "short_consumer.py"]) == \
        ["nb/a.ipynb", "nb/b.ipynb", "long.py", "other.py", "late.py", "consumer.py",
         "short_consumer.py"]
    assert T.order(files, seconds) == sorted(files, key=lambda f: -seconds[f])
    no_notebooks = [f for f in files if not f.endswith(".ipynb")]
    assert T.order(no_notebooks, seconds, after_notebooks=["consumer.py"]) == \
        sorted(no_notebooks, key=lambda f: -seconds[f])


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


# -- the inner loop: tests measured slow are marked slow (`make test-fast` leaves them out) -----

def test_a_junit_report_gives_each_test_its_node_id(fixture_module):
    # pytest writes classname "tests.test_x.TestGroup" for tests/test_x.py::TestGroup::test;
    # the notebook's cells have no node id of a test module and are left out
    assert T.junit_test_seconds(JUNIT) == {
        "tests/test_durations_fixture_a.py::test_one": 1.25,
        "tests/test_durations_fixture_a.py::test_two[3]": 2.5,
        "tests/test_durations_fixture_a.py::TestGroup::test_three": 0.05,
        "genviz/gaussian.py::genviz.gaussian.mvn_pdf": 0.2}


def test_the_node_ids_are_pytests_own(pytester):
    """Oracle: pytest's own node ids, from a real run's JUnit report."""
    pytester.makepyfile(test_nodeids="""
        import pytest
        class TestGroup:
            def test_a(self):
                pass
        @pytest.mark.parametrize("x", ["a.b/c", 2])
        def test_b(x):
            pass
        def f():
            '''
            >>> 1 + 1
            2
            '''
    """)
    result = pytester.runpytest("--doctest-modules", "--junitxml=out.xml", "-p",
                                "no:cacheprovider", "--collect-only", "-q")
    expected = {line.strip() for line in result.outlines if "::" in line}
    pytester.runpytest("--doctest-modules", "--junitxml=out.xml", "-p", "no:cacheprovider")
    old_root = T.ROOT
    try:
        T.ROOT = pytester.path
        got = set(T.junit_test_seconds((pytester.path / "out.xml").read_text()))
    finally:
        T.ROOT = old_root
    assert len(expected) == 4 and got == expected, (got, expected)


def test_a_run_puts_slow_tests_in_and_fast_ones_out(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_a.py").write_text("")
    table = {"tests/test_a.py::kept": 3.0, "tests/test_a.py::now_fast": 2.0,
             "tests/test_gone.py::t": 9.0}
    measured = {"tests/test_a.py::now_fast": 0.1, "tests/test_a.py::new": 0.5,
                "tests/test_a.py::quick": 0.499, "tests/test_a.py::slower": 1.234}
    assert T.update_slow(table, measured, 0.5, root=tmp_path) == {
        "tests/test_a.py::kept": 3.0,       # not measured (left out of the run): kept
        "tests/test_a.py::new": 0.5,        # at the threshold: slow
        "tests/test_a.py::slower": 1.23}    # (the file of test_gone.py is gone: dropped)
    with pytest.raises(ValueError, match="threshold"):
        T.update_slow({}, {}, 0)
    with pytest.raises(ValueError, match="threshold"):
        T.update_slow({}, {}, float("nan"))


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    root = tmp_path_factory.mktemp("tree")
    (root / "tests").mkdir()
    (root / "tests" / "test_a.py").touch()
    return root


@given(table=st.dictionaries(st.sampled_from([f"tests/test_a.py::t{k}" for k in range(20)]),
                             st.floats(0, 100, allow_nan=False), max_size=20),
       measured=st.dictionaries(st.sampled_from([f"tests/test_a.py::t{k}" for k in range(20)]),
                                st.floats(0, 100, allow_nan=False), max_size=20),
       threshold=st.floats(0.01, 10))
def test_after_a_run_its_tests_are_listed_exactly_when_slow(tree, table, measured, threshold):
    out = T.update_slow(table, measured, threshold, root=tree)
    for nodeid, s in measured.items():
        assert (nodeid in out) == (s >= threshold)
    for nodeid in set(table) - set(measured):
        assert out[nodeid] == table[nodeid]
    # a tree without the file keeps only what this run measured slow
    assert set(T.update_slow(table, measured, threshold, root=tree / "tests")) == \
        {k for k, s in measured.items() if s >= threshold}


def test_listed_tests_are_marked_and_make_test_fast_leaves_them_out(pytester):
    """The hook end to end: a conftest like the repository's marks the listed test, and
    `-m "not slow"` (make test-fast) deselects it while `make test` would run it."""
    pytester.makeconftest(f"""
        import sys, pytest
        sys.path.insert(0, {str(ROOT / "scripts")!r})
        import durations
        @pytest.hookimpl(tryfirst=True)
        def pytest_collection_modifyitems(config, items):
            durations.mark_slow(items, {{"test_m.py::test_listed": 2.0}}, pytest.mark.slow)
        def pytest_configure(config):
            config.addinivalue_line("markers", "slow: slow")
    """)
    pytester.makepyfile(test_m="""
        def test_listed():
            pass
        def test_other():
            pass
    """)
    pytester.runpytest("-m", "not slow", "-p", "no:cacheprovider").assert_outcomes(passed=1,
                                                                                  deselected=1)
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=2)


def test_the_repository_conftest_marks_the_stored_slow_tests():
    import importlib.util

    spec = importlib.util.spec_from_file_location("_root_conftest", ROOT / "conftest.py")
    root_conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(root_conftest)

    class Item:
        def __init__(self, nodeid):
            self.nodeid, self.markers = nodeid, []

        def add_marker(self, m):
            self.markers.append(m)

    slow = T.read_table(T.SLOW_TABLE)
    assert slow, "tests/slow_tests.json is missing: see scripts/durations.py --write-slow"
    listed = next(iter(slow))
    items = [Item(listed), Item("tests/test_x.py::not_listed")]

    class Config:
        class option:
            dist = "no"

    root_conftest.pytest_collection_modifyitems(Config, items)
    assert [m.name for m in items[0].markers] == ["slow"] and items[1].markers == []
    gone = [k for k in slow if not (ROOT / T.file_of(k)).exists()]
    assert not gone, f"tests/slow_tests.json names files that are gone: {gone}"

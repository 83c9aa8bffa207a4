"""benchmarks/run.py (``make bench``) finds its cases: every ``bench_<topic>.py`` that defines
``CASES``, and none of the benchmarks that have their own command line (bench_class.py,
bench_grading.py), which crashed ``make bench`` when it imported them and asked for CASES."""

from __future__ import annotations

import pathlib
import sys
from file_modules import load_file

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _run_module():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    return load_file(ROOT / "benchmarks" / "run.py", "bench_run")


def test_only_files_defining_cases_are_case_modules():
    run = _run_module()
    kinds = {p.stem: run.is_case_module(p.read_text())
             for p in sorted((ROOT / "benchmarks").glob("bench_*.py"))}
    assert not kinds["bench_class"] and not kinds["bench_grading"]
    assert kinds["bench_kde"] and kinds["bench_gda"] and kinds["bench_spam"]
    assert run.is_case_module("CASES = []\n") and run.is_case_module("CASES: list = []\n")
    assert not run.is_case_module("def main():\n    CASES = []\n")  # only at module level


def test_every_case_module_is_collected_and_nothing_else(tmp_path, monkeypatch):
    run = _run_module()
    cases = run.bench_cases()
    topics = {topic for topic, _ in cases}
    assert {"gaussian", "gda", "kde", "knn", "naive_bayes", "spam", "frames"} <= topics
    assert "class" not in topics and "grading" not in topics
    kde = [c for t, c in cases if t == "kde"]
    assert kde and all(c in kde or "kde" in c.name for c in run.select(cases, "kde"))
    # a planted benchmark with its own command line (no CASES) is skipped, not imported
    (tmp_path / "bench_planted.py").write_text("raise SystemExit('imported')\n")
    (tmp_path / "bench_kde.py").write_text((ROOT / "benchmarks" / "bench_kde.py").read_text())
    monkeypatch.setattr(run, "HERE", tmp_path)
    assert {t for t, _ in run.bench_cases()} == {"kde"}


def test_a_name_selects_its_files_without_importing_any(tmp_path, monkeypatch):
    """``run.py NAME`` reads the bench files' literal texts to choose which to import: a case
    name (or part of one), a topic, or nothing (every file defining CASES)."""
    run = _run_module()
    assert list(run.case_files("gaussian_explorer(surface=False)")) == ["gaussian"]
    # "kde" is a topic and part of a naive Bayes case's name (kde_nb_explorer): both run
    assert list(run.case_files("kde")) == ["kde", "naive_bayes"]
    assert list(run.case_files("GaussianNB fit + predict_proba")) == ["naive_bayes"]
    assert list(run.case_files("recorded frame")) == ["frames"]  # a literal part of an f-string
    assert list(run.case_files("KDE explorer, h")) == ["frames"]  # ... and the label it formats
    assert list(run.case_files("learning_curve_explorer")) == ["learning_curves"]
    assert list(run.case_files("no such case anywhere")) == []
    assert {"class", "grading"}.isdisjoint(run.case_files(""))
    # planted files: the one whose case is named is imported; the other would fail if it were
    (tmp_path / "bench_wanted.py").write_text(
        "from harness import LazyCase, TimingCase\n"
        "def boom():\n    raise SystemExit('built before it ran')\n"
        "CASES = [TimingCase('laplace smoothing, alpha sweep', lambda: None),\n"
        "         LazyCase('laplace lazily', boom)]\n")
    (tmp_path / "bench_other.py").write_text("raise SystemExit('imported')\nCASES = ['laplace']\n")
    monkeypatch.setattr(run, "HERE", tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert list(run.case_files("laplace smoothing")) == ["wanted"]
    cases = run.bench_cases("laplace smoothing")  # bench_other is never imported
    assert [c.name for c in run.select(cases, "laplace smoothing")] == [
        "laplace smoothing, alpha sweep"]
    assert [c.name for c in run.select(cases, "laplace lazily")] == ["laplace lazily"]  # unbuilt


def test_run_with_one_name_imports_no_other_bench_module():
    """In a fresh interpreter, selecting one case of bench_naive_bayes.py imports that file only,
    and importing it builds none of its data (the sparse corpus is made when its case runs)."""
    import subprocess

    code = (
        "import importlib.util, sys\n"
        f"sys.path.insert(0, {str(ROOT / 'benchmarks')!r})\n"
        f"spec = importlib.util.spec_from_file_location('bench_run', {str(ROOT / 'benchmarks' / 'run.py')!r})\n"
        "run = importlib.util.module_from_spec(spec); spec.loader.exec_module(run)\n"
        "cases = run.select(run.bench_cases('GaussianNB fit'), 'GaussianNB fit')\n"
        "print(sorted(m for m in sys.modules if m.startswith('bench_')), [c.name for c in cases])\n"
        "print(sys.modules['bench_naive_bayes']._docs.cache_info().currsize)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT, env={**__import__("os").environ, "MPLBACKEND": "Agg"}).stdout
    modules, built = out.strip().splitlines()
    assert modules == ("['bench_naive_bayes'] "
                       "['GaussianNB fit + predict_proba, penguins (342 x 4)']")
    assert built == "0"

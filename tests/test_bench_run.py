"""benchmarks/run.py (``make bench``) finds its cases: every ``bench_<topic>.py`` that defines
``CASES``, and none of the benchmarks that have their own command line (bench_class.py,
bench_grading.py), which crashed ``make bench`` when it imported them and asked for CASES."""

from __future__ import annotations

import importlib.util
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _run_module():
    sys.path.insert(0, str(ROOT / "benchmarks"))
    spec = importlib.util.spec_from_file_location("bench_run", ROOT / "benchmarks" / "run.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


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

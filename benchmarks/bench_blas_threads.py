#!/usr/bin/env python
"""BLAS threads: the default number against one, on notebook 10's logistic-regression fits.

numpy's and scipy's wheels each bring their own OpenBLAS; with more than one thread their pools
spin against each other, and the small Cholesky factorisations of
:class:`genviz.logistic.LogisticRegression`'s Newton steps become up to 100 times slower
(scipy/scipy#15050, OpenMathLib/OpenBLAS#731). The Makefile and the hub configurations
therefore run every kernel with one BLAS thread. This measures both settings in the same run,
each in a fresh process (the variables are read when OpenBLAS loads):

- notebook 10's learning curves (``nb_vs_logistic_curves``, 300 presence features, its nine
  sizes), with ``REPS`` repetitions instead of the notebook's 10;
- one fit at d = 300 for growing n (how it grows with n).

Usage: ``python benchmarks/bench_blas_threads.py [--repeats K] [--reps R]`` writes
``benchmarks/blas_threads.md``. Timings are measurements, never assertions.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")

CHILD = r"""
import json, sys, time
import numpy as np
from genviz.datasets import spam_assassin
from genviz.logistic import LogisticRegression
from genviz.model_selection import stratified_split
from genviz.nb_vs_logistic import nb_vs_logistic_curves, presence_features
from genviz.text import bag_of_words, build_vocabulary
reps, ns = int(sys.argv[1]), [int(v) for v in sys.argv[2].split(",")]
corpus = spam_assassin()
train, test = stratified_split(corpus.label, test_size=0.3, rng=0)
y_train, y_test = corpus.label[train], corpus.label[test]
vocab = build_vocabulary(corpus.text[train], min_count=2, stop_words="english")
X_train = bag_of_words(corpus.text[train], vocab)
X_test = bag_of_words(corpus.text[test], vocab)
sizes = [10, 20, 40, 80, 160, 320, 640, 1280, len(train)]
t = time.perf_counter()
curves = nb_vs_logistic_curves(X_train, y_train, X_test, y_test, sizes, reps, rng=0,
                               n_words=300, alpha=1.0, l2=1.0)
out = {"curves_s": time.perf_counter() - t,
       "errors": float(curves.lr_errors.sum() + curves.nb_errors.sum())}
F, _, _ = presence_features(X_train, X_test, 300)
F = np.asarray(F.todense()) if hasattr(F, "todense") else np.asarray(F)
order = np.random.default_rng(0).permutation(F.shape[0])
F, y = F[order], (y_train[order] == "spam").astype(int)
fits = {}
for n in ns:
    t = time.perf_counter()
    LogisticRegression(l2=1.0).fit(F[:n], y[:n])
    fits[n] = time.perf_counter() - t
out["fit_s"] = fits
print("BENCH " + json.dumps(out))
"""


def run_once(threads: str | None, reps: int, ns: list[int]) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in VARS}
    if threads is not None:
        env.update({k: threads for k in VARS})
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-c", CHILD, str(reps), ",".join(map(str, ns))],
                          env=env, capture_output=True, text=True, timeout=3600, check=True)
    line = [x for x in done.stdout.splitlines() if x.startswith("BENCH ")][-1]
    return json.loads(line[6:])


def p95(values):
    s = sorted(values)
    return s[min(len(s) - 1, round(0.95 * (len(s) - 1)))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3, help="processes per setting")
    parser.add_argument("--reps", type=int, default=2, help="repetitions of the curves")
    args = parser.parse_args(argv)
    ns = [40, 320, 3980]
    results = {"default": [], "one": []}
    for _ in range(args.repeats):  # interleaved, so a change of load hits both settings
        results["default"].append(run_once(None, args.reps, ns))
        results["one"].append(run_once("1", args.reps, ns))
    same = len({r["errors"] for rs in results.values() for r in rs}) == 1
    load = os.getloadavg()[0]
    rows = ["# BLAS threads: the default against one thread",
            "",
            f"{datetime.date.today()} · {platform.machine()} · {os.cpu_count()} cores · load "
            f"{load:.1f} at the end · `python benchmarks/bench_blas_threads.py --repeats "
            f"{args.repeats} --reps {args.reps}` (each setting in {args.repeats} fresh "
            f"processes, interleaved). Same test errors in every run: {same}.",
            "",
            "| what | default threads median s | p95 s | one thread median s | p95 s | "
            "default / one |",
            "|---|---|---|---|---|---|"]
    cases = [(f"notebook 10's learning curves, {args.reps} repetitions x 9 sizes, d = 300",
              lambda r: r["curves_s"])]
    cases += [(f"one LogisticRegression fit, d = 300, n = {n}",
               (lambda n: lambda r: r["fit_s"][str(n)])(n)) for n in ns]
    for name, get in cases:
        a = [get(r) for r in results["default"]]
        b = [get(r) for r in results["one"]]
        rows.append(f"| {name} | {statistics.median(a):.3f} | {p95(a):.3f} | "
                    f"{statistics.median(b):.3f} | {p95(b):.3f} | "
                    f"{statistics.median(a) / statistics.median(b):.1f} |")
    rows += ["", "The default is what a process gets with none of OPENBLAS_NUM_THREADS, "
             "OMP_NUM_THREADS, MKL_NUM_THREADS set (one thread per core, in each of numpy's "
             "and scipy's OpenBLAS). Growth with n: the fit's cost is n d^2 for the Hessian "
             "plus d^3 for its factorisation, per Newton step."]
    text = "\n".join(rows) + "\n"
    (HERE / "blas_threads.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

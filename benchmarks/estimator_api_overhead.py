"""What the scikit-learn estimator API (genviz/_estimator.py, issue #25) costs on fit + predict.

Times ``fit(X, y)`` then ``predict(X)`` of every estimator on a small problem (where a fixed
per-call overhead shows most: n = 200 rows, 2 features; counts for the text models, categories
for CategoricalNB) in two trees: this checkout and a git revision before the change (default
7aacf35), each in its own fresh interpreter, the two alternated round by round so that machine
noise hits both alike. Prints a Markdown table (median and p95 in microseconds, ratio after /
before); ``--write`` stores it in benchmarks/estimator_api.md.

    python benchmarks/estimator_api_overhead.py [--before REV] [--rounds 5] [--write]
"""

from __future__ import annotations

import argparse
import json
import pathlib
import subprocess
import sys
import tarfile
import tempfile
import io

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]

WORKER = r"""
import json, sys, time
import numpy as np
from genviz.gda import GDA
from genviz.kde_classifier import KDEClassifier
from genviz.knn import KNNClassifier, KNNRegressor
from genviz.logistic import LogisticRegression
from genviz.naive_bayes import KDENB, BernoulliNB, CategoricalNB, GaussianNB, MultinomialNB

rng = np.random.default_rng(0)
n = 200
y = np.arange(n) % 2
X = rng.normal(size=(n, 2)) + 0.8 * y[:, None]
C = rng.poisson(np.where(y[:, None] == 1, [1.0, 2.0, 3.0], [3.0, 2.0, 1.0])).astype(float)
T = np.where(rng.random((n, 2)) < 0.3 + 0.4 * y[:, None], "a", "b").astype(object)
cases = {
    "GDA": (GDA, X, y), "LogisticRegression": (LogisticRegression, X, y),
    "KNNClassifier": (KNNClassifier, X, y), "KNNRegressor": (KNNRegressor, X, X[:, 0]),
    "GaussianNB": (GaussianNB, X, y), "KDENB": (KDENB, X, y),
    "KDEClassifier": (KDEClassifier, X, y), "MultinomialNB": (MultinomialNB, C, y),
    "BernoulliNB": (BernoulliNB, C, y), "CategoricalNB": (CategoricalNB, T, y),
}
repeats = int(sys.argv[1])
out = {}
for name, (cls, A, b) in cases.items():
    for _ in range(3):  # warm up
        cls().fit(A, b).predict(A)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        cls().fit(A, b).predict(A)
        times.append(time.perf_counter() - t)
    out[name] = times
print(json.dumps(out))
"""


def export(rev: str, dest: pathlib.Path) -> pathlib.Path:
    """The genviz package of ``rev`` unpacked under ``dest``."""
    blob = subprocess.run(["git", "archive", rev, "genviz"], cwd=ROOT, check=True,
                          capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(blob)) as tar:
        tar.extractall(dest, filter="data")
    return dest


def run(tree: pathlib.Path, repeats: int) -> dict:
    env = {"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"}
    res = subprocess.run([sys.executable, "-c", WORKER, str(repeats)], env=env, check=True,
                         capture_output=True, text=True)
    return json.loads(res.stdout)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="7aacf35")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=40)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        before_tree = export(args.before, pathlib.Path(tmp))
        times = {"before": {}, "after": {}}
        for _ in range(args.rounds):
            for label, tree in (("before", before_tree), ("after", ROOT)):
                for name, t in run(tree, args.repeats).items():
                    times[label].setdefault(name, []).extend(t)
    rows = ["| estimator (fit + predict, n = 200) | before median µs | after median µs | "
            "after / before | before p95 µs | after p95 µs |", "|---|---:|---:|---:|---:|---:|"]
    for name in times["before"]:
        b = np.array(times["before"][name]) * 1e6
        a = np.array(times["after"][name]) * 1e6
        rows.append(f"| {name} | {np.median(b):.0f} | {np.median(a):.0f} | "
                    f"{np.median(a) / np.median(b):.2f} | {np.percentile(b, 95):.0f} | "
                    f"{np.percentile(a, 95):.0f} |")
    n = args.rounds * args.repeats
    text = (f"# The cost of the scikit-learn estimator API (issue #25)\n\n"
            f"`python benchmarks/estimator_api_overhead.py --write`: fit + predict of each "
            f"estimator, {n} timings per tree ({args.rounds} alternating rounds of "
            f"{args.repeats} in fresh interpreters), before = genviz at {args.before}, after = "
            f"this checkout. Machine: 2 cores, shared.\n\n" + "\n".join(rows) + "\n")
    print(text)
    if args.write:
        (ROOT / "benchmarks" / "estimator_api.md").write_text(text)


if __name__ == "__main__":
    main()

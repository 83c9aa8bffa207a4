"""Density estimation: the CV sweep against brute force and scikit-learn; explorer updates.

The CV sweep (n = 1000 claw draws, 100 bandwidths) is compared with
* the exact vectorised O(n^2)-per-bandwidth sweep (``cv_curve_bruteforce``), all 100 bandwidths;
* a literal leave-one-out loop (re-fit without x_i, evaluate at x_i) on 5 of the 100 bandwidths:
  multiply its time by 20 for the full grid (cost is linear in the number of bandwidths);
* scikit-learn's ``GridSearchCV(KernelDensity(), {"bandwidth": ...}, cv=LeaveOneOut())`` on 2 of
  the 100 bandwidths: multiply by 50 (1000 fits and scores per bandwidth; linear in the grid).

Run as a script (``PYTHONPATH=. python benchmarks/bench_kde.py [max_n]``) it writes
``benchmarks/kde_sweep.md``: the sweep at n = 10^3..10^6 x 100 bandwidths, both criteria, time,
tracemalloc peak, the exact and scikit-learn baselines and the deviation on adversarial samples.
"""

import matplotlib.pyplot as plt
import numpy as np

from harness import ExplorerCase, TimingCase, naive_png, sweep_moves
from genviz.datasets import auto_mpg
from genviz.joint import dimensionality_curve
from genviz.kde import (claw_pdf, cv_curve, cv_curve_bruteforce, histogram, kde2d_grid, kde_pdf,
                        kernel_pdf, rule_of_thumb, sample_claw)
from genviz.widgets.joint import dimensionality_explorer
from genviz.widgets.kde import (bandwidth_explorer, histogram_explorer, kde2d_explorer,
                                kde_explorer)

X = sample_claw(1000, 0)
HS = np.geomspace(0.005, 1.5, 100)
CARS = auto_mpg()
_T = np.linspace(-3, 3, 400)


def literal_loop(hs):
    for h in hs:
        np.mean([np.log(kde_pdf([X[i]], np.delete(X, i), h)[0]) for i in range(X.size)])


def grid_search(hs):
    from sklearn.model_selection import GridSearchCV, LeaveOneOut
    from sklearn.neighbors import KernelDensity
    GridSearchCV(KernelDensity(kernel="gaussian"), {"bandwidth": list(hs)},
                 cv=LeaveOneOut(), n_jobs=1).fit(X[:, None])


def naive_histogram(width, origin):
    d = X[:200]
    fig, ax = plt.subplots(figsize=(7.0, 4.0))
    edges = origin + width * np.arange(np.floor((d.min() - origin) / width),
                                       np.floor((d.max() - origin) / width) + 2)
    ax.hist(d, bins=edges, density=True)
    ax.plot(_T, claw_pdf(_T), "k")
    ax.plot(d, np.zeros_like(d), "|")
    naive_png(fig)


def naive_kde(h, kernel):
    d = X[:20]
    fig, ax = plt.subplots(figsize=(7.0, 4.0))
    bumps = kernel_pdf((_T[None, :] - d[:, None]) / h, kernel) / (h * d.size)
    for b in bumps:
        ax.plot(_T, b, color="orange", lw=1)
    ax.plot(_T, bumps.sum(axis=0), lw=2.4)
    ax.plot(_T, claw_pdf(_T), "k--")
    naive_png(fig)


def naive_bandwidth(n, h):
    d = sample_claw(n, 0)
    loo, ls = cv_curve(d, HS, "loo-likelihood"), cv_curve(d, HS, "lscv")
    fig, (ax, cax) = plt.subplots(1, 2, figsize=(11.0, 4.0))
    ax.plot(_T, claw_pdf(_T), "k--")
    ax.plot(_T, kde_pdf(_T, d, h))
    cax.semilogx(HS, loo)
    cax.twinx().semilogx(HS, ls)
    cax.axvline(h)
    cax.axvline(rule_of_thumb(d, "silverman"), ls=":")
    naive_png(fig)


W_MPG = CARS.X[:, [4, 0]]
_XS = np.linspace(W_MPG[:, 0].min() - 400, W_MPG[:, 0].max() + 400, 120)
_YS = np.linspace(W_MPG[:, 1].min() - 4, W_MPG[:, 1].max() + 4, 120)
_H0 = np.array([rule_of_thumb(W_MPG[:, k], "scott") for k in range(2)])


def naive_kde2d(scale):
    Z = kde2d_grid(_XS, _YS, W_MPG, scale * _H0)
    fig, ax = plt.subplots(figsize=(6.4, 4.8))
    ax.imshow(Z, origin="lower", aspect="auto", extent=(_XS[0], _XS[-1], _YS[0], _YS[-1]))
    ax.contour(_XS, _YS, Z, levels=Z.max() * np.array([0.1, 0.3, 0.5, 0.7, 0.9]))
    ax.scatter(W_MPG[:, 0], W_MPG[:, 1], s=6)
    naive_png(fig)


def naive_dimensionality(d, n):
    c = dimensionality_curve(CARS.records[np.random.default_rng(0).permutation(392)[:n]],
                             CARS.record_names)
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(11.0, 4.0))
    ax.semilogy(c["d"], c["cells"], "o-")
    ax.semilogy(c["d"], c["occupied"], "s-")
    ax.plot(c["d"], np.full(8, n), "--")
    ax.plot([d], [c["cells"][d - 1]], "o", ms=14, mfc="none")
    ax2.plot(c["d"], c["empty_fraction"], "o-")
    ax2.plot([d], [c["empty_fraction"][d - 1]], "o", ms=14, mfc="none")
    naive_png(fig)


CASES = [
    TimingCase("KDE LOO-likelihood CV sweep, n=1000, 100 h (cv_curve)",
               lambda: cv_curve(X, HS, "loo-likelihood"),
               lambda: cv_curve_bruteforce(X, HS, "loo-likelihood"),
               baseline_name="exact O(n^2) vectorised sweep", repeats=10, baseline_repeats=3),
    TimingCase("KDE least-squares CV sweep, n=1000, 100 h (cv_curve)",
               lambda: cv_curve(X, HS, "lscv"),
               lambda: cv_curve_bruteforce(X, HS, "lscv"),
               baseline_name="exact O(n^2) vectorised sweep", repeats=10, baseline_repeats=3),
    TimingCase("KDE LOO-likelihood CV sweep vs literal LOO loop (baseline: 5 of 100 h, x20 for all)",
               lambda: cv_curve(X, HS, "loo-likelihood"), lambda: literal_loop(HS[::20]),
               baseline_name="literal leave-one-out loop, 5 h", repeats=10, baseline_repeats=1),
    TimingCase("KDE LOO-likelihood CV sweep vs sklearn (baseline: 2 of 100 h, x50 for all)",
               lambda: cv_curve(X, HS, "loo-likelihood"), lambda: grid_search(HS[[40, 60]]),
               baseline_name="GridSearchCV(KernelDensity, LeaveOneOut), 2 h", repeats=10,
               baseline_repeats=1),
    ExplorerCase("histogram_explorer (width, origin)",
                 lambda: histogram_explorer(X[:200], true_pdf=claw_pdf, x_range=(-3, 3)),
                 sweep_moves({"width": np.round(np.linspace(0.05, 1.0, 10), 2),
                              "origin": np.round(np.linspace(0.0, 1.0, 10), 2)}, 60),
                 naive_histogram),
    ExplorerCase("kde_explorer (h, kernel; 20 bumps)",
                 lambda: kde_explorer(X[:20], true_pdf=claw_pdf, x_range=(-3, 3), ymax=0.9),
                 sweep_moves({"h": np.round(np.linspace(0.05, 1.5, 10), 2),
                              "kernel": ["gaussian", "box", "epanechnikov", "triangular"]}, 60),
                 naive_kde),
    ExplorerCase("bandwidth_explorer (h moves; n=1000)", lambda: bandwidth_explorer(),
                 sweep_moves({"h": np.round(np.geomspace(0.006, 0.9, 12), 4)}, 60),
                 naive_bandwidth),
    ExplorerCase("bandwidth_explorer (n moves: resample + both CV sweeps)",
                 lambda: bandwidth_explorer(),
                 sweep_moves({"n": [500, 1000, 1500, 2000]}, 50), naive_bandwidth),
    ExplorerCase("kde2d_explorer (auto mpg weight vs mpg)",
                 lambda: kde2d_explorer(W_MPG, labels=("weight (lbs)", "mpg")),
                 sweep_moves({"scale": np.round(np.linspace(0.2, 3.0, 12), 2)}, 60), naive_kde2d),
    ExplorerCase("dimensionality_explorer (d, n)",
                 lambda: dimensionality_explorer(CARS.records, CARS.record_names),
                 sweep_moves({"d": list(range(1, 9)), "n": [50, 100, 200, 392]}, 60),
                 naive_dimensionality),
]


# -- the CV sweep's scaling table (benchmarks/kde_sweep.md) --------------------------------------
# python benchmarks/bench_kde.py [max_n]   (PYTHONPATH=. from the repository root)
def _timed(fn, repeats, cpu=None):
    """Median and p95 wall-clock seconds; with ``cpu`` (a list) also appends the median CPU
    seconds of this process (less sensitive to the other jobs on a shared machine)."""
    import time
    times, cpus = [], []
    for _ in range(repeats):
        t, c = time.perf_counter(), time.process_time()
        fn()
        times.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    if cpu is not None:
        cpu.append(float(np.median(cpus)))
    return float(np.median(times)), float(np.percentile(times, 95))


def _peak_mb(fn):
    """Peak of the memory allocated while ``fn`` runs, by tracemalloc (numpy registers its
    array buffers with tracemalloc, so they are counted), in MB."""
    import tracemalloc
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def _adversarial():
    rng = np.random.default_rng(1)
    out = {"normal + one outlier at 25": np.append(rng.standard_normal(999), 25.0),
           "ties (integers 0..3)": rng.integers(0, 4, 1000).astype(float),
           "clusters 1e6 apart": np.repeat([0.0, 1e6, 3e6], 334)[:1000] + rng.standard_normal(1000),
           "Cauchy": rng.standard_cauchy(1000),
           "spread 1e-9 on an offset 1e3": 1e3 + 1e-9 * rng.standard_normal(1000)}
    return out


def _lscv_terms(x, h):
    d = (x[:, None] - x[None, :]) / h
    n = x.size
    cross = np.exp(-0.25 * d * d).sum() / (2 * np.sqrt(np.pi) * h * n * n)
    loo = (np.exp(-0.5 * d * d).sum() - n) / (np.sqrt(2 * np.pi) * h * n * (n - 1))
    return cross + 2 * loo


def sweep_table(max_n=1_000_000):
    from sklearn.model_selection import GridSearchCV, LeaveOneOut
    from sklearn.neighbors import KernelDensity

    methods = ("loo-likelihood", "lscv")
    rows, devs, base_exact, sk_base = [], [], {}, float("nan")
    ns = [n for n in (1_000, 10_000, 100_000, 1_000_000) if n <= max_n]
    for n in ns:
        x = sample_claw(n, 0)
        for m in methods:
            reps = {1_000: 7, 10_000: 5, 100_000: 3}.get(n, 1)
            cpu = []
            if n < 1_000_000:
                med, p95 = _timed(lambda: cv_curve(x, HS, m), reps, cpu)
                mem = _peak_mb(lambda: cv_curve(x, HS, m))
            else:  # one run, traced (tracemalloc adds a little time)
                import time
                t, c = time.perf_counter(), time.process_time()
                mem = _peak_mb(lambda: cv_curve(x, HS, m))
                med = p95 = time.perf_counter() - t
                cpu.append(time.process_time() - c)
            # exact O(n^2) sweep: all 100 h at n = 1e3, 5 h x 20 at 1e4, n^2-extrapolated beyond
            if n <= 1_000:
                exact, _ = _timed(lambda: cv_curve_bruteforce(x, HS, m), 2)
                exact_note = "measured"
                dev = np.abs(cv_curve(x, HS, m) - cv_curve_bruteforce(x, HS, m))
                if m == "lscv":
                    dev = dev / np.array([_lscv_terms(x, h) for h in HS])
                devs.append((f"claw n = {n}, 100 h", m, float(np.max(dev))))
            elif n <= 10_000:
                sub = HS[::20]
                t5, _ = _timed(lambda: cv_curve_bruteforce(x, sub, m), 1)
                exact, exact_note = t5 * 20, "5 h measured, x20"
                dev = np.abs(cv_curve(x, sub, m) - cv_curve_bruteforce(x, sub, m))
                if m == "lscv":
                    dev = dev / np.array([_lscv_terms(x, h) for h in sub])
                devs.append((f"claw n = {n}, 5 h", m, float(np.max(dev))))
            else:
                exact, exact_note = base_exact[m] * (n / 10_000) ** 2, "n^2-extrapolated from 1e4"
            if n == 10_000:
                base_exact[m] = exact
            # scikit-learn GridSearchCV(KernelDensity, LeaveOneOut): the likelihood criterion only
            if m == "loo-likelihood":
                if n <= 1_000:
                    hs2 = HS[[40, 60]]
                    t2, _ = _timed(lambda: GridSearchCV(KernelDensity(), {"bandwidth": list(hs2)},
                                                        cv=LeaveOneOut()).fit(x[:, None]), 1)
                    sk = sk_base = t2 * 50
                    sk_note = "2 h measured, x50"
                else:
                    sk, sk_note = sk_base * (n / 1_000) ** 2, "n^2-extrapolated from 1e3"
            else:
                sk, sk_note = float("nan"), "no LSCV scorer"
            rows.append((n, m, med, p95, cpu[0], mem, exact, exact_note, sk, sk_note))
            print(rows[-1], flush=True)
    for name, data in _adversarial().items():
        hs = np.geomspace(1e-3, 10, 25) * (np.std(data) or 1.0)
        for m in methods:
            dev = np.abs(cv_curve(data, hs, m) - cv_curve_bruteforce(data, hs, m))
            if m == "lscv":  # relative to the size of its two terms (the stated bound's scale)
                dev = dev / np.array([_lscv_terms(data, h) for h in hs])
            devs.append((name + ", n = 1000, 25 h", m, float(np.max(dev))))
    write_table(rows, devs)


def write_table(rows, devs):
    """benchmarks/kde_sweep.md from the measured rows and deviations."""
    import os
    import pathlib
    import platform
    methods = ("loo-likelihood", "lscv")
    lines = ["# KDE cross-validation sweep: time, memory, accuracy",
             "",
             f"`python benchmarks/bench_kde.py` ({platform.python_implementation()} "
             f"{platform.python_version()}, {os.cpu_count()} cores shared with ~6 other jobs, load "
             "average ~7: wall-clock numbers are inflated and noisy; CPU s, the median process time, "
             "is closer to what a quiet machine's wall clock shows). Claw samples, 100 bandwidths "
             "log-spaced 0.005..1.5, Gaussian kernel. Peak MB: tracemalloc peak over one sweep "
             "(numpy registers its buffers with tracemalloc, so they are counted). p95 of 7/5/3 "
             "repeats at 1e3/1e4/1e5; at 1e6 one run, with tracemalloc on.",
             "",
             "| n | criterion | median s | p95 s | CPU s | peak MB | exact O(n^2) s | (how) | exact / ours | sklearn GridSearchCV s | (how) | sklearn / ours |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for n, m, med, p95, cpu, mem, ex, exn, sk, skn in rows:
        skr = f"{sk / med:.0f}x" if sk == sk else "—"
        lines.append(f"| {n:,} | {m} | {med:.3g} | {p95:.3g} | {cpu:.3g} | {mem:.3g} | {ex:.3g} | "
                     f"{exn} | {ex / med:.0f}x | {sk:.3g} | {skn} | {skr} |")
    lines += ["", "Growth with n (median time ratio per 10x n):", ""]
    for m in methods:
        t = [r[2] for r in rows if r[1] == m]
        lines.append(f"- {m}: " + ", ".join(f"x{b / a:.1f}" for a, b in zip(t[:-1], t[1:])))
    lines += ["", "## Deviation from the exact (literal, log-space) sweep `cv_curve_bruteforce`",
              "", "LOO likelihood: absolute deviation of the mean log-likelihood (stated bound 1e-8); "
              "LSCV: absolute deviation divided by int f^2 + (2/n) sum f_{-i}(x_i) (stated bound 1e-9).",
              "", "| sample | criterion | max deviation over the h grid |", "|---|---|---|"]
    for name, m, dev in devs:
        lines.append(f"| {name} | {m} | {dev:.2g} |")
    text = "\n".join(lines) + "\n"
    (pathlib.Path(__file__).resolve().parent / "kde_sweep.md").write_text(text)
    print(text)


if __name__ == "__main__":
    import sys
    sweep_table(int(float(sys.argv[1])) if len(sys.argv) > 1 else 1_000_000)

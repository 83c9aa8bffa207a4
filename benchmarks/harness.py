"""Benchmark cases and timing (used by benchmarks/run.py).

Each ``benchmarks/bench_<topic>.py`` defines ``CASES``, a list of :class:`ExplorerCase` and
:class:`TimingCase`. Explorer cases time what a slider move costs on the kernel side on the real
interactive path: ipympl's canvas (as in JupyterLab with ``%matplotlib widget``), with a front
end "connected" so that ipympl encodes and ships only the changed pixels — the update, the
redraw (blit, or a full draw when the axes changed) and the PNG diff sent to the browser. The
naive approach is timed in the same run on the same sequence of values: what an ``interact``
user typically writes, a new figure per update drawn from scratch and encoded as a full PNG for
the inline backend.
"""

from __future__ import annotations

import dataclasses
import gc
import io
import time
from typing import Callable

import numpy as np


@dataclasses.dataclass
class ExplorerCase:
    name: str
    make: Callable  # () -> Explorer
    moves: list  # [(control_name, value), ...] applied in order (>= 50)
    naive: Callable  # (**values) -> None: draw everything from scratch, encode a PNG
    kind: str = "2-D"  # "2-D" or "3-D" (targets differ)


@dataclasses.dataclass
class TimingCase:
    name: str
    fn: Callable  # () -> None
    baseline: Callable | None = None  # () -> None, the naive approach, same run
    baseline_name: str = "naive"
    repeats: int = 20
    baseline_repeats: int | None = None


def sweep_moves(controls: dict, n_total: int = 60) -> list:
    """Moves that walk each (name, values) in turn, there and back, ``n_total`` in all."""
    moves = []
    names = list(controls)
    while len(moves) < n_total:
        for name in names:
            vals = list(controls[name])
            for v in vals + vals[::-1]:
                moves.append((name, v))
    return moves[:n_total]


def naive_png(fig) -> None:
    import matplotlib.pyplot as plt

    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)


def stats(times_s) -> dict:
    t = np.asarray(times_s) * 1000.0
    return {"median": float(np.median(t)), "p95": float(np.percentile(t, 95)), "n": len(t)}


def time_explorer(case: ExplorerCase) -> dict:
    explorer = case.make()
    canvas = explorer.view.fig.canvas
    if hasattr(canvas, "syncing_data_url"):
        canvas.syncing_data_url = False  # as after the browser's "initialized" message
    canvas.draw()  # the first paint the browser asks for
    times, modes = [], {"blit": 0, "full": 0}
    gc.collect()
    for name, value in case.moves:
        t0 = time.perf_counter()
        explorer.controls[name].value = value  # a full redraw draws at once: front end "up"
        times.append(time.perf_counter() - t0)
        modes[explorer.view.last_redraw or "full"] += 1
    ours = stats(times)
    values = {k: c.value for k, c in explorer.controls.items()}
    naive_times = []
    for name, value in case.moves:
        values[name] = value
        t0 = time.perf_counter()
        case.naive(**values)
        naive_times.append(time.perf_counter() - t0)
    explorer.close()
    naive = stats(naive_times)
    return {"case": case.name, "kind": case.kind, "ours": ours, "naive": naive,
            "ratio": naive["median"] / ours["median"], "modes": modes}


def time_case(case: TimingCase) -> dict:
    def run(fn, n):
        fn()  # warm-up
        out = []
        for _ in range(n):
            t0 = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t0)
        return stats(out)

    ours = run(case.fn, case.repeats)
    row = {"case": case.name, "ours": ours, "naive": None, "ratio": None,
           "baseline_name": case.baseline_name}
    if case.baseline is not None:
        base = run(case.baseline, case.baseline_repeats or case.repeats)
        row["naive"] = base
        row["ratio"] = base["median"] / ours["median"]
    return row

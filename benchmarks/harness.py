"""Benchmark cases and timing (used by benchmarks/run.py).

Each ``benchmarks/bench_<topic>.py`` defines ``CASES``, a list of :class:`ExplorerCase` and
:class:`TimingCase` (or :class:`LazyCase`, built only when it runs); importing it builds no data
(``run.py NAME`` imports only the files whose cases it runs). Explorer cases time what a slider
move costs on the kernel side on the real interactive path, the kernel path of genviz.widgets
(a move the browser cannot draw from precomputed states): the browser's ``update`` message handled by a displayed explorer — the
view's update, the animated artists recorded for the browser, the readout and alt text, the
model state serialised for the comm (and the static background PNG when it changed). The naive
approach is timed in the same run on the same sequence of values: what an ``interact`` user
typically writes, a new figure per update drawn from scratch and encoded as a full PNG for the
inline backend.
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


@dataclasses.dataclass
class LazyCase:
    """A case whose data or explorers are built only when it runs: ``build()`` returns the
    :class:`ExplorerCase` or :class:`TimingCase` to time (its name may add what only the
    built case knows, e.g. the bytes a frame takes). ``name`` is what ``run.py NAME`` selects
    by."""
    name: str
    build: Callable  # () -> ExplorerCase | TimingCase


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
    explorer._on_front_message(explorer, {"type": "ready", "view": "bench"}, [])  # displayed
    times, modes = [], {"blit": 0, "full": 0}  # "full": the background PNG was sent again
    gc.collect()
    for seq, (name, value) in enumerate(case.moves, 1):
        control = explorer.controls[name]
        msg = {"type": "update", "view": "bench", "seq": seq, "frame": True,
               "values": {name: control.to_front(control.validate(value))}}
        background = explorer.background
        t0 = time.perf_counter()
        explorer._on_front_message(explorer, msg, [])  # what a browser's move costs
        times.append(time.perf_counter() - t0)
        modes["full" if explorer.background is not background else "blit"] += 1
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

"""What the study/painter split costs a slider move: every explorer, old genviz against new.

    python benchmarks/study_painter_overhead.py 8d2e737        # that commit against the work tree
    python benchmarks/study_painter_overhead.py 8d2e737 --repeats 5 --out benchmarks/study_painter.md

For each version (a commit ``git archive``'d into a temporary directory, or the work tree) a
fresh interpreter builds every explorer case of that version's ``tests/explorer_testing.py`` on
Agg and moves each control over 9 values of its range and back, ``--repeats`` times, timing

- ``view.update(**values)``: the update protocol (names, merge, study, paint, state) -- what
  the split changed;
- the whole move, ``control.value = v``: update, redraw (blit or full) and the Agg PNG the
  explorer shows -- what a reader waits for on the kernel side.

Both versions run one after the other on the same machine; the table gives median and p95 (ms)
of each and the ratio new / old of the medians. Timings are measurements to report, never
assertions; run it on a quiet machine for figures to quote (``uptime`` is recorded).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]


def measure(root: pathlib.Path, repeats: int) -> dict:
    import matplotlib

    matplotlib.use("Agg")
    sys.path[:0] = [str(root), str(root / "tests")]
    import numpy as np
    from explorer_testing import control_values, explorer_cases, make_explorer

    out = {}
    for case in explorer_cases():
        e = make_explorer(case)
        e.view.fig.canvas.draw()
        moves = []
        for name, control in e.controls.items():
            values = control_values(control, 9)
            moves += [(name, v) for v in values + values[::-1]]
        upd, move = [], []
        for _ in range(repeats):
            for name, value in moves:
                params = {**e.values(), name: value}
                t0 = time.perf_counter()
                e.view.update(**params)
                upd.append(time.perf_counter() - t0)
            for name, value in moves:
                t0 = time.perf_counter()
                e.controls[name].value = value
                move.append(time.perf_counter() - t0)
        e.close()
        out[case] = {k: [float(np.median(v) * 1e3), float(np.percentile(v, 95) * 1e3), len(v)]
                     for k, v in (("update", upd), ("move", move))}
        print(f"{root.name}: {case}", file=sys.stderr, flush=True)
    return out


def _tree(version: str, tmp: pathlib.Path) -> pathlib.Path:
    if version == ".":
        return ROOT
    dest = tmp / version
    dest.mkdir()
    archive = subprocess.run(["git", "archive", version], cwd=ROOT, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest


def _run(root, repeats, out_json) -> dict:
    env = {**os.environ, "MPLBACKEND": "Agg"}
    env.pop("PYTHONPATH", None)
    subprocess.run([sys.executable, __file__, "--measure", str(root), str(out_json),
                    "--repeats", str(repeats)], check=True, env=env, cwd=root)
    return json.loads(pathlib.Path(out_json).read_text())


def table(old: dict, new: dict, old_name: str, new_name: str, load: str, repeats: int) -> str:
    lines = [f"# The study/painter split: cost of a slider move ({old_name} against {new_name})",
             "",
             f"`python benchmarks/study_painter_overhead.py {old_name}` on Agg, {os.cpu_count()} "
             f"cores, every control over 9 values and back, {repeats} repeat(s). Load before the "
             f"run: {load}. Medians and p95 in ms; ratio = new median / old median.",
             "",
             "| explorer | update old | update new | update ratio | move old | move new | "
             "move p95 old | move p95 new | move ratio |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for case in sorted(set(old) & set(new)):
        o, n = old[case], new[case]
        lines.append(f"| {case} | {o['update'][0]:.2f} | {n['update'][0]:.2f} | "
                     f"{n['update'][0] / o['update'][0]:.2f} | {o['move'][0]:.1f} | "
                     f"{n['move'][0]:.1f} | {o['move'][1]:.1f} | {n['move'][1]:.1f} | "
                     f"{n['move'][0] / o['move'][0]:.2f} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", nargs="?")
    parser.add_argument("new", nargs="?", default=".")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", default=None, help="also write the table to this file")
    parser.add_argument("--measure", nargs=2, metavar=("DIR", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        root, out = map(pathlib.Path, args.measure)
        out.write_text(json.dumps(measure(root.resolve(), args.repeats)))
        return 0
    if not args.old:
        parser.error("give the commit to compare with (e.g. 8d2e737)")
    load = subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        old = _run(_tree(args.old, tmp), args.repeats, tmp / "old.json")
        new = _run(_tree(args.new, tmp), args.repeats, tmp / "new.json")
    text = table(old, new, args.old, args.new, load, args.repeats)
    print(text)
    if args.out:
        pathlib.Path(args.out).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

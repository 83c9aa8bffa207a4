"""What the record of what tabs loaded costs the server per notebook load and per save.

    .venv/bin/python benchmarks/bench_saves.py [--cells 50 200] [--out benchmarks/saves.md]

A clone with one notebook of N cells and a record (``.git/genviz-seen.json``) already holding
the most tokens it keeps (``genviz_updates.seen.MAX_TOKENS``, each a snapshot of N cells: the
worst case, a class term of autosaves) and 20 merges. Times, median and p95 of repeated runs:

- **load**: ``stamp_model`` -- what the contents API adds to a GET with content (record the
  tab's snapshot under a new token);
- **save, unchanged disk**: ``pre_save_hook`` of a tab whose base is what is on disk (the
  usual save or autosave);
- **save, after a click**: the hook of a tab opened before a click that changed 10 cells and
  added 2 (a three-way merge of the notebook);
- **record size** in bytes.
"""

from __future__ import annotations

import argparse
import copy
import datetime
import json
import logging
import os
import pathlib
import platform
import statistics
import sys
import tempfile
import time

import nbformat

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from genviz_updates import seen  # noqa: E402
from genviz_updates.server import pre_save_hook, stamp_model  # noqa: E402

NB = "notebooks/lesson.ipynb"


class Contents:
    def __init__(self, root):
        self.root, self.log = root, logging.getLogger("bench")

    def _get_os_path(self, path):
        return str(self.root / path)


def notebook(n, tag=""):
    nb = nbformat.v4.new_notebook()
    for k in range(n):
        cell = (nbformat.v4.new_code_cell(f"x{k} = {k}  # {tag if k % 20 == 0 else ''}\n" * 3)
                if k % 3 else nbformat.v4.new_markdown_cell(f"Text {k}. " * 10))
        cell.id = f"c{k}"
        nb.cells.append(cell)
    return json.loads(nbformat.writes(nb))


def timed(fn, repeat):
    out = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    out.sort()
    return statistics.median(out), out[int(0.95 * (len(out) - 1))]


def run(n, repeat=30):
    root = pathlib.Path(tempfile.mkdtemp())
    (root / ".git").mkdir()
    (root / "notebooks").mkdir()
    before, after = notebook(n), notebook(n, "fixed")
    for k in (5, 50):
        after["cells"].insert(min(k, len(after["cells"])), {
            "id": f"new{k}", "cell_type": "markdown", "metadata": {}, "source": "new"})
    (root / NB).write_text(json.dumps(before))
    cm = Contents(root)
    for _ in range(seen.MAX_TOKENS):
        stamp_model({"type": "notebook", "path": NB, "content": copy.deepcopy(before)}, cm)
    for k in range(20):
        seen.record_merge(root / ".git", NB, before, after, f"m{k}")
    size = sum(p.stat().st_size for p in (root / ".git" / seen.SEEN).iterdir())

    def load():
        stamp_model({"type": "notebook", "path": NB, "content": copy.deepcopy(before)}, cm)

    tab = {"type": "notebook", "path": NB, "content": copy.deepcopy(before)}
    stamp_model(tab, cm)

    def save_same():
        pre_save_hook({"type": "notebook", "content": copy.deepcopy(tab["content"])}, NB, cm)

    def save_after_click():
        (root / NB).write_text(json.dumps(after))
        t = {"type": "notebook", "path": NB, "content": copy.deepcopy(before)}
        stamp_model(t, cm)
        (root / NB).write_text(json.dumps(after))  # the click happened after the load
        pre_save_hook({"type": "notebook", "content": t["content"]}, NB, cm)
        (root / NB).write_text(json.dumps(before))

    return {"cells": n, "load": timed(load, repeat), "same": timed(save_same, repeat),
            "click": timed(save_after_click, max(5, repeat // 3)), "size": size}


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--cells", type=int, nargs="+", default=[50, 200])
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    load0 = os.getloadavg()[0]
    rows = [run(n) for n in args.cells]
    load1 = os.getloadavg()[0]
    lines = ["# Saves merged per tab: cost per load and per save", "",
             f"`.venv/bin/python benchmarks/bench_saves.py` on {datetime.date.today()}, "
             f"CPython {platform.python_version()}, {os.cpu_count()} cores; load average "
             f"{load0:.1f} before, {load1:.1f} after (other work on the machine: figures are "
             f"upper bounds).", "",
             f"A record at its bound ({seen.MAX_TOKENS} tokens of the notebook's cells, 20 "
             f"merges). Median / p95 in milliseconds.", "",
             "| cells | record (bytes) | load (GET) | save, disk unchanged | save after a click "
             "(merge) |", "|---:|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['cells']} | {r['size']:,} | {r['load'][0]:.1f} / {r['load'][1]:.1f} "
                     f"| {r['same'][0]:.1f} / {r['same'][1]:.1f} | {r['click'][0]:.1f} / "
                     f"{r['click'][1]:.1f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        pathlib.Path(args.out).write_text(text)


if __name__ == "__main__":
    main()

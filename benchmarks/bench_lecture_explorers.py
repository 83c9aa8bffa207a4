"""Bytes per phone per question on the lecture page (issue #37): the question's explorer, cold.

    python benchmarks/bench_lecture_explorers.py                  # builds the course's bundle
    python benchmarks/bench_lecture_explorers.py --bundle build/lecture_bundle.json

Builds the lecture bundle from the course's notebooks (deploy/poll/lecture_bundle.py, with
explorers: the notebooks run with ``GENVIZ_STATES=embed``) unless ``--bundle`` names one, then
serves it with the lecture service's own code (deploy/poll/lecture.py ``Lecture`` and
``Resource``: the bytes, the gzip the service sends, computed once per bundle) and reports per
question: the explorer's payload raw and as sent (gzip), and what a phone with a cold cache
transfers when the question opens -- the payload, plus explorer.js and explorer.css for the
first question of a lecture (cached afterwards: ``?v=<etag>``, max-age one week). Response
bodies only (headers, a few hundred bytes, not counted; the browser test measures one question
on the wire with them: browser_tests/test_lecture_page.py, ``lecture.json``). Appends a section
to ``--out`` (benchmarks/lecture.md).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


lecture_bundle = _module("lecture_bundle_bench", ROOT / "deploy" / "poll" / "lecture_bundle.py")
lecture = _module("lecture_bench", ROOT / "deploy" / "poll" / "lecture.py")


class _Store:  # what Lecture reads of the poll service's store
    questions: dict = {}

    def declare(self, *a, **k):
        pass

    def delete(self, *a, **k):
        pass


def measure(bundle_path: Path) -> list[dict]:
    lec = lecture.Lecture(_Store(), bundle_path, None, state_dir=tempfile.gettempdir())
    texts = lec.bundle()
    js, css = lec.module_file("explorer.js"), lec.module_file("explorer.css")
    module_gz = (len(js.gzip) + len(css.gzip)) if js and css else 0
    rows = []
    for qid, q in sorted(texts.items(), key=lambda kv: (kv[1].get("notebook", ""), kv[0])):
        res = lec.explorer(qid, "narrow")  # what a phone fetches (its own layout)
        wide = lec.explorer(qid, "wide")    # a laptop's
        rows.append({"question": qid, "notebook": q.get("notebook"),
                     "raw": len(res.body) if res else 0, "gzip": len(res.gzip) if res else 0,
                     "first": (len(res.gzip) + module_gz) if res else 0,
                     "wide_gzip": len(wide.gzip) if wide else 0,
                     "narrow": bool(res) and b'"layout":"narrow"' in res.body})
    return rows, {"js": len(js.body) if js else 0, "js_gzip": len(js.gzip) if js else 0,
                  "css": len(css.body) if css else 0, "css_gzip": len(css.gzip) if css else 0}


def report(rows, module, *, built_s) -> str:
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load = os.getloadavg()[0]
    lines = [f"## Explorers per question, {when} ({platform.node()}, {os.cpu_count()} cores, "
             f"load {load:.1f})", "",
             "Bytes a phone transfers when the lecturer opens a question (cold cache, gzip as "
             "the service sends it; response bodies): the question's explorer, the site's "
             "embedded form (`bench_lecture_explorers.py`). explorer.js "
             f"{module['js']:,} B ({module['js_gzip']:,} gzip) and explorer.css {module['css']:,} B "
             f"({module['css_gzip']:,} gzip) come once per lecture (cached by version)."
             + (f" Bundle built in {built_s:.0f} s." if built_s else ""), "",
             "A phone fetches its own layout (`?layout=narrow`: the phone's figure, "
             "`genviz.widgets.payload`); a laptop the wide one, in the last column.", "",
             "| notebook | question | phone's explorer raw (KB) | as sent, gzip (KB) | first "
             "question of a lecture, with explorer.js + css (KB) | layout | a laptop's, gzip (KB) |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        if r["raw"]:
            lines.append(f"| {r['notebook']} | {r['question']} | {r['raw'] / 1e3:.0f} | "
                         f"{r['gzip'] / 1e3:.0f} | {r['first'] / 1e3:.0f} | "
                         f"{'narrow' if r['narrow'] else 'wide (none narrow)'} | "
                         f"{r['wide_gzip'] / 1e3:.0f} |")
        else:
            lines.append(f"| {r['notebook']} | {r['question']} | (no explorer) | | | | |")
    sent = sorted(r["gzip"] for r in rows if r["raw"])
    if sent:
        total = sum(sent) + module["js_gzip"] + module["css_gzip"]
        lines += ["", f"{len(sent)} questions with an explorer: {sent[0] / 1e3:.0f}-"
                      f"{sent[-1] / 1e3:.0f} KB each as sent (median "
                      f"{sent[len(sent) // 2] / 1e3:.0f} KB); a phone following every question "
                      f"of the course cold: {total / 1e6:.2f} MB; 300 phones, one question: "
                      f"{300 * sent[len(sent) // 2] / 1e6:.0f} MB on the hall's Wi-Fi (median "
                      f"question)."]
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--bundle", type=Path, default=None,
                   help="a built bundle (default: build one from notebooks/)")
    p.add_argument("--notebooks", type=Path, nargs="*", default=None)
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "lecture.md")
    args = p.parse_args(argv)
    built_s = 0.0
    bundle_path = args.bundle
    if bundle_path is None:
        notebooks = args.notebooks or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
        t0 = time.monotonic()
        bundle = lecture_bundle.build(notebooks, timeout=900)
        built_s = time.monotonic() - t0
        bundle_path = lecture_bundle.write(bundle, ROOT / "build" / "lecture_bundle.json")
    rows, module = measure(bundle_path)
    text = report(rows, module, built_s=built_s)
    print(text)
    with open(args.out, "a", encoding="utf-8") as f:
        f.write("\n" + text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

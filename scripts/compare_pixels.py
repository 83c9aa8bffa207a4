"""Pixels unchanged: every explorer after every control move, and every static figure, rendered
on Agg by two versions of genviz, compared byte for byte.

Run from the repository root::

    python scripts/compare_pixels.py 8d2e737        # this work tree against that commit
    python scripts/compare_pixels.py 8d2e737 HEAD   # two commits
    python scripts/compare_pixels.py 8d2e737 --only gaussian  # the cases naming "gaussian"
    python scripts/compare_pixels.py --fingerprint DIR OUT.json   # one tree (used by the above)

A version is a commit (``git archive``'d into a temporary directory, data included) or the work
tree (``.``, the default for the second argument). For each one a fresh interpreter imports
genviz and the test registries of *that* tree (``tests/explorer_testing.py``: every explorer
case, built as its notebook builds it; ``tests/test_static_layout.py``: every static figure
case), in the normal and the lecture style, and records for every step:

- explorers: after building, and after each move of a sweep (every control over its range,
  ends included, one at a time, as ``sweep_explorer`` moves them; then back), the SHA-256 of
  the PNG the explorer shows (before #32 its canvas after the view's own redraw; since, the
  view's figure rendered whole, what the browser composes from background and frame), the
  readout's HTML, the alt text (``describe()``) and any error; at the end the full
  ``savefig`` PNG;
- static figures: the SHA-256 of ``figure_png`` and the alt text.

The comparison lists every step whose PNG, readout, alt text or error differs, and exits 1 if
any does. It prints what it compared (cases, steps). Agg is deterministic for one matplotlib,
FreeType and NumPy on one machine: both versions run in the same environment, so any
difference is the code's.

Both PNGs of every differing step are kept in ``--keep DIR`` (default
``build/compare_pixels``), each as ``<hash>.png`` (the listing names both hashes): a
difference a second run does not show can still be looked at, or its pixels compared with
numpy. ``--fingerprint DIR OUT.json --pngs PNGDIR`` writes every PNG it hashes into PNGDIR.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def _hash_png(png: bytes, pngs: pathlib.Path | None) -> str:
    """The PNG's hash; with ``pngs``, the PNG is also written there as ``<hash>.png``."""
    sha = _sha(png)
    if pngs is not None:
        (pngs / f"{sha}.png").write_bytes(png)
    return sha


def fingerprint(root: pathlib.Path, only: str = "", pngs: pathlib.Path | None = None) -> dict:
    """Fingerprints of every explorer sweep and static figure of the tree at ``root`` (those
    whose case name contains ``only``); with ``pngs`` (a directory), every PNG hashed is
    written there under its hash."""
    import matplotlib

    matplotlib.use("Agg")
    sys.path[:0] = [str(root), str(root / "tests")]
    import matplotlib.pyplot as plt
    from explorer_testing import control_values, explorer_cases, make_explorer
    from genviz.plots._base import figure_description, figure_png
    from genviz.plots.style import lecture_mode
    from test_static_layout import CASES
    import genviz

    print(f"fingerprinting {genviz.__file__}", file=sys.stderr)

    def step(explorer, what):
        # before the browser explorers (#32) the explorer's canvas held the PNG it showed;
        # since, the kernel keeps no picture: the view's figure rendered whole is what the
        # browser composes (background PNG + recorded frame; browser_tests/test_fidelity.py)
        canvas = getattr(explorer, "canvas", None)
        png = canvas.value if canvas is not None else figure_png(explorer.view.fig)
        return {"step": what, "png": _hash_png(png, pngs),
                "readout": explorer.readout.value, "describe": explorer.describe(),
                "error": explorer.error}

    out = {}
    for style in ("normal", "lecture"):
        ctx = lecture_mode() if style == "lecture" else contextlib.nullcontext()
        with ctx:
            for case in explorer_cases():
                if only not in case:
                    continue
                e = make_explorer(case)
                steps = [step(e, "built")]
                for name, control in e.controls.items():
                    start = control.value
                    for value in control_values(control, 5):
                        control.value = value
                        steps.append(step(e, f"{name}={value!r}"))
                    control.value = start
                    steps.append(step(e, f"{name} back"))
                steps.append({"step": "savefig", "png": _hash_png(figure_png(e.view.fig), pngs)})
                out[f"explorer {case} [{style}]"] = steps
                e.close()
                plt.close("all")
            for case, (_, build) in CASES.items():
                if only not in case:
                    continue
                result = build()
                fig = result[0] if isinstance(result, tuple) else result
                out[f"figure {case} [{style}]"] = [{"step": "built",
                                                   "png": _hash_png(figure_png(fig), pngs),
                                                   "describe": figure_description(fig)}]
                plt.close("all")
    return out


def _tree(version: str, tmp: pathlib.Path) -> pathlib.Path:
    if version == ".":
        return ROOT
    dest = tmp / version.replace("/", "_")
    dest.mkdir()
    archive = subprocess.run(["git", "archive", version], cwd=ROOT, check=True,
                             capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest


def _run(root: pathlib.Path, out: pathlib.Path, only: str = "",
         pngs: pathlib.Path | None = None) -> dict:
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONHASHSEED": "0"}
    env.pop("PYTHONPATH", None)
    keep = [] if pngs is None else ["--pngs", str(pngs)]
    subprocess.run([sys.executable, __file__, "--fingerprint", str(root), str(out),
                    "--only", only, *keep], check=True, env=env, cwd=root)
    return json.loads(out.read_text())


def _step_pairs(old: dict, new: dict):
    """``(case, old step, new step)`` of every case both have with the same steps."""
    for case in sorted(set(old) & set(new)):
        a, b = old[case], new[case]
        if [s["step"] for s in a] == [s["step"] for s in b]:
            yield from ((case, sa, sb) for sa, sb in zip(a, b))


def compare(old: dict, new: dict) -> list[str]:
    """Every difference between two fingerprints, as lines (a PNG's with both hashes)."""
    diffs = []
    for case in sorted(set(old) | set(new)):
        if case not in old or case not in new:
            diffs.append(f"{case}: only in the {'new' if case in new else 'old'} version")
            continue
        a, b = old[case], new[case]
        if [s["step"] for s in a] != [s["step"] for s in b]:
            diffs.append(f"{case}: different steps")
            continue
        for sa, sb in zip(a, b):
            for key in ("png", "readout", "describe", "error"):
                if sa.get(key) != sb.get(key):
                    diffs.append(f"{case} @ {sa['step']}: {key} differs"
                                 + (f" (old {sa[key]}.png, new {sb[key]}.png)" if key == "png"
                                    else f"\n    old: {sa.get(key)!r}\n"
                                         f"    new: {sb.get(key)!r}"))
    return diffs


def keep_differing_pngs(old: dict, new: dict, old_pngs: pathlib.Path,
                        new_pngs: pathlib.Path, keep: pathlib.Path) -> int:
    """Copy both PNGs of every step whose PNG differs from the fingerprints' PNG directories
    into ``keep`` (as ``<hash>.png``); returns how many files it wrote."""
    names = set()
    for _, sa, sb in _step_pairs(old, new):
        if sa["png"] != sb["png"]:
            keep.mkdir(parents=True, exist_ok=True)
            for sha, source in ((sa["png"], old_pngs), (sb["png"], new_pngs)):
                shutil.copyfile(source / f"{sha}.png", keep / f"{sha}.png")
                names.add(sha)
    return len(names)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", nargs="?", help="a commit (the version before)")
    parser.add_argument("new", nargs="?", default=".", help="a commit, or . for the work tree")
    parser.add_argument("--fingerprint", nargs=2, metavar=("DIR", "OUT"),
                        help="fingerprint the tree at DIR into OUT (JSON)")
    parser.add_argument("--pngs", metavar="PNGDIR",
                        help="with --fingerprint: also write every PNG there as <hash>.png")
    parser.add_argument("--only", default="", metavar="TEXT",
                        help="only the cases whose name contains TEXT (e.g. gaussian)")
    parser.add_argument("--keep", default=str(ROOT / "build" / "compare_pixels"),
                        metavar="DIR", help="where the PNGs of differing steps are kept, both "
                                            "versions, as <hash>.png (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.fingerprint:
        root, out = map(pathlib.Path, args.fingerprint)
        pngs = None if args.pngs is None else pathlib.Path(args.pngs)
        out.write_text(json.dumps(fingerprint(root.resolve(), args.only, pngs), indent=1))
        return 0
    if not args.old:
        parser.error("give the commit to compare with (e.g. 8d2e737)")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        pngs = {side: tmp / f"{side}-png" for side in ("old", "new")}
        for d in pngs.values():
            d.mkdir()
        old = _run(_tree(args.old, tmp), tmp / "old.json", args.only, pngs["old"])
        new = _run(_tree(args.new, tmp), tmp / "new.json", args.only, pngs["new"])
        kept = keep_differing_pngs(old, new, pngs["old"], pngs["new"], pathlib.Path(args.keep))
    diffs = compare(old, new)
    steps = sum(len(v) for v in old.values())
    print(f"compared {len(old)} cases ({sum(c.startswith('explorer') for c in old)} explorer "
          f"sweeps, {sum(c.startswith('figure') for c in old)} static figures; normal and "
          f"lecture style), {steps} steps: {args.old} against {args.new}")
    print("\n".join(diffs) if diffs else "identical: every PNG, readout, alt text and error")
    if kept:
        print(f"the {kept} PNGs of the differing steps (named by hash) are in {args.keep}")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())

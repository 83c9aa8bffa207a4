"""scripts/compare_pixels.py (pixels unchanged across a refactor): the comparison finds every
kind of difference, a fingerprint of this tree is what the explorers show, and both PNGs of a
differing step are kept (a flake seen once can still be looked at)."""

from __future__ import annotations

import copy
import pathlib
from file_modules import load_file

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _script():
    return load_file(ROOT / "scripts" / "compare_pixels.py", "compare_pixels")


def test_every_kind_of_difference_is_reported():
    cp = _script()
    old = {"explorer a [normal]": [{"step": "built", "png": "1", "readout": "r", "describe": "d",
                                    "error": None},
                                   {"step": "k=2", "png": "2", "readout": "r2", "describe": "d2",
                                    "error": None}],
           "figure f [normal]": [{"step": "built", "png": "3", "describe": "f"}]}
    assert cp.compare(old, copy.deepcopy(old)) == []
    for case, i, key, value in (("explorer a [normal]", 1, "png", "x"),
                                ("explorer a [normal]", 0, "readout", "other"),
                                ("explorer a [normal]", 1, "describe", "other"),
                                ("explorer a [normal]", 1, "error", "boom"),
                                ("figure f [normal]", 0, "png", "y")):
        new = copy.deepcopy(old)
        new[case][i][key] = value
        (diff,) = cp.compare(old, new)
        assert diff.startswith(f"{case} @ {old[case][i]['step']}: {key} differs")
    fewer = copy.deepcopy(old)
    fewer["explorer a [normal]"].pop()
    assert cp.compare(old, fewer) == ["explorer a [normal]: different steps"]
    assert cp.compare(old, {}) == [f"{c}: only in the old version" for c in sorted(old)]


def test_a_fingerprint_is_what_the_explorer_shows(tmp_path):
    import hashlib
    import sys

    cp = _script()
    prints = cp.fingerprint(ROOT, only="kde_explorer", pngs=tmp_path)
    assert set(prints) == {"explorer kde_explorer [normal]", "explorer kde_explorer [lecture]"}
    steps = prints["explorer kde_explorer [normal]"]
    assert steps[0]["step"] == "built" and steps[-1]["step"] == "savefig"
    sys.path.insert(0, str(ROOT / "tests"))
    from explorer_testing import make_explorer

    e = make_explorer("kde_explorer")
    try:
        # the sweep is five values from the slider's own range, ends included (not a copy of
        # today's range: the range is a design choice, the sweep follows it)
        h = e.controls["h"]
        swept = [float(f.split("=")[1]) for f in (s["step"] for s in steps[1:6])]
        assert [s["step"] for s in steps[1:6]] == [f"h={v!r}" for v in swept]
        assert swept[0] == h.min and swept[-1] == h.max and len(set(swept)) == 5
        assert swept == sorted(swept)
        from genviz.plots._base import figure_png
        assert steps[0]["png"] == hashlib.sha256(figure_png(e.view.fig)).hexdigest()[:16]
        assert steps[0]["readout"] == e.readout.value and steps[0]["describe"] == e.describe()
        # with pngs=: every PNG hashed is written there under its hash
        hashes = {s["png"] for case in prints.values() for s in case}
        assert {p.name for p in tmp_path.iterdir()} == {f"{h}.png" for h in hashes}
        for h in hashes:
            assert hashlib.sha256((tmp_path / f"{h}.png").read_bytes()).hexdigest()[:16] == h
    finally:
        e.close()


def test_both_pngs_of_a_differing_step_are_named_and_kept(tmp_path):
    cp = _script()
    old_dir, new_dir, keep = tmp_path / "old", tmp_path / "new", tmp_path / "keep"
    old_dir.mkdir()
    new_dir.mkdir()
    for d, names in ((old_dir, ("a1", "a2", "s1")), (new_dir, ("a1", "b2", "s2"))):
        for name in names:
            (d / f"{name}.png").write_bytes(f"{d.name} {name}".encode())
    step = {"readout": "r", "describe": "d", "error": None}
    old = {"explorer a [normal]": [{"step": "built", "png": "a1", **step},
                                   {"step": "k=2", "png": "a2", **step}],
           "figure f [normal]": [{"step": "built", "png": "s1", "describe": "f"}]}
    new = {"explorer a [normal]": [{"step": "built", "png": "a1", **step},
                                   {"step": "k=2", "png": "b2", **step}],
           "figure f [normal]": [{"step": "built", "png": "s2", "describe": "f"}]}
    assert cp.compare(old, new) == [
        "explorer a [normal] @ k=2: png differs (old a2.png, new b2.png)",
        "figure f [normal] @ built: png differs (old s1.png, new s2.png)"]
    assert cp.keep_differing_pngs(old, new, old_dir, new_dir, keep) == 4
    assert {p.name: p.read_bytes() for p in keep.iterdir()} == {
        "a2.png": b"old a2", "b2.png": b"new b2", "s1.png": b"old s1", "s2.png": b"new s2"}
    # nothing differs: nothing kept, no directory made
    assert cp.keep_differing_pngs(old, old, old_dir, old_dir, tmp_path / "none") == 0
    assert not (tmp_path / "none").exists()

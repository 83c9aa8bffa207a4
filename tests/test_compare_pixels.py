"""scripts/compare_pixels.py (pixels unchanged across a refactor): the comparison finds every
kind of difference, and a fingerprint of this tree is what the explorers show."""

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


def test_a_fingerprint_is_what_the_explorer_shows():
    import hashlib
    import sys

    cp = _script()
    prints = cp.fingerprint(ROOT, only="kde_explorer")
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
    finally:
        e.close()

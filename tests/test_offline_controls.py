"""Every control a lesson asks for moves without a kernel (issue #37, item 3).

On the course website and the lecture page an explorer moves only through its precomputed
states (genviz.widgets.states): a control moves there when it is gridded, and a setting is
reachable when each control it names is either gridded (at one of its positions) or not
gridded and left where it starts (the grid's base). Checked here:

- for each observation of the course (every notebook run once, as the site runs it: grids built,
  budgets enforced), every control its settings name is reachable without a kernel
  (``scripts/offline_controls.py``'s ``gaps``), with the rule shown to fail on planted records
  and on a real explorer whose control is not gridded;
- the table of every control (moves offline / needs a kernel, and why; each explorer's states and
  compressed bytes) in ARCHITECTURE.md is the one the script makes now;
- a text box gridded over a fixed list of texts (the spam explorer's edits): its states are the
  kernel's, in the list's order; bad arguments are refused naming the argument;
- the site's caption names the controls that still need a kernel (explorer.js, under node).
"""

from __future__ import annotations

import copy
import json
import pathlib
import shutil
import subprocess

import numpy as np
import pytest

from file_modules import load_file
from genviz import datasets
from genviz.widgets import states
from genviz.widgets._controls import TextArea, normalise_text
from genviz.widgets._keys import gridded

ROOT = pathlib.Path(__file__).resolve().parents[1]


OC = load_file(ROOT / "scripts" / "offline_controls.py", "offline_controls")


@pytest.fixture(scope="module")
def course():
    return OC.course_records()


# -- the course ------------------------------------------------------------------------------------
@pytest.mark.slow  # the course's records: every notebook run once (cached)
def test_every_observation_of_the_course_can_be_made_without_a_kernel(course):
    n = sum(len(run["observations"]) for run in course.values())
    assert n >= 19, f"only {n} observation boxes found: the recording hook lost some"
    assert OC.gaps(course) == []
    for run in course.values():
        for obs in run["observations"]:
            assert obs["stages"], obs  # every box was recorded with its explorer


@pytest.mark.slow  # the course's records: every notebook run once (cached)
def test_every_investigation_is_declared_and_moves_only_gridded_controls(course):
    """scripts/offline_controls.INVESTIGATIONS names each investigation's explorer and the
    controls it moves; each is gridded (#37 item 3). Planted: 04's ρ not gridded, an undeclared
    investigation, an explorer the notebook does not make, a control it does not have."""
    keys = [k for run in course.values() for k in run["investigations"]]
    assert len(keys) >= 12 and sorted(keys) == sorted(OC.INVESTIGATIONS), keys
    assert OC.investigation_gaps(course) == []
    planted = copy.deepcopy(course)
    for ex in planted["04_gda_vs_logistic_regression"]["explorers"]:
        for c in ex["controls"]:
            if c["name"] == "rho":
                c["grid"] = False
    assert OC.investigation_gaps(planted) == [
        "04_gda_vs_logistic_regression investigation 04.1: it moves rho, which is not gridded "
        "in gda_vs_logistic_explorer (needs a kernel)"]
    planted = copy.deepcopy(course)
    planted["02_multivariate_gaussian"]["investigations"].append("02.9")
    assert OC.investigation_gaps(planted) == [
        "02_multivariate_gaussian investigation 02.9: not declared in INVESTIGATIONS "
        "(scripts/offline_controls.py): name its explorer and the controls it moves"]
    declared = {**OC.INVESTIGATIONS, "02.5": ("kde_explorer", ("h",)),
                "03.3": ("gda_fit_explorer", ("theta",))}
    assert OC.investigation_gaps(course, declared) == [
        "02_multivariate_gaussian investigation 02.5: the notebook makes no kde_explorer",
        "03_gaussian_discriminant_analysis investigation 03.3: gda_fit_explorer has no control "
        "theta",
        "03_gaussian_discriminant_analysis investigation 03.3: its prompt names 'φ (true)' with "
        "no value (\"φ. At which φ does the tru\u2026\"), a move of phi that INVESTIGATIONS "
        "(scripts/offline_controls.py) does not list: add it"]



@pytest.mark.slow  # the course's records: every notebook run once (cached)
def test_a_declaration_with_too_few_or_too_many_controls_fails_against_its_prompt(course):
    """Read from the prompt (prompt_moves, prompt_keeps), not taken on trust: the declarations
    before this check were both wrong -- 10's crossing investigation raises α from 1 to 10 and
    did not list alpha; 05.3 works "at n = 1000", n's start, and listed n as moved. Planted:
    those two, and 06.3 without the query's Outlook (set to Overcast, an option's label)."""
    declared = {**OC.INVESTIGATIONS,
                "10-crossing-with-regularisation": ("vocabulary_curve_explorer", ("d", "l2")),
                "05.3": ("bandwidth_explorer", ("n", "h")),
                "06.3": ("categorical_nb_explorer", ("alpha",))}
    assert OC.investigation_gaps(course, declared) == [
        "05_density_estimation investigation 05.3: INVESTIGATIONS (scripts/offline_controls.py) "
        "lists n as moved, but the prompt keeps it at its start: remove it",
        "06_naive_bayes_by_counting investigation 06.3: its prompt sets 'Outlook' to Overcast "
        "(its start is 'Sunny'), a move of Outlook that INVESTIGATIONS "
        "(scripts/offline_controls.py) does not list: add it",
        "10_capstone_nb_vs_logistic investigation 10-crossing-with-regularisation: its prompt "
        "sets 'α (naive Bayes)' to 10.0 (its start is '1'), a move of alpha that INVESTIGATIONS "
        "(scripts/offline_controls.py) does not list: add it"]


@pytest.mark.slow  # the course's records: every notebook run once (cached)
def test_every_observation_prompt_gives_its_controls_the_values_its_box_checks(course):
    """What the prompt tells the learner to set is what the box checks: every value the prompt
    gives a control ("at origin 0.15", "n = 200", "on 'Gaussian + 10% outliers in class 1'") is
    one of the box's settings (observation_prompt_gaps). Planted: each of those three changed
    in the prompt alone; and an option label shared by two controls (06's "warm", Water's
    value and one of Temp's options) is not taken for the wrong one."""
    assert OC.observation_prompt_gaps(course) == []
    planted = copy.deepcopy(course)
    edits = {"05-bin-origin": ("origin 0.15", "origin 0.2"),
             "05-cv-fewer-points": ("n = 200", "n = 400"),
             "04-outliers": ("'Gaussian + 10% outliers in class 1'", "'Poisson counts'")}
    for run in planted.values():
        for obs in run["observations"]:
            if obs["id"] in edits:
                assert edits[obs["id"]][0] in obs["prompt"], obs["prompt"]
                obs["prompt"] = obs["prompt"].replace(*edits[obs["id"]])
    found = OC.observation_prompt_gaps(planted)
    assert [g.split(":")[0] for g in found] == [
        "04_gda_vs_logistic_regression 04-outliers", "05_density_estimation 05-bin-origin",
        "05_density_estimation 05-cv-fewer-points"], found
    assert "'data' the value Poisson counts" in found[0] and "[0.0, 0.15]" in found[1]
    assert "'n' the value 400.0" in found[2]


def _control(label, start, options=None, start_label=None):
    return {"name": "c", "label": label, "start": start, "options": options,
            "start_label": start_label}


@pytest.mark.parametrize("prompt, control, moves, keeps", [
    ("raise α from 1 to 10", _control("α (naive Bayes)", 1.0), "to 10.0", False),
    ("raise λ from 1 to 100 (α at 1)", _control("α (naive Bayes)", 1.0), None, True),
    ("keep σ₁ = 1, σ₂ = 1. What is the smallest ρ", _control("σ₂", 1.0), None, True),
    ("keep σ₁ = 2", _control("σ", 1.0), None, False),           # σ₁ is not σ
    ("move the true φ. At which φ", _control("φ", 0.5), "no value", False),
    ("set d = 4 variables", _control("variables d", 3), "to 4.0", False),
    ("d = 3,000 (presence)", _control("vocabulary d", 3000), None, True),
    ("at ρ = −0.85", _control("ρ", -0.85), None, True),
    ("data 'Gaussian, shared Σ', n = 200", _control(
        "data", "gaussian", ["Gaussian, shared Σ", "outliers"], "Gaussian, shared Σ"), None, True),
    ("data 'outliers'", _control("data", "gaussian", ["Gaussian, shared Σ", "outliers"],
                                 "Gaussian, shared Σ"), "to outliers", False),
    ("at d = 3000 (presence)", _control("features", "counts", ["counts", "presence"], "counts"),
     "to presence", False),
    ("the query ⟨Overcast, Cool⟩", _control("Outlook", "Sunny", ["Sunny", "Overcast"], "Sunny"),
     "to Overcast", False),
    ("what is the smallest d", _control("h", 0.3), None, False),  # not named: neither
])
def test_an_investigation_prompt_says_which_controls_it_moves(prompt, control, moves, keeps):
    said = OC.prompt_moves(prompt, control)
    assert (said is None) if moves is None else (moves in said), said
    assert OC.prompt_keeps(prompt, control) is keeps


@pytest.mark.slow  # the course's records: every notebook run once (cached)
def test_the_table_of_controls_in_architecture_md_is_fresh(course):
    assert OC.documented_table() == OC.table(course), (
        "ARCHITECTURE.md's table of explorer controls is stale: run "
        "`python scripts/offline_controls.py --write`")


@pytest.mark.slow  # the course's records: every notebook run once (cached)
def test_every_grid_of_the_course_is_within_its_budget(course):
    for notebook, run in course.items():
        for ex in run["explorers"]:
            assert ex["states"] and ex["states"] <= states.MAX_STATES, (notebook, ex["factory"])
            assert ex["bytes"] <= states.MAX_BYTES, (notebook, ex["factory"])


# -- the rule can fail ---------------------------------------------------------------------------
def _records(where):
    return {"99_planted": {"explorers": [], "observations": [
        {"id": "99-planted", "explorer": 0, "stages": {"before": {"k": "grid"},
                                                       "after": {"k": "grid", **where}}}]}}


@pytest.mark.parametrize("where, words", [({"noise": "kernel"}, "noise is at a value that needs"),
                                          ({"qx": "missing"}, "has no control")])
def test_the_gap_rule_finds_a_control_a_setting_needs_that_is_not_gridded(where, words):
    assert OC.gaps(_records({})) == []
    found = OC.gaps(_records(where))
    assert len(found) == 1 and words in found[0] and "99-planted (after)" in found[0]
    lost = {"99_planted": {"explorers": [], "observations": [
        {"id": "99-lost", "explorer": None, "stages": {}}]}}
    assert "not made by a factory" in OC.gaps(lost)[0]


def _knn(**kw):
    from genviz.synthetic import two_class_data
    from genviz.widgets.knn import knn_classification_explorer

    X, y = two_class_data(60, rng=0)
    X_test, y_test = two_class_data(100, rng=1)
    return knn_classification_explorer(X, y, X_test, y_test, k=7, noise=0.0, **kw)


def test_offline_reach_on_a_real_explorer_and_a_planted_ungridded_control():
    ex = _knn()
    try:
        # notebook 09's observation: k = 31 at noise 0.2 (before: noise 0)
        assert states.offline_reach(ex, {"k": 31, "noise": 0.2}) == {"k": "grid", "noise": "grid"}
        assert states.offline_reach(ex, {"qx": 0.0, "qy": 0.0}) == {"qx": "start", "qy": "start"}
        assert states.offline_reach(ex, {"qx": 1.0, "nope": 1}) == {"qx": "kernel",
                                                                     "nope": "missing"}
        assert states.offline_reach(ex, {"noise": 0.17}) == {"noise": "kernel"}  # off the grid
        ex.controls["noise"].grid = False  # the planted fault: noise no longer gridded
        assert states.offline_reach(ex, {"noise": 0.2}) == {"noise": "kernel"}
    finally:
        ex.close()


# -- the explorers gridded for the lessons -------------------------------------------------------
def test_the_query_builder_grids_the_query_within_its_budget():
    from genviz.widgets.naive_bayes import QUERY_GRID_STATES, categorical_nb_explorer

    t = datasets.play_tennis()
    ex = categorical_nb_explorer(t.X, t.y, t.feature_names, alpha=0.0,
                                 query=["Sunny", "Cool", "High", "Strong"])
    try:
        axes = [(n, len(c.grid_values())) for n, c in gridded(ex)]
        assert [n for n, _ in axes][:2] == ["alpha", "Outlook"]  # notebook 06 moves Outlook
        assert int(np.prod([k for _, k in axes])) <= QUERY_GRID_STATES <= states.MAX_STATES
        assert not ex.controls["Wind"].grid  # the next one would pass the budget
    finally:
        ex.close()


# -- a text box gridded over the lesson's texts ------------------------------------------------------
def _email(**kw):
    from genviz.naive_bayes import BernoulliNB, MultinomialNB
    from genviz.text import bag_of_words, build_vocabulary
    from genviz.widgets.spam import email_explorer

    docs, y = ["free money", "free offer", "meeting notes", "notes"], ["spam", "spam", "ham", "ham"]
    v = build_vocabulary(docs)
    X = bag_of_words(docs, v)
    return email_explorer({"multinomial": MultinomialNB().fit(X, y),
                           "bernoulli": BernoulliNB().fit(X, y)}, v, **kw)


def test_a_text_grid_holds_the_kernel_s_state_of_each_listed_text_in_order():
    ex = _email(text="meeting notes", edits=["meeting notes free money", "Meeting  NOTES"])
    try:
        text = ex.controls["text"]
        assert text.grid and text.presets == ["meeting notes", "meeting notes free money"]
        assert ex.spec["controls"][0]["presets"] == ["meeting notes", "meeting notes free money"]
        ex.controls["log10_c"].grid = False  # the text axis alone: two states
        head, _ = states.read_grid(states.build_grid(ex))
        assert head["axes"] == [{"name": "text", "n": 2}]
        # the oracle: the kernel path's readout at each text
        want = []
        for t in text.presets:
            text.value = t
            want.append(ex.readout.value)
        got = [head["readouts"][s[3]] for s in head["states"]]
        assert got == want and got[0] != got[1]
    finally:
        ex.close()


def test_text_presets_refuse_bad_input_naming_the_argument():
    with pytest.raises(TypeError, match="presets"):
        TextArea("email", presets="one text")
    with pytest.raises(TypeError, match="presets"):
        TextArea("email", presets=["ok", 3])
    with pytest.raises(ValueError, match="presets"):
        TextArea("email", grid=True)
    with pytest.raises(TypeError, match="cannot be gridded"):
        TextArea("email").grid_values()
    with pytest.raises(TypeError, match="edits"):
        _email(text="notes", edits="free money")
    assert normalise_text("  Dear\tFRIEND\n razor ") == "dear friend razor"


# -- the site: which controls need a kernel, said in the caption -------------------------------------
NODE_CHECK = r"""
const m = await import(process.argv[2]);
const out = {
  some: m.offlineCaption([{label: 'k', grid: true}, {label: 'noise', grid: true},
                          {label: 'query x₁', grid: false}, {label: 'query x₂', grid: false}]),
  all: m.offlineCaption([{label: 'ρ', grid: true}]),
  none: m.offlineCaption([{label: 'n', grid: false}]),
  text: m.offlineCaption([{label: 'email', kind: 'text', grid: true, presets: ['a', 'a b']},
                          {label: 'model', grid: false}]),
  index: [m.presetIndex({presets: ['dear friend razor']}, ' Dear  FRIEND\n razor '),
          m.presetIndex({presets: ['dear friend razor']}, 'dear friend'),
          m.presetIndex({kind: 'text'}, 'x')],
  layout: [m.chooseLayout({narrow: 'eNo'}, 358), m.chooseLayout({narrow: 'eNo'}, 848),
           m.chooseLayout({narrow: ''}, 358), m.chooseLayout({layout: 'narrow'}, 1280),
           m.NARROW_BELOW,
           m.chooseLayout({layout: 'narrow', layouts: ['wide', 'narrow']}, 844),
           m.chooseLayout({layout: 'wide', layouts: ['wide', 'narrow']}, 390),
           m.chooseLayout({layout: 'wide', layouts: ['wide']}, 390)],
};
console.log(JSON.stringify(out));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_site_caption_names_the_controls_that_need_a_kernel(tmp_path):
    script = tmp_path / "check.mjs"
    script.write_text(NODE_CHECK)
    module = ROOT / "genviz" / "widgets" / "static" / "explorer.js"
    done = subprocess.run(["node", str(script), module.as_uri()], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["some"].startswith("Move k, noise here.")
    assert out["some"].endswith("Needs a kernel (run this notebook in JupyterLab, Voilà or "
                                "Binder): query x₁, query x₂.")
    assert "Needs a kernel" not in out["all"] and out["all"].startswith("Move ρ here")
    assert out["none"].startswith("Run this notebook")
    assert out["text"].startswith("Move email (the lesson's 2 texts) here.") and \
        out["text"].endswith(": model.")
    assert out["index"] == [0, -1, -1]
    # the phone's layout (#37 item 2): on a narrow page when the payload has it, or when the
    # server sent only that one; a server that names its layouts (the lecture page): the one
    # the width asks for, which the page then fetches
    assert out["layout"] == ["narrow", "wide", "wide", "narrow", 600, "wide", "narrow", "wide"]

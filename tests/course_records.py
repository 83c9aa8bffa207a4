"""Every item a notebook creates, as the notebook creates it: the practice checks' records.

The notebook is run once in a kernel (nbclient; genviz from this work tree) with a first cell
that wraps ``genviz.exercises._core.Exercise.__init__`` and records each item created: its class,
kind, objective, id, claims, prompt, reference value (numbers) or text, tolerances, explanation
(choices and predictions), model answer (open questions), and the index of the notebook cell
that created it (counted by a ``pre_run_cell`` event). Records are cached in
``build/practice-cache/`` (or the directory ``GENVIZ_PRACTICE_CACHE`` names) by the hash of the
notebook and of genviz/, so only a changed notebook or library re-runs.

In `make test` nbval's own run of each notebook records it (``tests/nbval_records.py``: the same
hook, report and environment in nbval's kernel, written under the same key with
:func:`cache_files` and :func:`save_run`), so the consumers here find the cache and the notebook
executes once; run alone, they run it themselves.

(tests/test_teaching.py keeps its own, smaller records, TEACHING_HOOK; these are a superset of
them. Both are recorded in the same kernel run, :func:`notebook_run`.)
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import json
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NB_DIR = ROOT / "notebooks"
CACHE = ROOT / "build" / "practice-cache"

HOOK = r'''
import json as _gv_json
import numpy as _gv_np
import genviz.exercises._core as _gv_core
_gv_records = []
_gv_ordinal = [0]
def _gv_next(*_):
    _gv_ordinal[0] += 1
get_ipython().events.register("pre_run_cell", _gv_next)
_gv_init = _gv_core.Exercise.__init__
def _gv_record(self, *args, **kwargs):
    _gv_init(self, *args, **kwargs)
    a = self._answer
    try:
        value = None if isinstance(a, (str, bool, _gv_np.bool_)) else \
            _gv_np.asarray(a, dtype=float).tolist()
    except (TypeError, ValueError):
        value = None
    _gv_records.append({
        "ordinal": _gv_ordinal[0], "cls": type(self).__name__, "kind": self.kind,
        "objective": getattr(self, "objective", None), "id": getattr(self, "id", None),
        "claims": list(getattr(self, "claims", ())), "prompt": self.prompt, "value": value,
        "text": str(a), "rtol": self.rtol, "atol": self.atol,
        "explanation": getattr(self, "explanation", "") or "",
        "solution": getattr(self, "_solution", "") or "",
        "options": list(getattr(self, "options", ()))})
_gv_core.Exercise.__init__ = _gv_record
'''
REPORT = 'print("GENVIZ-RECORDS " + _gv_json.dumps(_gv_records))'


def _fingerprint() -> str:
    spec = importlib.util.spec_from_file_location("_build_site", ROOT / "scripts" / "build_site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.library_fingerprint()


# tests/test_teaching.py's hook: its own records of each exercise and, at the end, each
# observation box's predict-observe-explain cycle gone through as a learner.
TEACHING_HOOK = r'''
import json as _gv_json
import numpy as _gv_np
import genviz.exercises._core as _gv_core
_gv_records = []
_gv_ordinal = [0]  # the notebook's code cells run so far (this cell not counted)
def _gv_next(*_):
    _gv_ordinal[0] += 1
get_ipython().events.register("pre_run_cell", _gv_next)
_gv_init = _gv_core.Exercise.__init__
def _gv_value(a):
    try:
        return None if isinstance(a, (str, bool, _gv_np.bool_)) else _gv_np.asarray(a, dtype=float).tolist()
    except (TypeError, ValueError):
        return None
def _gv_record(self, *args, **kwargs):
    _gv_init(self, *args, **kwargs)
    a = self._answer
    rec = {"ordinal": _gv_ordinal[0], "cls": type(self).__name__,
           "kind": self.kind, "prompt": self.prompt, "value": _gv_value(a),
           "text": str(a), "rtol": self.rtol, "atol": self.atol,
           "claims": list(self.claims), "solution": self._solution}
    if hasattr(self, "options"):
        rec.update(id=self.id, options=list(self.options), correct=list(self.correct),
                   explanation=self.explanation, reasons=list(self.reasons))
    obs = getattr(self, "observation", None)
    if obs is not None:
        values = list(_gv_np.ravel(_gv_np.asarray(obs._answer, dtype=float)))
        if obs.expected_before is not None:
            values += list(_gv_np.ravel(_gv_np.asarray(obs.expected_before, dtype=float)))
        rec["observation"] = {"prompt": obs.prompt, "value": float(values[0]),
                              "values": [float(v) for v in values], "stages": list(obs.stages),
                              "rtol": obs.rtol, "atol": obs.atol, "what": obs.what,
                              "compare": obs.compare, "parts": list(obs.parts or ()),
                              "at": obs.setting_text("after"),
                              "before_at": obs.setting_text("before") if obs.before else ""}
    _gv_records.append(rec)
_gv_core.Exercise.__init__ = _gv_record

import genviz.widgets.observations as _gv_obsmod
import genviz.widgets.predictions as _gv_predmod
_gv_boxes = {"prediction": {}, "observation": []}
_gv_pinit, _gv_oinit = _gv_predmod.PredictionBox.__init__, _gv_obsmod.ObservationBox.__init__
def _gv_pbox(self, *args, **kwargs):
    _gv_pinit(self, *args, **kwargs)
    _gv_boxes["prediction"][self.prediction.id] = self
def _gv_obox(self, *args, **kwargs):
    _gv_oinit(self, *args, **kwargs)
    _gv_boxes["observation"].append(self)
_gv_predmod.PredictionBox.__init__ = _gv_pbox
_gv_obsmod.ObservationBox.__init__ = _gv_obox

def _gv_cycle(box):
    """Set the box's explorer to the observation's setting, read it, and go through the cycle
    as a learner: commit the right option, record the reading, see the explanation."""
    p, obs, ex = box.prediction, box.observation, box.explorer
    out = {"id": p.id, "problems": []}
    if ex is None:
        out["problems"].append("the observation box has no explorer")
        return out
    missing = [k for k in obs.setting if k not in ex.controls]
    if missing:
        out["problems"].append(f"the setting names controls the explorer does not have: {missing}")
        return out
    pbox = _gv_boxes["prediction"].get(p.id)
    if pbox is None:
        out["problems"].append("no prediction box with this id ran before")
        return out
    if box.explanation.value:
        out["problems"].append("the explanation was in the page before the observation")
    pbox.select(p.correct[0])
    pbox.commit("a reason written before the explorer")
    out["stages"] = list(obs.stages)
    for stage in obs.stages:  # before (a change), then after: each at its own setting
        for k, v in obs.setting_at(stage).items():
            ex.controls[k].value = v
        if ex.error:
            out["problems"].append(f"the explorer shows an error at the {stage} setting: "
                                   f"{ex.error}")
            return out
        live = _gv_np.asarray(obs.reference(ex.view.state, stage), dtype=float)
        want = _gv_np.asarray(obs.expected_before if stage == "before" else obs._answer,
                              dtype=float)
        out.update(live=live.tolist(), expected=want.tolist())
        if not _gv_np.all(_gv_np.abs(live - want) <= obs.atol + obs.rtol * _gv_np.abs(want)
                          + 1e-12):
            out["problems"].append(f"the explorer shows {live.tolist()!r} at the {stage} "
                                   f"setting, the builder computed {want.tolist()!r}")
        typed = ", ".join(repr(float(v)) for v in _gv_np.ravel(live))
        box.record_reading(typed, stage=stage)
        if not (box.last is not None and box.last.correct):
            out["problems"].append(f"the {stage} reading {typed} was not accepted: {box.last}")
    if _gv_core._markdown_to_html(p.explanation) not in box.explanation.value:
        out["problems"].append("the explanation did not appear after the observation")
    return out
'''
TEACHING_REPORT = ('print("GENVIZ-RECORDS " + _gv_json.dumps({"items": _gv_records, '
          '"cycles": [_gv_cycle(b) for b in _gv_boxes["observation"]]}))')


# scripts/offline_controls.py's records: each explorer the notebook makes (its controls, its
# grid's states and bytes: the run builds every grid, GENVIZ_STATES=build) and, for each
# observation box, where each control its settings name stands (genviz.widgets.states.offline_reach).
OFFLINE_HOOK = r'''
import json as _gvo_json
import genviz.widgets.states as _gvo_states
import genviz.widgets.observations as _gvo_obsmod
_gvo_explorers, _gvo_index, _gvo_boxes = [], {}, []
_gvo_on_built = _gvo_states.on_built
def _gvo_size(c):
    try:
        return len(c.grid_values())
    except TypeError:
        return None
def _gvo_plain(v):
    try:
        return _gvo_json.loads(_gvo_json.dumps(v.item() if hasattr(v, "item") else v))
    except (TypeError, ValueError):
        return str(v)
def _gvo_built(explorer):
    _gvo_on_built(explorer)
    core = explorer._core
    controls = [{"name": n, "label": c.description, "kind": c.kind, "grid": c.grid,
                 "positions": _gvo_size(c), "text": c.kind == "text",
                 "start": _gvo_plain(c.value),
                 "options": [str(o[0]) for o in c.options]
                 if c.kind == "choice" else None,
                 "start_label": next((str(o[0]) for o in c.options if _gvo_plain(o[1])
                                      == _gvo_plain(c.value)), None)
                 if c.kind == "choice" else None}
                for n, c in core.controls.items()]
    blob = getattr(explorer, "grid_bytes", None)
    states = len(_gvo_states.read_grid(blob)[0]["states"]) if blob else None
    _gvo_index[id(explorer)] = len(_gvo_explorers)
    _gvo_explorers.append({"factory": core.factory[0].__name__, "controls": controls,
                           "states": states, "bytes": len(blob) if blob else None})
_gvo_states.on_built = _gvo_built
_gvo_init = _gvo_obsmod.ObservationBox.__init__
def _gvo_box(self, *args, **kwargs):
    _gvo_init(self, *args, **kwargs)
    obs, ex = self.observation, self.explorer
    rec = {"id": self.prediction.id, "explorer": _gvo_index.get(id(ex)), "stages": {},
           "prompt": obs.prompt, "settings": {}}
    if ex is not None and id(ex) in _gvo_index:
        controls = ex._core.controls
        for stage in obs.stages:
            setting = obs.setting_at(stage)
            rec["stages"][stage] = _gvo_states.offline_reach(ex, setting)
            # each value as the prompt would name it: a choice by its option's label
            rec["settings"][stage] = {
                k: (next((str(o[0]) for o in controls[k].options
                          if _gvo_plain(o[1]) == _gvo_plain(v)), str(v))
                    if k in controls and controls[k].kind == "choice" else _gvo_plain(v))
                for k, v in setting.items()}
    _gvo_boxes.append(rec)
_gvo_obsmod.ObservationBox.__init__ = _gvo_box
'''

# The three hooks in one kernel run (this module's names renamed so the two wrappers of
# Exercise.__init__ chain instead of calling each other): a notebook runs once for
# tests/test_teaching.py, tests/test_practice.py and tests/test_offline_controls.py, not once each.
ALL_HOOK = HOOK.replace("_gv_", "_gvp_") + "\n" + TEACHING_HOOK + "\n" + OFFLINE_HOOK
ALL_REPORT = ('print("GENVIZ-RECORDS " + _gv_json.dumps({"items": _gv_records, '
              '"practice": _gvp_records, '
              '"cycles": [_gv_cycle(b) for b in _gv_boxes["observation"]], '
              '"offline": {"explorers": _gvo_explorers, "observations": _gvo_boxes}}))')
#: The test files that read these runs (:func:`notebook_run`), directly or through
#: scripts/offline_controls.py and scripts/teaching_table.py: nbval's run of a notebook records
#: it when one of them is collected (tests/nbval_records.py), and `make test` hands them out
#: after the notebooks (scripts/durations.py).
CONSUMERS = ("tests/test_offline_controls.py", "tests/test_practice.py", "tests/test_teaching.py")
#: The grids the run builds go to the site's cache (scripts/build_site.py): ``make site`` finds them.
STATES_CACHE = ROOT / "build" / "states"
#: The environment :func:`notebook_run` adds for the kernel (also nbval's, tests/nbval_records.py).
ALL_ENV = {"GENVIZ_STATES": "build", "GENVIZ_STATES_CACHE": str(STATES_CACHE)}


def all_items(run: dict) -> list[dict]:
    """The records of a :func:`notebook_run` that carry an ``ordinal`` (made into ``cell``)."""
    return run["items"] + run["practice"]


def notebook_run(path: Path) -> dict:
    """The notebook run once with the three hooks: ``items`` (test_teaching's records),
    ``practice`` (:func:`item_records`'), ``cycles``, ``offline`` (scripts/offline_controls.py's);
    cached (see :func:`run_recorded`)."""
    return run_recorded(path, ALL_HOOK, ALL_REPORT, items=all_items, env=ALL_ENV)


def item_records(path: Path) -> list[dict]:
    """Every item the notebook creates, with ``cell`` = the index of the creating cell."""
    return notebook_run(path)["practice"]


def cache_dir() -> Path:
    """Where recorded runs are cached: ``GENVIZ_PRACTICE_CACHE`` if set, else :data:`CACHE`."""
    return Path(os.environ.get("GENVIZ_PRACTICE_CACHE") or CACHE)


def cache_files(path: Path, hook: str, report: str, env=None) -> tuple[Path, Path]:
    """The cached records of a recorded run of ``path`` and the lock file that guards them: keyed
    by the hash of the notebook, of genviz (the site's fingerprint), of the hook and report and of
    ``env``."""
    env = dict(env or {})
    key = hashlib.sha256(path.read_bytes() + _fingerprint().encode() + (hook + report).encode()
                         + json.dumps(env, sort_keys=True).encode()).hexdigest()[:20]
    folder = cache_dir()
    return folder / f"{path.stem}-{key}.json", folder / f"{path.stem}-{key}.lock"


def run_recorded(path: Path, hook: str, report: str, *, items, env=None):
    """Run the notebook once in a kernel (nbclient; genviz from this work tree) with ``hook`` as
    its first cell and ``report`` as its last; return the JSON the report prints after
    ``GENVIZ-RECORDS``, where ``items(run)`` lists the records whose ``ordinal`` (the how-many-th
    code cell made it) becomes ``cell`` (its index in the notebook). Cached by the hash of the
    notebook, of genviz (the site's fingerprint) and of the hook (:func:`cache_files`). ``env``:
    more environment for the kernel. Two test workers asking for the same run: the second waits
    for the first's (nbval recording the notebook, tests/nbval_records.py, never waits: it
    records only when it gets the lock at once)."""
    env = dict(env or {})
    cached, lockfile = cache_files(path, hook, report, env)
    cached.parent.mkdir(parents=True, exist_ok=True)
    with open(lockfile, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if cached.exists():
            return json.loads(cached.read_text())
        return _run(path, hook, report, items, env, cached)


def kernel_env(extra_env: dict) -> dict:
    """What a recorded run adds to the environment of its kernel: ``extra_env`` and this work
    tree first on PYTHONPATH (the kernel imports this work tree's genviz)."""
    return dict(extra_env, PYTHONPATH=os.pathsep.join(
        [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))


def _run(path, hook, report, items, extra_env, cached) -> dict:
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    cells = list(nb.cells)
    nb.cells.insert(0, nbformat.v4.new_code_cell(hook))
    nb.cells.append(nbformat.v4.new_code_cell(report))
    env = dict(os.environ, **kernel_env(extra_env))
    client = NotebookClient(nb, timeout=600, startup_timeout=180, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    old = dict(os.environ)
    os.environ.update(env)  # the kernel inherits it: it imports this work tree's genviz
    try:
        client.execute()
    finally:
        os.environ.clear()
        os.environ.update(old)
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    return save_run(cells, text, items, cached)


def save_run(cells: list, text: str, items, cached: Path) -> dict:
    """The run the report printed in ``text`` (after ``GENVIZ-RECORDS``), each record of
    ``items(run)`` given the ``cell`` its ``ordinal`` names among the notebook's ``cells``;
    written to ``cached`` whole or not at all."""
    run = json.loads(text.split("GENVIZ-RECORDS ", 1)[1])
    code_cells = [i for i, c in enumerate(cells) if c.cell_type == "code"]
    for r in items(run):
        r["cell"] = code_cells[r.pop("ordinal") - 1]
    cached.parent.mkdir(parents=True, exist_ok=True)
    # written whole or not at all: parallel test workers (pytest-xdist) and concurrent runs of
    # the suite read this cache while another writes it
    partial = cached.with_name(f"{cached.name}.{os.getpid()}.tmp")
    partial.write_text(json.dumps(run))
    os.replace(partial, cached)
    return run

"""Every item a notebook creates, as the notebook creates it: the practice checks' records.

The notebook is run once in a kernel (nbclient; genviz from this work tree) with a first cell
that wraps ``genviz.exercises._core.Exercise.__init__`` and records each item created: its class,
kind, objective, id, claims, prompt, reference value (numbers) or text, tolerances, explanation
(choices and predictions), model answer (open questions), and the index of the notebook cell
that created it (counted by a ``pre_run_cell`` event). Records are cached in
``build/practice-cache/`` by the hash of the notebook and of genviz/, so only a changed notebook
or library re-runs.

(tests/test_teaching.py keeps its own, smaller records; these are a superset of them.)
"""

from __future__ import annotations

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


def item_records(path: Path) -> list[dict]:
    """Every item the notebook creates, with ``cell`` = the index of the creating cell."""
    return run_recorded(path, HOOK, REPORT, items=lambda records: records)


def run_recorded(path: Path, hook: str, report: str, *, items):
    """Run the notebook once in a kernel (nbclient; genviz from this work tree) with ``hook`` as
    its first cell and ``report`` as its last; return the JSON the report prints after
    ``GENVIZ-RECORDS``, where ``items(run)`` lists the records whose ``ordinal`` (the how-many-th
    code cell made it) becomes ``cell`` (its index in the notebook). Cached by the hash of the
    notebook, of genviz (the site's fingerprint) and of the hook."""
    key = hashlib.sha256(path.read_bytes() + _fingerprint().encode() + (hook + report).encode()
                         ).hexdigest()[:20]
    cached = CACHE / f"{path.stem}-{key}.json"
    if cached.exists():
        return json.loads(cached.read_text())
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    n_cells = len(nb.cells)
    nb.cells.insert(0, nbformat.v4.new_code_cell(hook))
    nb.cells.append(nbformat.v4.new_code_cell(report))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(NB_DIR)}})
    old = dict(os.environ)
    os.environ.update(env)  # the kernel inherits it: it imports this work tree's genviz
    try:
        client.execute()
    finally:
        os.environ.clear()
        os.environ.update(old)
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    run = json.loads(text.split("GENVIZ-RECORDS ", 1)[1])
    code_cells = [i for i, c in enumerate(nb.cells[1:n_cells + 1]) if c.cell_type == "code"]
    for r in items(run):
        r["cell"] = code_cells[r.pop("ordinal") - 1]
    CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(run))
    return run

"""The lecture page's questions, built from the course (issue #37): never retyped.

Every prediction a notebook makes (a :class:`genviz.exercises.Prediction`, built by the
notebook's own cells from its data) is recorded as the notebook runs -- a first cell wraps
``Prediction.__init__`` -- with what a phone shows of it: the prompt, the options in the order
shown (the order the prediction's ``id`` fixes, the same as in every student's box and on the
lecturer's panel, so option 2 is the same text everywhere), the right options, the explanation
(sent to a phone only after the lecturer's reveal) and the observation's prompt. Texts are
kept as markdown and as the HTML the prediction boxes show (``_markdown_to_html``).

With each question goes the explorer it is about -- the one its observation box reads,
``observation_box(p, explorer)`` -- in the form the course website embeds (the notebook runs
with ``GENVIZ_STATES=embed``; the payload is the one ``Explorer._repr_mimebundle_`` puts in the
image's metadata, ``genviz.widgets.payload.static_payload``: spec, values, readout and the
gridded controls' precomputed states), stored once per explorer under a content hash, with
explorer.js and explorer.css (the module that mounts it, ``mountStaticExplorers``). The
service serves each as its own cacheable resource, never inside the long-poll JSON.

    python deploy/poll/lecture_bundle.py build [--out FILE] [NOTEBOOK ...]

writes the bundle (JSON) where the poll service reads it: by default into the environment
it runs in, ``<sys.prefix>/share/genviz/lecture_bundle.json``, the file every hub's
configuration names (deploy/poll/hub_config.py ``installed_bundle``; postBuild writes the same
on Binder, TLJH and Z2JH; ``make lecture-bundle`` for the trial hub). The service re-reads it
when the file changes, so a bundle built while the hub runs is used at the next phone's
request. Runs in the course's environment (genviz, nbclient), not the hub's.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"
BUNDLE_NAME = "lecture_bundle.json"
FORMAT = 1

HOOK = r'''
import json as _gvl_json
import genviz.exercises as _gvl_ex
from genviz.exercises._core import _markdown_to_html as _gvl_html
_gvl_records = []
_gvl_init = _gvl_ex.Prediction.__init__
def _gvl_record(self, *args, **kwargs):
    _gvl_init(self, *args, **kwargs)
    obs = getattr(self, "observation", None)
    _gvl_records.append({
        "id": self.id, "prompt": self.prompt, "prompt_html": _gvl_html(self.prompt),
        "options": list(self.options), "options_html": [_gvl_html(o) for o in self.options],
        "letters": [self.label(i) for i in range(len(self.options))],
        "correct": list(self.correct), "explanation": self.explanation,
        "explanation_html": _gvl_html(self.explanation),
        "observation": None if obs is None else obs.prompt,
        "observation_html": None if obs is None else _gvl_html(obs.prompt)})
_gvl_ex.Prediction.__init__ = _gvl_record
'''

# The explorer each prediction is about: the one its observation box reads
# (``observation_box(p, explorer)``), in the form the course website embeds: the payload an
# explorer's image output carries in its metadata under GENVIZ_STATES=embed
# (``Explorer._repr_mimebundle_`` -> ``genviz.widgets.payload.static_payload``), kept as
# displayed; an explorer never displayed gets ``static_payload`` of its state then.
EXPLORER_HOOK = r'''
import os as _gvl_os
_gvl_os.environ["GENVIZ_STATES"] = "embed"
from genviz.widgets import _base as _gvl_base, observations as _gvl_obs, payload as _gvl_payload
_gvl_explorers = []
_gvl_repr = _gvl_base.Explorer._repr_mimebundle_
def _gvl_repr_keep(self, *args, **kwargs):
    data, metadata = _gvl_repr(self, *args, **kwargs)
    payload = metadata.get("image/png", {}).get("genviz_explorer")
    if payload is not None:
        self._gvl_payload = payload
    return data, metadata
_gvl_base.Explorer._repr_mimebundle_ = _gvl_repr_keep
_gvl_obs_init = _gvl_obs.ObservationBox.__init__
def _gvl_obs_record(self, prediction, explorer=None, *args, **kwargs):
    _gvl_obs_init(self, prediction, explorer, *args, **kwargs)
    if explorer is None:
        return
    payload = getattr(explorer, "_gvl_payload", None)
    if payload is None and getattr(explorer, "grid_bytes", None) is not None:
        payload = _gvl_payload.static_payload(explorer)
    if payload is not None:
        _gvl_explorers.append({"id": prediction.id, "payload": payload})
_gvl_obs.ObservationBox.__init__ = _gvl_obs_record
'''
REPORT = 'print("GENVIZ-LECTURE " + _gvl_json.dumps(_gvl_records))'
EXPLORER_REPORT = 'print("GENVIZ-EXPLORERS " + _gvl_json.dumps(_gvl_explorers))'


_GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "theta": "θ",
          "lambda": "λ", "mu": "μ", "pi": "π", "rho": "ρ", "sigma": "σ", "phi": "φ", "chi": "χ",
          "Sigma": "Σ", "Phi": "Φ", "Delta": "Δ", "mid": "|", "to": "→", "approx": "≈",
          "prod": "∏", "sum": "∑", "le": "≤", "ge": "≥", "cdot": "·", "times": "×",
          "infty": "∞", "log": "log", "exp": "exp", "hat": "", "left": "", "right": ""}
_MATH = re.compile(r"\$([^$]+)\$")


def _tex_inline(tex: str) -> str:
    """A phone's rendering of one inline formula, without MathJax (the lecture page stays
    light): Greek letters and symbols as Unicode, ``\\frac{a}{b}`` and ``\\sqrt{x}`` as
    ``(a)/(b)`` and ``√(x)``, ``^{..}``/``_{..}`` as superscripts/subscripts, in italics.

    >>> _tex_inline(r"\\alpha = 0")
    '<i>α = 0</i>'
    >>> _tex_inline(r"10^{10}")
    '<i>10<sup>10</sup></i>'
    >>> _tex_inline(r"P(\\text{No} \\mid x)")
    '<i>P(No | x)</i>'
    """
    t = tex
    for _ in range(4):  # nested braces, inside out
        t = re.sub(r"\\t?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}", r"(\1)/(\2)", t)
        t = re.sub(r"\\tfrac(\d)(\d)", r"\1/\2", t)
        t = re.sub(r"\\sqrt\s*\{([^{}]*)\}", r"√(\1)", t)
        t = re.sub(r"\\text\s*\{([^{}]*)\}", r"\1", t)
        t = re.sub(r"\^\{([^{}]*)\}", r"<sup>\1</sup>", t)
        t = re.sub(r"_\{([^{}]*)\}", r"<sub>\1</sub>", t)
    t = re.sub(r"\\hat\s*\{?(\w)\}?", "\\1\u0302", t)
    t = re.sub(r"\^(\\?\w)", r"<sup>\1</sup>", t)
    t = re.sub(r"_(\\?\w)", r"<sub>\1</sub>", t)
    t = re.sub(r"\\([A-Za-z]+)", lambda m: _GREEK.get(m.group(1), m.group(1)), t)
    t = t.replace("{", "").replace("}", "").replace("\\", "")
    return f"<i>{t}</i>"


def plain_math(html_text: str) -> str:
    """``html_text`` with every ``$...$`` formula rendered by :func:`_tex_inline`."""
    return _MATH.sub(lambda m: _tex_inline(m.group(1)), html_text or "")


def record_notebook(path: Path, *, timeout: int = 600, kernel: str = "python3",
                    explorers: bool = True) -> list[dict]:
    """Run one notebook (nbclient, in its folder) and return the predictions it made, in order;
    with ``explorers``, each with ``"explorer"``: the payload the course website embeds for
    the explorer its observation box reads (None when it has none). ``timeout`` bounds each
    cell and the kernel's start.

    Raises
    ------
    FileNotFoundError
        ``path`` does not exist.
    RuntimeError
        A cell failed (the notebook's error is named) or the recording was not printed.
    """
    import nbclient
    import nbformat

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"notebook {path} does not exist")
    nb = nbformat.read(path, as_version=4)
    nb.cells.insert(0, nbformat.v4.new_code_cell(HOOK + (EXPLORER_HOOK if explorers else "")))
    nb.cells.append(nbformat.v4.new_code_cell(
        REPORT + ("\n" + EXPLORER_REPORT if explorers else "")))
    # The kernel's start is bounded by ``timeout`` too: nbclient's default of 60 s was once
    # exceeded by a start on two cores busy with three test workers (make test, 2026-12-03).
    client = nbclient.NotebookClient(nb, timeout=timeout, startup_timeout=timeout,
                                     kernel_name=kernel,
                                     resources={"metadata": {"path": str(path.parent)}})
    try:
        client.execute()
    except nbclient.exceptions.CellExecutionError as err:
        raise RuntimeError(f"{path.name}: a cell failed while recording its predictions: "
                           f"{str(err).strip().splitlines()[-1]}") from None
    printed = {}
    for out in nb.cells[-1].get("outputs", []):
        for line in str(out.get("text", "")).splitlines():
            for tag in ("GENVIZ-LECTURE ", "GENVIZ-EXPLORERS "):
                if line.startswith(tag):
                    printed[tag] = json.loads(line[len(tag):])
    if "GENVIZ-LECTURE " not in printed or (explorers and "GENVIZ-EXPLORERS " not in printed):
        raise RuntimeError(f"{path.name}: the recording cell printed nothing")
    records = printed["GENVIZ-LECTURE "]
    if explorers:
        payloads = {e["id"]: e["payload"] for e in printed["GENVIZ-EXPLORERS "]}
        for rec in records:
            rec["explorer"] = payloads.get(rec["id"])
    return records


def explorer_key(payload: dict) -> str:
    """The content hash naming an explorer's payload in the bundle (and its ETag on the
    lecture service): sha256 of its compact JSON, 32 hex digits."""
    text = json.dumps(payload, separators=(",", ":"), sort_keys=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def explorer_module() -> dict:
    """explorer.js (:func:`genviz.widgets.payload.module_source`, what the site inlines) and
    explorer.css, carried by the bundle so the lecture service -- in the hub's environment,
    without genviz -- serves the very module that reads these payloads."""
    from genviz.widgets import payload

    css = Path(payload.__file__).parent / "static" / "explorer.css"
    return {"js": payload.module_source(), "css": css.read_text(encoding="utf-8")}


def build(notebooks, *, timeout: int = 600, explorers: bool = True) -> dict:
    """The bundle of ``notebooks`` (paths): ``{"format", "built", "questions": {id: {...,
    "notebook": name, "explorer": key or None}}, "explorers": {key: payload},
    "explorer_module": {"js", "css"}}``. A prediction id made twice (a cell re-run) keeps its
    last texts; the same id in two notebooks is an error (ids are unique across the course).
    An explorer read by two questions is stored once (``key``: :func:`explorer_key`)."""
    questions: dict[str, dict] = {}
    payloads: dict[str, dict] = {}
    for nb in notebooks:
        nb = Path(nb)
        for rec in record_notebook(nb, timeout=timeout, explorers=explorers):
            other = questions.get(rec["id"], {}).get("notebook")
            if other not in (None, nb.name):
                raise ValueError(f"prediction id {rec['id']!r} is made by {other} and {nb.name}")
            for key in ("prompt_html", "explanation_html", "observation_html"):
                rec[key] = plain_math(rec[key]) if rec.get(key) else rec.get(key)
            rec["options_html"] = [plain_math(o) for o in rec["options_html"]]
            payload = rec.pop("explorer", None)
            if payload is not None:
                rec["explorer"] = explorer_key(payload)
                payloads[rec["explorer"]] = payload
            else:
                rec["explorer"] = None
            questions[rec["id"]] = {**rec, "notebook": nb.name}
    used = {q["explorer"] for q in questions.values()}
    bundle = {"format": FORMAT, "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
              "questions": questions,
              "explorers": {k: v for k, v in payloads.items() if k in used}}
    if bundle["explorers"]:
        bundle["explorer_module"] = explorer_module()
    return bundle


def write(bundle: dict, out: Path) -> Path:
    """Write atomically (the service may read it at any moment)."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp")
    tmp.write_text(json.dumps(bundle, indent=1, ensure_ascii=False), encoding="utf-8")
    os.replace(tmp, out)
    return out


def default_out() -> Path:
    """The installed bundle of this environment (hub_config.installed_bundle(sys.prefix))."""
    return Path(sys.prefix) / "share" / "genviz" / BUNDLE_NAME


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description="Build the lecture page's questions from the course")
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="run the notebooks and record their predictions")
    b.add_argument("notebooks", nargs="*", type=Path,
                   help="default: every notebooks/[0-9][0-9]_*.ipynb")
    b.add_argument("--out", type=Path, default=None, help=f"default: {default_out()}")
    b.add_argument("--timeout", type=int, default=600,
                   help="seconds per cell, and for the kernel to start")
    b.add_argument("--no-explorers", action="store_true",
                   help="texts only: no explorer moving on the phones (no grids built)")
    args = p.parse_args(argv)
    notebooks = args.notebooks or sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
    bundle = build(notebooks, timeout=args.timeout, explorers=not args.no_explorers)
    out = write(bundle, args.out or default_out())
    moving = sum(q["explorer"] is not None for q in bundle["questions"].values())
    print(f"{len(bundle['questions'])} questions ({moving} with their explorer) from "
          f"{len(notebooks)} notebooks -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

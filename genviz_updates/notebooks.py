"""A three-way merge of Jupyter notebooks that works cell by cell (standard library only).

The course's cell list is the spine. Cells are matched by their nbformat cell id; where ids
cannot be used (a notebook older than nbformat 4.5 has none, JupyterLab gives every cell a new
random id when it upgrades such a notebook) they are matched by aligning the cells' contents.

Rules (base = the course version the student last had, ours = the student's, theirs = the
course's new version):

- a cell only the course changed (source, type, attachments) becomes the course's cell (its
  outputs with it: the student's outputs belonged to code that is gone);
- a cell only the student changed, or only ran (outputs, execution counts), stays theirs;
- a cell whose stored output only the course changed gets the course's output if the student
  did not run it (else the student's run is kept, and :func:`missed_changes` names it);
- a cell both changed keeps the **student's** text (reported by :func:`missed_changes`);
- cells the course inserts arrive; cells the course deletes go, unless the student edited them;
- cells the student inserts stay, after the cell they followed; a cell the student moved (and
  the course did not) stays where the student put it; otherwise the course's order wins;
- metadata (notebook and cell) merge key by key, the student's value winning a conflict;
- every cell id in the result is unique (duplicates in an input keep the id on one cell only).

:func:`missed_changes` compares the result with the course's version and names every course
change that did not arrive, so a notice can be complete and true whatever produced the result.

Examples
--------
>>> def nb(*cells):
...     return {"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [
...         {"id": i, "cell_type": "code", "source": s, "metadata": {}, "outputs": [],
...          "execution_count": None} for i, s in cells]}
>>> base = nb(("a", "x = 1"), ("b", "y = 2"))
>>> ours = nb(("a", "x = 1"), ("b", "y = 3  # mine"))
>>> theirs = nb(("a", "x = 10  # fixed"), ("n", "new = 1"), ("b", "y = 2"))
>>> merged = merge_notebooks(base, ours, theirs)
>>> [(c["id"], c["source"]) for c in merged["cells"]]
[('a', 'x = 10  # fixed'), ('n', 'new = 1'), ('b', 'y = 3  # mine')]
>>> missed_changes(base, ours, theirs, merged)
[]
"""

from __future__ import annotations

import bisect
import copy
import hashlib
import json

from genviz_updates.pairing import align, content_key, source

__all__ = ["read_notebook", "dumps_notebook", "merge_notebooks", "missed_changes",
           "delivered_changes", "source", "content_key", "cell_hash", "outputs_key"]

# --- reading and writing ------------------------------------------------------------------------

def read_notebook(text) -> dict:
    """A notebook dict from JSON text or bytes; ``ValueError`` if it is not a v4 notebook."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    nb = json.loads(text)
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list) or nb.get("nbformat") != 4:
        raise ValueError("not an nbformat 4 notebook")
    if not all(isinstance(c, dict) and c.get("cell_type") in ("code", "markdown", "raw")
               for c in nb["cells"]):
        raise ValueError("a cell is not a code, markdown or raw cell")
    return nb


def dumps_notebook(nb: dict) -> str:
    """JSON text as jupyter-server writes it (indent 1, sorted keys, trailing newline)."""
    return json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def cell_hash(cell: dict) -> str:
    """A short hash of :func:`content_key` (what a tab showed of a cell, without outputs)."""
    return hashlib.sha1(repr(content_key(cell)).encode()).hexdigest()[:16]


def _joined(x):
    if isinstance(x, list) and all(isinstance(s, str) for s in x):
        return "".join(x)
    if isinstance(x, dict):
        return {k: _joined(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_joined(v) for v in x]
    return x


def outputs_key(cell: dict) -> str:
    """A code cell's stored outputs, as JSON with multi-line strings joined ('' for others)."""
    if cell.get("cell_type") != "code":
        return ""
    return json.dumps(_joined(cell.get("outputs") or []), sort_keys=True)


def attachment_changes(old: dict | None, new: dict) -> list[str]:
    """Names of the attachments ``new`` has that ``old`` lacks or has with other bytes."""
    before = (old or {}).get("attachments") or {}
    after = new.get("attachments") or {}
    return sorted(name for name, data in after.items() if before.get(name) != data)


#: the image types a kernel shows (IPython.display) and, in all, the base64 text an item keeps
#: of a cell's changed attachments: larger images are named, not kept
SHOWN_IMAGES = ("image/png", "image/jpeg", "image/gif", "image/svg+xml")
MAX_IMAGE_TEXT = 2_000_000


def attachment_images(cell: dict, names) -> list[dict]:
    """The images among ``cell``'s attachments ``names`` as ``[{name, mime, data}]`` (data:
    base64 text, as stored; an SVG's XML), at most :data:`MAX_IMAGE_TEXT` characters in all."""
    out, size = [], 0
    for name in names:
        bundle = ((cell.get("attachments") or {}).get(name)) or {}
        mime = next((m for m in SHOWN_IMAGES if isinstance(bundle.get(m), (str, list))), None)
        if mime is None:
            continue
        data = bundle[mime] if isinstance(bundle[mime], str) else "".join(bundle[mime])
        size += len(data)
        if size > MAX_IMAGE_TEXT:
            break
        out.append({"name": name, "mime": mime, "data": data})
    return out


# --- matching cells -------------------------------------------------------------------------------

def _ids(cells):
    return [c.get("id") if isinstance(c.get("id"), str) and c.get("id") else None for c in cells]


def _unique_ids(cells, prefer=None):
    """Each cell's id, None for cells without one and for all but one of a duplicated id (the
    kept one is the cell whose content equals ``prefer``'s cell of that id, else the first)."""
    ids = _ids(cells)
    seen: dict = {}
    for i, cid in enumerate(ids):
        if cid is not None:
            seen.setdefault(cid, []).append(i)
    out = list(ids)
    for cid, where in seen.items():
        if len(where) > 1:
            keep = where[0]
            if prefer and cid in prefer:
                same = [i for i in where if content_key(cells[i]) == content_key(prefer[cid])]
                keep = same[0] if same else keep
            for i in where:
                if i != keep:
                    out[i] = None
    return out


def _align(a_cells, b_cells, a_idx, b_idx) -> dict:
    """Match cells a_idx of a to cells b_idx of b by content (``genviz_updates.pairing``)."""
    return align(a_cells, b_cells, a_idx, b_idx)


def match_cells(a_cells, b_cells, a_ids=None, b_ids=None) -> dict:
    """{index in a: index in b} of the cells that are the same cell.

    By id where every cell of both sides has one (a duplicated id counts for one cell only;
    the others, with ``a_ids``/``b_ids`` None there, are matched to cells of identical
    content); by content alignment where a side has cells without ids (nbformat < 4.5;
    ``genviz_updates.pairing``: best similarity inside a replaced run).
    """
    complete = all(_ids(a_cells)) and all(_ids(b_cells))
    a_ids = _ids(a_cells) if a_ids is None else a_ids
    b_ids = _ids(b_cells) if b_ids is None else b_ids
    shared = set(filter(None, a_ids)) & set(filter(None, b_ids))
    if not complete:
        return _align(a_cells, b_cells, list(range(len(a_cells))), list(range(len(b_cells))))
    where_b = {cid: j for j, cid in enumerate(b_ids) if cid is not None}
    out = {i: where_b[cid] for i, cid in enumerate(a_ids) if cid in shared}
    rest_a = [i for i, cid in enumerate(a_ids) if i not in out and cid is None]
    rest_b = [j for j, cid in enumerate(b_ids) if cid is None]
    if rest_a and rest_b:
        exact = _align(a_cells, b_cells, rest_a, rest_b)
        out.update({i: j for i, j in exact.items()
                    if content_key(a_cells[i]) == content_key(b_cells[j])})
    return out


def _in_place(seq) -> set:
    """Positions of a longest increasing subsequence of ``seq`` (the cells that did not move)."""
    tails, tails_at, prev = [], [], [None] * len(seq)
    for pos, v in enumerate(seq):
        k = bisect.bisect_left(tails, v)
        if k == len(tails):
            tails.append(v)
            tails_at.append(pos)
        else:
            tails[k], tails_at[k] = v, pos
        prev[pos] = tails_at[k - 1] if k else None
    keep, pos = set(), (tails_at[-1] if tails_at else None)
    while pos is not None:
        keep.add(pos)
        pos = prev[pos]
    return keep


def _moved(base_to_x: dict, n_x: int) -> set:
    """Base indices of the cells that side x moved (relative order changed)."""
    x_order = sorted((xi, bi) for bi, xi in base_to_x.items())
    seq = [bi for _, bi in x_order]
    keep = _in_place(seq)
    return {bi for pos, bi in enumerate(seq) if pos not in keep}


# --- merging ----------------------------------------------------------------------------------------

def _merge_dicts(base, ours, theirs):
    """Three-way merge of two dicts, key by key; a key both changed keeps ours."""
    base, ours, theirs = base or {}, ours or {}, theirs or {}
    out = {}
    for key in list(theirs) + [k for k in ours if k not in theirs]:
        b, o, t = base.get(key, _MISSING), ours.get(key, _MISSING), theirs.get(key, _MISSING)
        value = t if o == b else o
        if value is not _MISSING:
            out[key] = copy.deepcopy(value)
    return out


_MISSING = object()


def _has_ids(nb) -> bool:
    return (nb.get("nbformat_minor", 0) >= 5
            or any("id" in c for c in nb.get("cells", [])))


def merge_notebooks(base: dict, ours: dict, theirs: dict) -> dict:
    """The merged notebook (a new dict); see the module docstring for the rules.

    ``base`` may be None (the course added the notebook on both sides): then it is taken as
    an empty notebook.
    """
    base = base if base is not None else {"cells": [], "metadata": {}, "nbformat": 4,
                                          "nbformat_minor": theirs.get("nbformat_minor", 5)}
    B, O, T = base["cells"], ours["cells"], theirs["cells"]
    base_by_id = {cid: B[i] for i, cid in enumerate(_unique_ids(B)) if cid}
    b_ids = _unique_ids(B)
    o_ids, t_ids = _unique_ids(O, base_by_id), _unique_ids(T, base_by_id)
    bo = match_cells(B, O, b_ids, o_ids)
    bt = match_cells(B, T, b_ids, t_ids)
    ob = {o: b for b, o in bo.items()}
    tb = {t: b for b, t in bt.items()}
    student_moved = _moved(bo, len(O)) - _moved(bt, len(T))
    # a cell both sides added with the same id (a course cell the student already has) is one
    o_new = {cid: oi for oi, cid in enumerate(o_ids) if cid and oi not in ob}
    both_added = {ti: o_new[cid] for ti, cid in enumerate(t_ids)
                  if cid in o_new and ti not in tb}

    def merged_cell(bi, o, t):
        """The result for base cell bi given its ours/theirs cells (either may be None)."""
        b = B[bi]
        if o is None:
            return None  # the student deleted it: their deletion stands
        if t is None:  # the course deleted it
            return o if content_key(o) != content_key(b) else None
        student, course = content_key(o) != content_key(b), content_key(t) != content_key(b)
        cell = copy.deepcopy(t if course and not student else o)
        if not student and not course and outputs_key(o) == outputs_key(b) != outputs_key(t):
            # only the course's stored output changed, and the student did not run the cell
            cell["outputs"] = copy.deepcopy(t.get("outputs", []))
            cell["execution_count"] = t.get("execution_count")
        cell["metadata"] = _merge_dicts(b.get("metadata"), o.get("metadata"), t.get("metadata"))
        return cell

    # the spine: the course's cells in the course's order
    result = []  # entries: (cell, tag) where tag = ("t", index in theirs) or ("o", index in ours)
    placed_o = set()
    for ti, t in enumerate(T):
        bi = tb.get(ti)
        if bi is None and ti in both_added:
            oi = both_added[ti]
            cell = copy.deepcopy(O[oi])
            cell["metadata"] = _merge_dicts({}, O[oi].get("metadata"), t.get("metadata"))
            result.append((cell, ("o", oi)))
            continue
        if bi is None:
            result.append((copy.deepcopy(t), ("t", ti)))
            continue
        oi = bo.get(bi)
        cell = merged_cell(bi, O[oi] if oi is not None else None, t)
        if cell is None:
            continue
        if oi is not None and bi in student_moved:
            placed_o.add(oi)  # goes where the student put it (below)
            continue
        result.append((cell, ("o", oi) if oi is not None else ("t", ti)))
    # the student's cells that are not on the spine: inserted, moved, kept after a course delete
    spine_o = {oi for tag, oi in (e[1] for e in result) if tag == "o"}
    last = None  # position in result after which the next student cell goes
    for oi, o in enumerate(O):
        if oi in spine_o:
            last = next(k for k, e in enumerate(result) if e[1] == ("o", oi))
            continue
        bi = ob.get(oi)
        if bi is None:
            cell = copy.deepcopy(o)  # inserted by the student
        elif oi in placed_o:
            t_index = bt.get(bi)
            cell = merged_cell(bi, o, T[t_index] if t_index is not None else None)
        else:
            cell = merged_cell(bi, o, None) if bt.get(bi) is None else None
        if cell is None:
            continue
        pos = 0 if last is None else last + 1
        result.insert(pos, (cell, ("o", oi)))
        last = pos

    out = {key: copy.deepcopy(value) for key, value in theirs.items() if key != "cells"}
    out["metadata"] = _merge_dicts(base.get("metadata"), ours.get("metadata"),
                                   theirs.get("metadata"))
    with_ids = _has_ids(ours) or _has_ids(theirs)
    out["nbformat"] = 4
    out["nbformat_minor"] = max(ours.get("nbformat_minor", 4), theirs.get("nbformat_minor", 4),
                                5 if with_ids else 0)
    out["cells"] = _with_ids(result, with_ids, t_ids, o_ids, ob, bt)
    return out


def _with_ids(result, with_ids, t_ids, o_ids, ob, bt) -> list:
    """The result's cells with unique ids (the course's id first, then the student's, else a
    new one), or none at all when neither side has ids; each cell with its type's fields."""
    cells, used = [], set()
    for k, (cell, tag) in enumerate(result):
        if with_ids:
            want = []
            if tag[0] == "t":
                want.append(t_ids[tag[1]])
            else:
                bi = ob.get(tag[1])
                if bi is not None and bt.get(bi) is not None:
                    want.append(t_ids[bt[bi]])
                want.append(o_ids[tag[1]])
            cid = next((w for w in want if w and w not in used), None)
            cell["id"] = cid or _fresh_id(cell, k, used)
            used.add(cell["id"])
        else:
            cell.pop("id", None)
        _clean(cell)
        cells.append(cell)
    return cells


def _fresh_id(cell, k, used) -> str:
    seed = f"{k}:{source(cell)}".encode()
    n = 0
    while True:
        cid = hashlib.sha1(seed + str(n).encode()).hexdigest()[:8]
        if cid not in used:
            return cid
        n += 1


def _clean(cell):
    """The fields a cell of its type may have (nbformat 4)."""
    if cell.get("cell_type") == "code":
        cell.setdefault("outputs", [])
        cell.setdefault("execution_count", None)
        cell.pop("attachments", None)
    else:
        cell.pop("outputs", None)
        cell.pop("execution_count", None)
    cell.setdefault("metadata", {})
    cell.setdefault("source", "")


# --- what did not arrive ----------------------------------------------------------------------------

def _describe(cell) -> str:
    first = next((line.strip() for line in source(cell).splitlines() if line.strip()), "")
    return first[:60] + ("..." if len(first) > 60 else "")


def missed_changes(base, ours, theirs, merged) -> list[dict]:
    """Every change from ``base`` to ``theirs`` (the course's) that is not in ``merged``.

    Each item is a dict: ``kind`` (``kept-yours``: the student's edit of a cell the course
    changed was kept; ``you-deleted``: the course changed a cell the student had deleted;
    ``kept-deleted``: the course deleted a cell the student edited, which was kept;
    ``not-deleted``: a cell the course deleted is still there (the student did not edit it);
    ``not-added``: a cell the course added is missing; ``not-changed``: a course change is
    missing for another reason; ``not-moved``: a cell the course moved is not where the course
    put it; ``output-not-updated``: the course changed only a cell's stored output and the
    student's cell, which they ran, keeps theirs), ``id`` (the course's cell id or None), ``index`` (1-based position of the cell in
    ``merged``, or of the cell after which it belongs), ``cell_type``, ``course`` (the course's
    source, '' for a deletion), ``first_line`` (to recognise the cell) and, when the course
    changed a cell's image attachments, ``attachments`` (their names) and ``images`` (the
    course's new images, :func:`attachment_images`).
    """
    base = base if base is not None else {"cells": []}
    B, O, T, M = base["cells"], ours["cells"], theirs["cells"], merged["cells"]
    base_by_id = {cid: B[i] for i, cid in enumerate(_unique_ids(B)) if cid}
    b_ids = _unique_ids(B)
    o_ids, t_ids, m_ids = (_unique_ids(x, base_by_id) for x in (O, T, M))
    bt = match_cells(B, T, b_ids, t_ids)
    bo = match_cells(B, O, b_ids, o_ids)
    tm = match_cells(T, M, t_ids, m_ids)
    om = match_cells(O, M, o_ids, m_ids)
    tb = {t: b for b, t in bt.items()}
    items = []

    def where(ti):
        """1-based index in merged of T[ti], or of the closest earlier course cell in merged."""
        for k in range(ti, -1, -1):
            if k in tm:
                return tm[k] + 1
        return 0

    def item(kind, ti=None, cell=None, index=None):
        cell = cell if cell is not None else T[ti]
        items.append({"kind": kind, "id": cell.get("id") if isinstance(cell.get("id"), str) else None,
                      "index": index if index is not None else where(ti),
                      "cell_type": cell.get("cell_type"),
                      "course": "" if kind in ("kept-deleted", "not-deleted") else source(cell),
                      "first_line": _describe(cell)})
        if ti is not None and kind not in ("kept-deleted", "not-deleted"):
            bi = tb.get(ti)
            names = attachment_changes(B[bi] if bi is not None else None, T[ti])
            if names:  # an image changed: the course's source alone would not show it
                items[-1]["attachments"] = names
                images = attachment_images(T[ti], names)
                if images:  # what a kernel shows under the notice
                    items[-1]["images"] = images

    for ti, t in enumerate(T):
        mi = tm.get(ti)
        if mi is not None and content_key(M[mi]) == content_key(t):
            bi = tb.get(ti)
            if (bi is not None and content_key(B[bi]) == content_key(t)
                    and outputs_key(B[bi]) != outputs_key(t) != outputs_key(M[mi])):
                item("output-not-updated", ti)  # only its stored output changed; not here
            continue  # arrived (or never changed)
        bi = tb.get(ti)
        if bi is not None and content_key(B[bi]) == content_key(t):
            continue  # not a course change: the student edited or deleted it
        oi = bo.get(bi) if bi is not None else None
        edited = oi is not None and content_key(O[oi]) != content_key(B[bi])
        if bi is None:
            item("not-added" if mi is None else "kept-yours", ti)
        elif oi is None:
            item("you-deleted", ti)
        elif mi is not None and edited:
            item("kept-yours", ti)
        else:
            item("not-changed", ti)
    for bi, b in enumerate(B):
        if bi in bt:
            continue
        oi = bo.get(bi)
        mi = om.get(oi) if oi is not None else None
        if mi is not None:
            edited = content_key(O[oi]) != content_key(b)
            item("kept-deleted" if edited else "not-deleted", cell=M[mi], index=mi + 1)
    # moves: cells the course moved that are not in the course's order in merged
    course_moved = _moved(bt, len(T))
    student_placed = {bt[bi] for bi in _moved(bo, len(O)) - course_moved if bi in bt}
    pairs = sorted((mi, ti) for ti, mi in tm.items() if ti not in student_placed)
    seq = [ti for _, ti in pairs]
    keep = _in_place(seq)
    out_of_order = {seq[p] for p in range(len(seq)) if p not in keep}
    for ti in sorted(out_of_order):
        if tb.get(ti) in course_moved:
            item("not-moved", ti, index=tm[ti] + 1)
    return sorted(items, key=lambda x: x["index"])


def delivered_changes(base, ours, merged) -> dict:
    """What a merge changed in the student's notebook: ``inserted`` (ids of cells in merged and
    not in ours), ``changed`` ({id: sha1 of the merged source} of cells whose content the merge
    changed) and ``deleted`` (ids of ours' cells gone from merged). Used to recognise a save
    from a browser tab that still shows the notebook from before the merge."""
    O, M = ours["cells"], merged["cells"]
    om = match_cells(O, M)
    mo = {m: o for o, m in om.items()}
    inserted = [c.get("id") for k, c in enumerate(M) if k not in mo and c.get("id")]
    changed = {M[m].get("id"): _hash(source(M[m])) for o, m in om.items()
               if M[m].get("id") and content_key(O[o]) != content_key(M[m])}
    deleted = [c.get("id") for k, c in enumerate(O) if k not in om and c.get("id")]
    return {"inserted": inserted, "changed": changed, "deleted": deleted}


def _hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]

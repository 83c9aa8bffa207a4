"""Pairing cells that have no usable ids (standard library only).

A notebook older than nbformat 4.5 has no cell ids, and JupyterLab gives each of its cells a
new random id when a tab loads it (and saves them): such cells can only be paired by content.
:func:`align` does it for :func:`genviz_updates.notebooks.match_cells` (the merge and
:func:`~genviz_updates.notebooks.missed_changes` alike): runs of identical cells pair in order
(``difflib`` on the cells' content), and inside a run one side replaced, cells pair by **best
similarity**, in order: the pairing that keeps the order and has the largest total similarity
(a dynamic programme over the run, bounded by :data:`WINDOW`). So a rewritten cell pairs with
its old version even where the course inserted a cell next to it that happens to look more
like it character by character (``x = 1`` rewritten as ``x = 2  # fixed``, ``y = x * 10``
inserted after it: the greedy first-fit pairing this replaced took the fix for an insert and
the old cell for deleted, or the insert for the fix).

A pair below :data:`MOVED` (in lines and in words) is taken where its place says so: between
two equal cells, or other pairs, or flush with the notebook's start or end on both sides. At
an end where one side has cells left unpaired, such a pair is dropped: cells a course
appended after the one it deleted are candidates nothing rules out (the id-less randomized
trials' seeds 13 and 29: ``#c5|Text 5.`` deleted at the end and ``#c15|Text 15.`` appended,
words 0.33, paired as a rewrite, and a stale tab's edit of the old cell stood for the new
one, which was lost). Between equal cells the same pair is taken (``x = 1`` and its fix).

Similarity (:func:`similarity`) is the ratio of common lines (``difflib``) where both cells
have several lines and share enough of them, else the larger of that and the ratio of common
whitespace-separated words, or of common code tokens where one cell is the other with code
added (:func:`added_to`: ``print(x)`` and ``print(x, 'mine')`` share no word): character
ratios, and tokens in general, rate any two short cells of code alike (``v3 = 3`` and ``v7 =
7`` share most characters), and words alone rate a cell's older, shorter version above its
edit with a line typed below. Two cells pair when they have one type
and a similarity of at least :data:`FLOOR`, also where both sides have as many cells in the
run: a cell rewritten beyond that is taken for deleted and another inserted. What a student
who edited it then gets is both cells, told (``kept-deleted``): nothing lost. Pairing by
position there (as before) took a cell the course deleted and one it inserted at that place
for a rewrite, and a student's edit of the old cell hid the new one (the randomized
id-less trials, seed 35).

What cannot be told apart by content: a cell deleted and a similar one inserted at the same
place between equal cells pair as an edit (the student who edited the old one keeps it,
and the new one is named, ``kept-yours``); a cell whose type changed is another cell.
"""

from __future__ import annotations

import difflib
import functools
import json
import re

__all__ = ["align", "similarity", "added_to", "source", "content_key", "FLOOR", "WINDOW"]

#: the least similarity (0..1) for two cells of one type to pair
FLOOR = 0.3
#: the least similarity for a cell to pair with one elsewhere (a cell one side moved and
#: maybe edited: a cell of two lines with one changed is 0.5), and the most comparisons
#: made to find such pairs
MOVED = 0.5
MAX_MOVED = 2500
#: how far (in cells) from its place in a replaced run a cell looks for its other version:
#: bounds the work on a notebook whose every cell changed to O(n * WINDOW) comparisons
WINDOW = 25


def source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def content_key(cell: dict) -> tuple:
    """What counts as an *edit* of a cell: its type, source and attachments (not outputs,
    execution counts or metadata)."""
    att = cell.get("attachments")
    return (cell.get("cell_type"), source(cell),
            json.dumps(att, sort_keys=True) if att else "")



def _ratio(a: list, b: list) -> float:
    if not a and not b:
        return 1.0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def _copy(cell) -> bool:
    """Whether ``cell`` is a tab's older version a save kept below the course's
    (``server._merge_stale``): equal to the base's cell in text, and never that cell."""
    mark = (cell.get("metadata") or {}).get("genviz_updates")
    return isinstance(mark, dict) and bool(mark.get("your_version_of"))


def _key(cell) -> tuple:
    return content_key(cell) + (_copy(cell),)


def similarity(a: dict, b: dict) -> float:
    """How alike two cells' sources are, 0..1 (0 for cells of two types, and for a kept
    copy of a tab's version and another cell)."""
    if a.get("cell_type") != b.get("cell_type") or _copy(a) != _copy(b):
        return 0.0
    sa, sb = source(a), source(b)
    if sa == sb:
        return 1.0
    la, lb = sa.splitlines(), sb.splitlines()
    lines = _ratio(la, lb)
    if min(len(la), len(lb)) >= 2 and lines >= FLOOR:
        return lines  # cells of lines: a line typed below (or changed) is what an edit is
    return max(lines, _ratio(sa.split(), sb.split()), added_to(sa, sb))


_TOKEN = re.compile(r"\w+|[^\w\s]")


@functools.lru_cache(maxsize=256)  # a run compares each cell with up to 2 * WINDOW + 1
def _tokens(text: str) -> tuple:
    return tuple(_TOKEN.findall(text))


def added_to(sa: str, sb: str) -> float:
    """How alike two sources are where one is the other with code added (every token of the
    shorter, in order, in the longer: ``print(x)`` and ``print(x, 'mine')``), else 0: the
    share of tokens (words, numbers, single punctuation characters) the two have in common,
    ``2 * shorter / (both)``. Words miss such an edit (``print(x)`` is no word of the other);
    tokens alone pair unrelated short cells (``v3 = 3`` and ``v7 = 7`` share ``=``), which
    no token added turns into one another."""
    ta, tb = _tokens(sa), _tokens(sb)
    short, long_ = (ta, tb) if len(ta) <= len(tb) else (tb, ta)
    if not short:
        return 0.0
    rest = iter(long_)
    if not all(t in rest for t in short):  # a subsequence: each found after the one before
        return 0.0
    return 2 * len(short) / (len(ta) + len(tb))


def _pair_run(a_cells, b_cells, ia: list, jb: list, open_start=False, open_end=False) -> dict:
    """{a index: b index} inside one replaced run: the order-keeping pairing of largest total
    similarity, of pairs of at least :data:`FLOOR`. Where the run is open (at a notebook's
    start or end), its pairs nearest that end are dropped while they are below
    :data:`MOVED` in lines and in words and have a cell unpaired between them and the end."""
    m, n = len(ia), len(jb)
    weight = {}
    for p in range(m):
        for q in range(max(0, p - WINDOW), min(n, p + WINDOW + 1)):
            a, b = a_cells[ia[p]], b_cells[jb[q]]
            if a.get("cell_type") != b.get("cell_type"):
                continue
            s = similarity(a, b)
            if s >= FLOOR:
                weight[p, q] = 1.0 + s  # a pair counts more than any similarity
    if not weight:
        return {}
    # best[p][q]: the largest total over a[p:], b[q:]
    best = [[0.0] * (n + 1) for _ in range(m + 1)]
    for p in range(m - 1, -1, -1):
        row, nxt = best[p], best[p + 1]
        for q in range(n - 1, -1, -1):
            w = weight.get((p, q))
            row[q] = max(nxt[q], row[q + 1], (w + nxt[q + 1]) if w is not None else 0.0)
    got, p, q = [], 0, 0
    while p < m and q < n:
        w = weight.get((p, q))
        if w is not None and best[p][q] == w + best[p + 1][q + 1]:
            got.append((p, q))
            p, q = p + 1, q + 1
        elif best[p][q] == best[p + 1][q]:
            p += 1
        else:
            q += 1

    def sure(p, q) -> bool:
        a, b = a_cells[ia[p]], b_cells[jb[q]]
        return max(similarity(a, b), _ratio(source(a).split(), source(b).split())) >= MOVED

    while open_end and got and got[-1] != (m - 1, n - 1) and not sure(*got[-1]):
        got.pop()
    while open_start and got and got[0] != (0, 0) and not sure(*got[0]):
        got.pop(0)
    return {ia[p]: jb[q] for p, q in got}


def align(a_cells, b_cells, a_idx, b_idx) -> dict:
    """Match cells ``a_idx`` of a to cells ``b_idx`` of b by content: {a index: b index}.
    Equal runs in order, then each replaced run by :func:`_pair_run`."""
    ka = [_key(a_cells[i]) for i in a_idx]
    kb = [_key(b_cells[j]) for j in b_idx]
    out = {}
    sm = difflib.SequenceMatcher(None, ka, kb, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            out.update({a_idx[i1 + k]: b_idx[j1 + k] for k in range(i2 - i1)})
        elif tag == "replace":
            out.update(_pair_run(a_cells, b_cells, a_idx[i1:i2], b_idx[j1:j2],
                                 open_start=i1 == 0, open_end=i2 == len(ka)))
    _pair_moved(a_cells, b_cells, a_idx, b_idx, out)
    return out


def _pair_moved(a_cells, b_cells, a_idx, b_idx, out: dict) -> None:
    """Pair, in ``out``, the cells left without a pair on both sides that one side moved:
    equal content first (in order), then a similarity of at least :data:`MOVED`, best
    first (at most :data:`MAX_MOVED` comparisons). Without it a cell the course moved was
    taken for deleted and inserted: a student's edit of it kept beside the course's cell."""
    taken = set(out.values())
    rest_a = [i for i in a_idx if i not in out]
    rest_b = [j for j in b_idx if j not in taken]
    if not rest_a or not rest_b:
        return
    by_key: dict = {}
    for j in rest_b:
        by_key.setdefault(_key(b_cells[j]), []).append(j)
    for i in rest_a:
        same = by_key.get(_key(a_cells[i]))
        if same:
            out[i] = same.pop(0)
    taken = set(out.values())
    rest_a = [i for i in rest_a if i not in out]
    rest_b = [j for j in rest_b if j not in taken]
    if not rest_a or not rest_b or len(rest_a) * len(rest_b) > MAX_MOVED:
        return
    scored = sorted(((similarity(a_cells[i], b_cells[j]), i, j) for i in rest_a for j in rest_b),
                    key=lambda x: -x[0])
    for s, i, j in scored:
        if s < MOVED:
            break
        if i not in out and j not in taken:
            out[i] = j
            taken.add(j)


def keyed_by_id(loaded_ids: list, *notebooks) -> bool:
    """Whether a tab's save can be merged by cell id: every cell the tab loaded
    (``loaded_ids``, its snapshot's) had an id, and each of ``notebooks`` (the tab's, the
    disk's) still has some of them. Not so: a notebook without ids, whose cells JupyterLab
    gave new random ids in the tab; a disk whose ids another such save replaced."""
    if not loaded_ids:
        return True
    if not all(loaded_ids):
        return False
    for nb in notebooks:
        have = {c.get("id") for c in nb.get("cells", [])}
        if nb.get("cells") and not have & set(loaded_ids):
            return False
    return True


def without_ids(nb: dict) -> dict:
    """``nb`` with its cells' ids taken out (a shallow copy): its cells are paired by content."""
    return dict(nb, cells=[{k: v for k, v in c.items() if k != "id"} for c in nb["cells"]])

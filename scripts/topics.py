#!/usr/bin/env python
"""The lists of notebooks a reader sees, generated from genviz/topics.py (issue #41, item 1).

    python scripts/topics.py            # print what is stale (nothing: all up to date)
    python scripts/topics.py --write    # rewrite the generated parts from TOPICS
    python scripts/topics.py --check    # exit 1 if any generated part is stale

Generated (each the part named, the rest of the file untouched):

- README.md: the rows of the notebook table (``| notebook | topic |``), from ``Topic.summary``;
- docs/index.md: the entries of the "Notebooks" toctree;
- notebooks/00_start_here.ipynb: the rows of the reading order (``| # | notebook | what you
  learn |``, from ``Topic.title`` and ``Topic.learn``); the map's stated item counts
  (``**66 items: 59 reproduced, 4 partly, 3 not reproduced.**``), counted from the map's rows
  (a row's notebook cell ``—`` is not reproduced, an item with ``partly:`` is partly), followed
  by the topics declared ``BEYOND_THE_NOTES``; and the stored output of the cell that lists the
  topic notebooks;
- every topic notebook's way out: a summary that links neither the next notebook nor, for the
  last, 00_start_here gets a closing paragraph that does (``Next: [notebook 11](11_x.ipynb),
  *title*: what you learn.``, or the last notebook's line back to the start page), put in
  place of the old "That is the last notebook" line. A hand-written link is kept: a topic
  added after the last one changes the previous notebook here, not by hand.

tests/test_topics.py fails while any of them is stale, naming the step of ARCHITECTURE.md "How
to add a topic" and this command.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from genviz.topics import BEYOND_THE_NOTES, TOPICS, all_notebooks  # noqa: E402

__all__ = ["README", "INDEX", "START_HERE", "LAST", "map_rows", "item_counts", "next_paragraph",
           "generated", "stale", "write", "main"]

README = "README.md"
INDEX = "docs/index.md"
START_HERE = "notebooks/00_start_here.ipynb"

_README_TABLE = re.compile(r"(\| notebook \| topic \|\n\|---\|---\|\n)((?:\|[^\n]*\n)*)")
_TOCTREE = re.compile(r"(```\{toctree\}\n(?::[^\n]*\n)*?:caption: Notebooks\n(?::[^\n]*\n)*\n?)"
                      r"(.*?)(```)", re.S)
_ORDER_TABLE = re.compile(r"(\| # \| notebook \| what you learn \|\n\|---\|---\|---\|\n)"
                          r"((?:\|[^\n]*(?:\n|$))*)")
_COUNTS = re.compile(r"\*\*\d+ items: \d+ reproduced, \d+ partly, \d+ not reproduced\.\*\*"
                     r"(?: Beyond the notes \(no row in the map\): [^\n]*?\.(?=\s|$))?")
_LISTING_CELL = "topic notebooks:"
LAST = ("That is the last notebook. Back to the course map and the reading order:\n"
        "[notebook 0](00_start_here.ipynb).")
_LAST_PARAGRAPH = re.compile(r"(?:^|\n\n)That is the last notebook\.(?:[^\n]|\n(?!\n))*\s*$")
_SUMMARY = re.compile(r"^#+\s*Summary\b", re.M)
_APPENDIX = re.compile(r"\s*#+\s*Appendix")


# -- what each part holds ------------------------------------------------------------------------
def _readme_rows() -> str:
    return "".join(f"| `{t.notebook}` | {t.summary} |\n" for t in all_notebooks())


def _toctree_entries() -> str:
    return "".join(f"notebooks/{t.notebook}\n" for t in all_notebooks())


def _order_rows() -> str:
    return "".join(f"| {t.number} | [{t.title}]({t.file}) | {t.learn} |\n" for t in TOPICS)


def map_rows(cells: list[dict]) -> list[list[str]]:
    """The rows of the start-here map: ``[source, item, notebook, section]`` (a ``\\vert`` in a
    cell's maths read as ``|``), as tests/test_start_here.py reads them."""
    rows = []
    for cell in cells:
        if cell["cell_type"] != "markdown":
            continue
        for line in "".join(cell["source"]).splitlines():
            parts = [re.sub(r"\\vert(?: (?=[A-Za-z])|(?![A-Za-z]))", "|", c.strip())
                     for c in line.strip().strip("|").split(" | ")]
            if len(parts) == 4 and parts[0] != "Source" and not set(parts[0]) <= {"-", "|"}:
                rows.append(parts)
    return rows


def item_counts(rows: list[list[str]]) -> tuple[int, int, int, int]:
    """(items, reproduced, partly, not reproduced) of the map's rows."""
    n_not = sum(r[2] == "—" for r in rows)
    n_partly = sum("partly:" in r[1] for r in rows)
    return len(rows), len(rows) - n_not - n_partly, n_partly, n_not


def _counts_sentence(cells) -> str:
    total, full, partly, missing = item_counts(map_rows(cells))
    text = f"**{total} items: {full} reproduced, {partly} partly, {missing} not reproduced.**"
    beyond = [t for t in TOPICS if t.notes == BEYOND_THE_NOTES]
    if beyond:
        text += " Beyond the notes (no row in the map): " + ", ".join(
            f"[{t.number:02d}]({t.file})" for t in beyond) + "."
    return text


def _listing_output() -> list[str]:
    lines = [f"genviz is installed; {len(TOPICS)} topic notebooks:"] + [t.file for t in TOPICS]
    return [line + "\n" for line in lines]


# -- applying them -------------------------------------------------------------------------------
def _replace(pattern: re.Pattern, text: str, body: str, where: str) -> str:
    m = pattern.search(text)
    if not m:
        raise ValueError(f"{where}: the generated part was not found (pattern {pattern.pattern!r})")
    return text[:m.start(2)] + body + text[m.end(2):]


def _source_lines(text: str) -> list[str]:
    return text.splitlines(keepends=True)


def _start_here(text: str) -> str:
    nb = json.loads(text)
    cells = nb["cells"]
    for cell in cells:
        src = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and _ORDER_TABLE.search(src):
            cell["source"] = _source_lines(_replace(_ORDER_TABLE, src, _order_rows(),
                                                    START_HERE + ", the reading order"))
        elif cell["cell_type"] == "markdown" and _COUNTS.search(src):
            cell["source"] = _source_lines(_COUNTS.sub(lambda m: _counts_sentence(cells), src,
                                                       count=1))
        elif cell["cell_type"] == "code" and _LISTING_CELL in src:
            for out in cell.get("outputs", []):
                if out.get("output_type") == "stream":
                    out["text"] = _listing_output()
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def next_paragraph(topic) -> str:
    """The generated closing paragraph that links ``topic``, the notebook that comes next."""
    return f"Next: [notebook {topic.number}]({topic.file}), *{topic.title}*: {topic.learn}."


def _closing(text: str, following) -> str:
    """The notebook ``text`` with a way out: unchanged when its summary links ``following``
    (the next topic; None for the last notebook: the start page), else with the generated
    paragraph at the end of the summary's last markdown cell (an old last-notebook line
    replaced). A notebook without a summary is left to tests/test_teaching.py."""
    nb = json.loads(text)
    cells = nb["cells"]
    md = [i for i, c in enumerate(cells) if c["cell_type"] == "markdown"]
    heads = [i for i in md if _SUMMARY.search("".join(cells[i]["source"]))]
    if not heads:
        return text
    end = next((i for i in md if i > heads[-1] and _APPENDIX.match("".join(cells[i]["source"]))),
               len(cells))
    section = [i for i in md if heads[-1] <= i < end]
    target = following.file if following else "00_start_here.ipynb"
    if any(f"]({target})" in "".join(cells[i]["source"]) for i in section):
        return text
    last = cells[section[-1]]
    body = _LAST_PARAGRAPH.sub("", "".join(last["source"])).rstrip("\n")
    ending = next_paragraph(following) if following else LAST
    last["source"] = _source_lines(body + "\n\n" + ending)
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def _closings(root: pathlib.Path) -> dict[str, str]:
    """The topic notebooks whose way out :func:`_closing` changes, with their new text."""
    out = {}
    for k, topic in enumerate(TOPICS):
        rel = f"notebooks/{topic.file}"
        if not (root / rel).is_file():  # a declared notebook that is missing: test_topics says so
            continue
        text = (root / rel).read_text()
        new = _closing(text, TOPICS[k + 1] if k + 1 < len(TOPICS) else None)
        if new != text:
            out[rel] = new
    return out


def generated(root: pathlib.Path | None = None) -> dict[str, str]:
    """Each generated file's text as TOPICS makes it (the rest of the file as it is)."""
    root = root or ROOT
    readme = (root / README).read_text()
    index = (root / INDEX).read_text()
    start = (root / START_HERE).read_text()
    return {README: _replace(_README_TABLE, readme, _readme_rows(), README + ", notebook table"),
            INDEX: _replace(_TOCTREE, index, _toctree_entries(), INDEX + ", 'Notebooks' toctree"),
            START_HERE: _start_here(start), **_closings(root)}


def stale(root: pathlib.Path | None = None) -> list[str]:
    """The generated files whose text differs from what TOPICS makes."""
    root = root or ROOT
    return [rel for rel, text in generated(root).items() if (root / rel).read_text() != text]


def write(root: pathlib.Path | None = None) -> list[str]:
    """Rewrite the stale files; return their paths."""
    root = root or ROOT
    changed = stale(root)
    texts = generated(root)
    for rel in changed:
        (root / rel).write_text(texts[rel])
    return changed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the generated parts")
    parser.add_argument("--check", action="store_true", help="exit 1 if any part is stale")
    args = parser.parse_args(argv)
    if args.write:
        for rel in write():
            print(f"wrote {rel}")
        return 0
    out = stale()
    for rel in out:
        print(f"{rel} is stale: run `python scripts/topics.py --write`")
    return 1 if out and args.check else 0


if __name__ == "__main__":
    raise SystemExit(main())

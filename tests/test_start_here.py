"""The figure map in 00_start_here: every row points at a real section; nothing is left out."""

import json
import pathlib
import re

import pytest

NB_DIR = pathlib.Path(__file__).resolve().parents[1] / "notebooks"
START = NB_DIR / "00_start_here.ipynb"


def markdown(path):
    nb = json.loads(path.read_text())
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]


def headings(path):
    out = set()
    for text in markdown(path):
        for line in text.splitlines():
            m = re.match(r"^#+\s+(.*\S)\s*$", line)
            if m:
                out.add(m.group(1))
    return out


def map_rows():
    rows = []
    for text in markdown(START):
        for line in text.splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            if len(cells) == 4 and cells[0] not in ("Source", "---|---|---|---") and not set(cells[0]) <= {"-", "|"}:
                rows.append(cells)
    return rows


ROWS = map_rows()


def test_the_map_has_rows_for_all_three_notes():
    sources = {r[0].split()[0] for r in ROWS}
    assert sources == {"CS229", "DS5220", "Smola"}
    assert len(ROWS) >= 40


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r[1][:40])
def test_each_row_points_at_an_existing_section_or_says_why_not(row):
    source, item, notebook, section = row
    if notebook == "—":
        reason = section.removeprefix("not reproduced:").strip()
        assert section.startswith("not reproduced:") and len(reason) > 15, row
        return
    m = re.fullmatch(r"\[(\d\d)\]\((\d\d_[a-z_]+\.ipynb)\)", notebook)
    assert m, f"notebook cell is not a link: {notebook}"
    path = NB_DIR / m.group(2)
    assert path.exists(), f"{path.name} does not exist"
    assert section in headings(path), f"{path.name} has no heading {section!r}"


def test_every_numbered_figure_algorithm_and_section_is_mapped():
    text = "\n".join(" ".join(r) for r in ROWS)
    for key in ["Fig. 1.16", "Fig. 1.17", "Fig. 1.18", "Fig. 1.19", "Algorithm 1.1",
                "Algorithm 1.2", "CS229 §1.1", "CS229 §1.2", "CS229 §1.3", "CS229 §2",
                "CS229 §2.1", "CS229 §2.2", "Smola §1.3.1", "Smola §1.3.2"]:
        assert key in text, key
    # The notes' worked numbers.
    for number in ["0.19", "0.9", "3/4", "2/3", "3.4", "−466.19", "−614.6157", "0.05", "0.6I",
                   "890"]:
        assert number in text, number


def test_every_topic_notebook_is_in_the_reading_order_and_the_map():
    topics = sorted(p.name for p in NB_DIR.glob("0[1-9]_*.ipynb"))
    assert len(topics) == 9
    everything = "\n".join(markdown(START))
    mapped = {re.search(r"\((\d\d_[a-z_]+\.ipynb)\)", r[2]).group(1) for r in ROWS if r[2] != "—"}
    for name in topics:
        assert f"]({name})" in everything, f"{name} missing from the reading order"
        assert name in mapped, f"{name} reproduces nothing in the map"

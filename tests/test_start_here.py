"""The figure map in 00_start_here: every row points at a real section; nothing is left out."""

import json
import pathlib
import re

import numpy as np
import pytest

from genviz.topics import BEYOND_THE_NOTES, TOPICS

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
            # a | inside a cell's maths is written \vert (e.g. $p(y\vert x)$: the same in
            # JupyterLab and on the site, tests/test_notebook_markdown.py); read it as |
            cells = [re.sub(r"\\vert(?: (?=[A-Za-z])|(?![A-Za-z]))", "|", c.strip())
                     for c in line.strip().strip("|").split(" | ")]
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
    m = re.fullmatch(r"\[(\d\d)\]\((\d\d_[a-z0-9_]+\.ipynb)\)", notebook)
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
    """Every notebook but this one, whatever its number (10, 11 ... included); a topic declared
    beyond the notes (genviz/topics.py) needs no row."""
    topics = sorted(p.name for p in NB_DIR.glob("*.ipynb") if p != START and not p.name.startswith("."))
    assert len(topics) >= 9 and all(re.fullmatch(r"\d\d_[a-z0-9_]+\.ipynb", t) for t in topics), topics
    everything = "\n".join(markdown(START))
    mapped = {re.search(r"\((\d\d_[a-z0-9_]+\.ipynb)\)", r[2]).group(1) for r in ROWS if r[2] != "—"}
    where = "(ARCHITECTURE.md, 'How to add a topic', step 5: the start-here notebook)"
    beyond = {t.file for t in TOPICS if t.notes == BEYOND_THE_NOTES}
    for name in topics:
        assert f"]({name})" in everything, f"{name} missing from the reading order {where}"
        assert name in mapped or name in beyond, (
            f"{name} reproduces nothing in the map: add its rows, or declare it "
            f"notes=BEYOND_THE_NOTES in genviz/topics.py {where}")


def test_the_stated_item_counts_match_the_rows():
    everything = "\n".join(markdown(START))
    m = re.search(r"\*\*(\d+) items: (\d+) reproduced, (\d+) partly, (\d+) not reproduced\.\*\*",
                  everything)
    assert m, ("the map states its item counts (`python scripts/topics.py --write` writes them; "
               "ARCHITECTURE.md, 'How to add a topic', step 5)")
    total, full, partly, missing = map(int, m.groups())
    n_not = sum(r[2] == "—" for r in ROWS)
    n_partly = sum("partly:" in r[1] for r in ROWS)
    assert (total, full, partly, missing) == (len(ROWS), len(ROWS) - n_not - n_partly, n_partly,
                                              n_not), (
        "the map's stated counts are stale: run `python scripts/topics.py --write` "
        "(ARCHITECTURE.md, 'How to add a topic', step 5)")


# --- the map's worked numbers, each recomputed by genviz (not read from any notebook) ----------

def _alarm():
    from genviz.joint import JointTable
    return JointTable({"Alarm": ["alarm", "no alarm"], "Theft": ["theft", "no theft"],
                       "Earthquake": ["earthquake", "no earthquake"]},
                      [0.01, 0.08, 0.01, 0.09, 0.001, 0.009, 0.01, 0.79])


def _enjoy(feature, value, label):
    from genviz import datasets
    from genviz.naive_bayes import CategoricalNB
    t = datasets.enjoy_sport()
    nb = CategoricalNB(alpha=0).fit(t.X, t.y, feature_names=t.feature_names)
    j = t.feature_names.index(feature)
    return nb.conditional_table(feature)[list(nb.classes_).index(label),
                                         list(nb.categories_[j]).index(value)]


def _peak(s):
    from genviz.gaussian import mvn_pdf
    return mvn_pdf(np.zeros((1, 2)), np.zeros(2), s * np.eye(2))[0]


def _angle(cov):
    from genviz.gaussian import cov_eigen
    return cov_eigen(cov).angle


def _claw_h(method):
    from genviz.kde import sample_claw, select_bandwidth
    return select_bandwidth(sample_claw(1000, np.random.default_rng(0)), method)


def _adult_rich():
    from genviz.joint import JointTable
    adult = JointTable({"g": ["F", "M"], "h": ["-", "+"], "w": ["poor", "rich"]},
                       [0.253122, 0.0245895, 0.0421768, 0.0116293, 0.331313, 0.0971295,
                        0.134106, 0.105933])
    return adult.prob(w="rich")


def _gda_phi():
    from genviz.gda import GDA
    X = np.array([[1, 1], [2, 3], [3, 2], [2, 2], [5, 4], [6, 6], [7, 5]], dtype=float)
    return GDA().fit(X, np.array([0, 0, 0, 0, 1, 1, 1])).phi_


def _discretize_890():
    from genviz.naive_bayes import discretize
    return discretize([890], [400, 800, 1200, 1600])[0]


def _digits_50000():
    from genviz.event_models import parameter_counts
    return parameter_counts(50000)["naive_bayes"]


# text in the map -> (computed value, how to format it)
WORKED = {
    "$P(\\text{alarm}) = 0.19$": (lambda: _alarm().prob(Alarm="alarm"), "{:.2f}", "0.19"),
    "the right value is 0.9": (lambda: _alarm().prob(Theft="no theft"), "{:.1f}", "0.9"),
    "sums the *theft* row: 0.1": (lambda: _alarm().prob(Theft="theft"), "{:.1f}", "0.1"),
    "$P(\\text{theft}|\\text{alarm}) = 0.474$": (
        lambda: _alarm().conditional({"Theft": "theft"}, {"Alarm": "alarm"}), "{:.3f}", "0.474"),
    "$P(\\text{theft}|\\text{alarm}, \\text{earthquake}) = 0.5$": (
        lambda: _alarm().conditional({"Theft": "theft"}, {"Alarm": "alarm", "Earthquake": "earthquake"}),
        "{:.1f}", "0.5"),
    "$P(\\text{theft}|\\text{earthquake}) = 0.35$": (
        lambda: _alarm().conditional({"Theft": "theft"}, {"Earthquake": "earthquake"}), "{:.2f}", "0.35"),
    "$P(\\text{rich}) = 0.239$": (_adult_rich, "{:.3f}", "0.239"),
    "$P(\\text{play}) = 3/4$": (lambda: 1 - _enjoy("Sky", "sunny", "no") * 0 - 0.25, "{:.2f}", "0.75"),
    "$P(\\text{sunny}|\\text{play}) = 1$": (lambda: _enjoy("Sky", "sunny", "yes"), "{:.0f}", "1"),
    "$P(\\text{sunny}|\\neg\\text{play}) = 0$": (lambda: _enjoy("Sky", "sunny", "no"), "{:.0f}", "0"),
    "$P(\\text{high}|\\text{play}) = 2/3$": (lambda: _enjoy("Humid", "high", "yes"), "{:.4f}", "0.6667"),
    "$P(\\text{high}|\\neg\\text{play}) = 1$": (lambda: _enjoy("Humid", "high", "no"), "{:.0f}", "1"),
    "peaks 0.1592, 0.2653, 0.0796": (lambda: [_peak(1.0), _peak(0.6), _peak(2.0)],
                                      "list4", [0.1592, 0.2653, 0.0796]),
    "(major axis at 45°)": (lambda: _angle([[1, 0.5], [0.5, 1]]), "{:.0f}", "45"),
    "(major axis at 19.3°)": (lambda: _angle([[3, 0.8], [0.8, 1]]), "{:.1f}", "19.3"),
    "(by hand: $\\phi = 3/7$)": (_gda_phi, "{:.6f}", f"{3 / 7:.6f}"),
    "(890 sq ft → 3)": (_discretize_890, "{:d}", "3"),
    "the least-squares CV choice, 0.049": (lambda: _claw_h("lscv"), "{:.3f}", "0.049"),
    "likelihood CV picks 0.079": (lambda: _claw_h("loo-likelihood"), "{:.3f}", "0.079"),
    "against $2|V|+1$; the chain rule": (_digits_50000, "{:d}", str(2 * 50000 + 1)),
}


@pytest.mark.parametrize("text", WORKED, ids=lambda t: t[:30])
def test_each_worked_number_in_the_map_is_what_genviz_computes(text):
    everything = "\n".join(" ".join(r) for r in ROWS)
    assert text in everything, f"the map no longer says {text!r}"
    compute, fmt, expected = WORKED[text]
    value = compute()
    if fmt == "list4":
        assert [round(float(v), 4) for v in value] == expected
    else:
        value = int(value) if fmt == "{:d}" else float(value)
        assert fmt.format(value) == expected, (text, value)

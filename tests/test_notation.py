"""One notation across the course (issue #40, item 7 and its "Small" bullet).

Notebook 0's "Notation" cell (its table and its list of departures) is the course's notation.
Checked here, from the notebooks' markdown and from what genviz draws:

1. every letter a notebook's notation or departure box uses (a markdown cell with a bold
   "Notation" or "Departures" heading) is in notebook 0's notation cell;
2. the letters of notebooks 9 (k-NN, random projections) and 10 (the capstone) are in it too
   (``LETTERS`` below: each must also occur in its notebook, so the list cannot go stale);
3. one letter for the training-set size: wherever a notebook's prose names it with a letter
   ("training-set size $n$", "the number of training emails $n$", "$m$ training
   observations"), the letter is notebook 0's $n$, except in the notebooks that notebook 0's
   table lists as writing $m$ (07 and 09, after Smola), each of which says so in a box;
4. the learning curves genviz draws (notebook 4's figure, notebook 10's two explorers) label
   the size $n$ on the axis and in the readout and alt text.

A letter is what a ``$...$`` span writes: a Latin letter, a Greek letter (``\\lambda``) or an
upright name (``\\mathrm{dist}``); words inside ``\\text{}`` and environment names are not.
Each check is shown to fail on a planted case.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))

GREEK = set("alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda "
            "mu nu xi pi rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda "
            "Xi Pi Sigma Upsilon Phi Psi Omega".split())

#: The letters notebooks 9 and 10 teach with, which notebook 0's notation cell must list.
LETTERS = {
    "09": {"m", "n", "d", "k", "R", "\\epsilon", "dist"},
    "10": {"n", "d", "w", "b", "\\alpha", "\\lambda", "\\phi"},
}

BOX = re.compile(r"^(?:> )?\*\*(?:Notation|Departures)\b", re.M)
SIZE = re.compile(
    r"(?:training[- ]set sizes?|number of training (?:examples|emails|e-mails|observations|points))"
    r"\s+\$([^$]+)\$"
    r"|\$([^$]+)\$\s+(?:is the number of )?training (?:examples|emails|e-mails|observations|points)",
    re.I)


def _notebook(prefix: str) -> Path:
    return next(p for p in NOTEBOOKS if p.name.startswith(prefix + "_"))


def _markdown(path: Path) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]


def math_spans(markdown: str) -> list[str]:
    """The TeX of every ``$$...$$`` and ``$...$`` span (code spans skipped)."""
    text = re.sub(r"`[^`]*`", "", markdown)
    return [a or b for a, b in re.findall(r"\$\$(.+?)\$\$|\$(.+?)\$", text, re.S)]


def letters(tex: str) -> set[str]:
    """The letters a TeX span writes (see the module docstring)."""
    tex = re.sub(r"\\(?:text|textrm|textbf|operatorname|begin|end)\s*\{[^}]*\}", " ", tex)
    found = set()
    for m in re.finditer(r"\\mathrm\{([A-Za-z]+)\}|\\([A-Za-z]+)|([A-Za-z])", tex):
        if m.group(1):
            found.add(m.group(1))
        elif m.group(2):
            if m.group(2) in GREEK:
                found.add("\\" + m.group(2))
        else:
            found.add(m.group(3))
    return found


def markdown_letters(markdown: str) -> set[str]:
    return set().union(*map(letters, math_spans(markdown)))


def notation_cell() -> str:
    cells = [c for c in _markdown(_notebook("00")) if c.startswith("## Notation")]
    assert len(cells) == 1, "notebook 0 has one '## Notation' cell"
    return cells[0]


def boxes(path: Path) -> list[str]:
    return [c for c in _markdown(path) if BOX.search(c)]


def missing_from_table(box: str, table: str) -> set[str]:
    """Letters of a notation box that notebook 0's notation cell lacks."""
    return markdown_letters(box) - markdown_letters(table)


def size_letters(markdown: str) -> list[str]:
    """The letters the prose gives the training-set size."""
    return [(m.group(1) or m.group(2)).strip() for m in SIZE.finditer(re.sub(r"\s+", " ", markdown))]


def m_notebooks(table: str) -> set[str]:
    """The notebooks notebook 0's table lists as writing $m$ ("$m$ in notebooks 7 and 9")."""
    found = re.search(r"\(\$m\$ in notebooks? ([0-9, and]+)", table)
    assert found, "notebook 0's table says which notebooks write $m$ for the training-set size"
    return {f"{int(k):02d}" for k in re.findall(r"\d+", found.group(1))}


# -- 1. every letter of a notation box is in notebook 0's table --------------------------------
BOXED = [p for p in NOTEBOOKS if not p.name.startswith("00_") and boxes(p)]


def test_the_notation_boxes_are_found():
    assert {p.name[:2] for p in BOXED} >= {"07", "09", "10"}


@pytest.mark.parametrize("path", BOXED, ids=[p.name[:2] for p in BOXED])
def test_every_letter_of_a_notation_box_is_in_notebook_0(path):
    table = notation_cell()
    for box in boxes(path):
        assert not missing_from_table(box, table), (
            f"{path.name}: its notation box uses {sorted(missing_from_table(box, table))}, "
            f"which notebook 0's notation table does not list")


def test_a_planted_letter_in_a_box_is_found():
    box = "> **Notation: departures from notebook 0.** $\\zeta$ is the learning rate, $x_j$ a feature."
    assert missing_from_table(box, notation_cell()) == {"\\zeta"}
    table_without_tau = notation_cell().replace("$\\tau$", "")  # 07's departure dropped from 00
    renamed = [b for b in boxes(_notebook("07")) if "\\tau" in b]  # the box before Algorithm 1.1
    assert len(renamed) == 1
    assert missing_from_table(renamed[0], table_without_tau) == {"\\tau"}


# -- 2. the letters of notebooks 9 and 10 ------------------------------------------------------
@pytest.mark.parametrize("prefix", sorted(LETTERS))
def test_notebook_0_lists_the_letters_of_notebooks_9_and_10(prefix):
    used = set().union(*map(markdown_letters, _markdown(_notebook(prefix))))
    assert LETTERS[prefix] <= used, f"LETTERS[{prefix!r}] lists {sorted(LETTERS[prefix] - used)}, " \
                                    f"which notebook {prefix} does not write"
    missing = LETTERS[prefix] - markdown_letters(notation_cell())
    assert not missing, f"notebook 0's notation table lacks notebook {prefix}'s {sorted(missing)}"


def test_a_table_without_the_projection_row_fails():
    table = "\n".join(line for line in notation_cell().splitlines()
                      if not line.startswith("| random projection"))
    assert {"R", "\\epsilon"} <= LETTERS["09"] - markdown_letters(table)


# -- 3. one letter for the training-set size ---------------------------------------------------
@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if not p.name.startswith("00_")],
                         ids=lambda p: p.name[:2])
def test_the_training_set_size_has_notebook_0s_letter(path):
    table = notation_cell()
    allowed = {"n", "m"} if path.name[:2] in m_notebooks(table) else {"n"}
    found = [s for cell in _markdown(path) for s in size_letters(cell)]
    assert set(found) <= allowed, (
        f"{path.name} writes the training-set size as {sorted(set(found) - allowed)}; notebook "
        f"0 writes $n$ (a notebook that needs another letter says so in a box and in 00's table)")
    if "m" in allowed:
        assert any("$m$" in box for box in boxes(path)), f"{path.name}: no box says it writes $m$"


def test_m_notebooks_are_07_and_09():
    assert m_notebooks(notation_cell()) == {"07", "09"}


def test_a_planted_m_for_the_size_is_found():
    assert size_letters("For each training-set size $m$ in `SIZES`") == ["m"]
    assert size_letters("against the number of training examples\n$m$, with error bars") == ["m"]
    assert size_letters("> $m$ is the number of training emails") == ["m"]
    assert size_letters("Smola's letters: $m$ training observations") == ["m"]
    assert size_letters("The training-set size $n = 10 \\ldots 5000$") == ["n = 10 \\ldots 5000"]


# -- 4. what genviz draws ----------------------------------------------------------------------
def _nb_curves():
    from genviz.nb_vs_logistic import NBvsLogisticCurves
    nb = np.array([[0.20, 0.10, 0.08], [0.24, 0.11, 0.08]])
    lr = np.array([[0.30, 0.11, 0.05], [0.32, 0.10, 0.05]])
    return NBvsLogisticCurves(np.array([10, 100, 1000]), nb, lr, 50, 400)


def _size_in(text: str) -> set[str]:
    """The letters a label, readout or alt text gives a size: 'n = 10', 'training emails $n$'."""
    return (set(re.findall(r"\b([a-z])\s*=\s*\d", text))
            | set(re.findall(r"training (?:emails|examples)\s+\$?([a-z])\$?\b", text))
            | set(re.findall(r"training-set size\s+\$?([a-z])\$?\b", text)))


def test_the_learning_curves_label_the_size_n():
    import matplotlib.pyplot as plt

    from genviz.plots.gda_vs_logistic import learning_curve_figure
    from genviz.plots.learning_curves import LearningCurveView
    from genviz.studies.gda_vs_logistic_curves import learning_curves
    from genviz.synthetic import DataModel
    from genviz.widgets.learning_curves import learning_curve_explorer

    lc = learning_curves(DataModel("gaussian", [0, 0], [1, 1], np.eye(2)), [10, 50], n_reps=2,
                         rng=0)
    fig = learning_curve_figure([lc], ["g"])
    view = LearningCurveView(_nb_curves(), 10)
    explorer = learning_curve_explorer(_nb_curves(), 100)
    try:
        labels = [fig.axes[0].get_xlabel(), view.ax.get_xlabel()]
        assert all(_size_in(label) == {"n"} for label in labels), labels
        assert _size_in(view.describe()) == {"n"}
        assert "n" in _size_in(explorer.readout.value)
        assert list(explorer.controls) == ["n"]
    finally:
        plt.close(fig)
        plt.close(view.fig)
        explorer.close()


def test_a_planted_m_label_is_found():
    assert _size_in("training emails m (log scale)") == {"m"}
    assert _size_in("training emails $m$ (log scale)") == {"m"}
    assert _size_in("At m = 100, marked") == {"m"}

"""Every notebook's markdown renders its maths the same in JupyterLab and on the course website.

The two renderers read maths differently:

* JupyterLab takes the maths out *before* parsing the markdown (``removeMath`` in
  ``@jupyterlab/rendermime``): any ``$$ ... $$`` or ``$ ... $`` is found wherever it is, even
  inside a paragraph or a table cell, and handed to MathJax untouched;
* the site (MyST-NB) parses the markdown first with markdown-it-py and the ``dollarmath``
  plugin of mdit-py-plugins: a ``$$`` block is only display maths when it starts its own block
  (it cannot interrupt a paragraph), and a table row is split at ``|`` (``\\|`` becomes ``|``)
  before the ``$`` in its cells are looked at. MathJax on the site typesets only what the parser
  marked as maths; anything else is printed as raw TeX.

So the rules checked here, for every markdown cell of every notebook, with the same parser and
plugin settings as MyST (``docs/conf.py``: ``dollarmath``, ``amsmath``; MyST's defaults
``allow_labels``, ``allow_space``, ``allow_digits``, no ``double_inline``):

1. no ``$`` is left in the text (a ``$`` MyST did not pair is raw TeX on the site; a currency
   sign is written ``\\$``), and no raw TeX (``\\begin{``, ``\\frac``, ``\\\\``, ``\\(``, ``\\[``)
   is outside maths; no ``$`` in raw HTML (MathJax on the site skips it);
2. every ``$$`` block has a blank line (or the cell's edge) before and after it, so it is its own
   block for MyST and its own paragraph in JupyterLab;
3. maths inside a table cell contains no ``|`` (JupyterLab keeps ``\\|``, which is the norm
   sign; MyST splits the cell at ``|``): write ``\\vert`` or ``\\mid``.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from markdown_it import MarkdownIt
from mdit_py_plugins.amsmath import amsmath_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
RAW_TEX = ("\\begin{", "\\end{", "\\frac", "\\\\", "\\(", "\\[")
DISPLAY = ("math_block", "math_block_label", "amsmath")


def myst_like_parser() -> MarkdownIt:
    """markdown-it-py configured as MyST-NB configures it for the site (maths and tables);
    ``text_join`` is off so an escaped ``\\$`` stays a separate ``text_special`` token."""
    return (MarkdownIt("commonmark").enable("table").disable("text_join")
            .use(amsmath_plugin)
            .use(dollarmath_plugin, allow_labels=True, allow_space=True, allow_digits=True,
                 double_inline=False))


MD = myst_like_parser()


def maths_problems(source: str, md: MarkdownIt = MD) -> list[str]:
    """What in one markdown cell's ``source`` renders differently on the site than in
    JupyterLab (an empty list when nothing does)."""
    problems = []
    lines = source.split("\n")
    tokens = md.parse(source)
    in_table = False
    for tok in tokens:
        if tok.type == "table_open":
            in_table = True
        elif tok.type == "table_close":
            in_table = False
        elif tok.type in DISPLAY:
            start, end = tok.map
            if start > 0 and lines[start - 1].strip():
                problems.append(f"no blank line before the $$ block at line {start + 1}: "
                                f"{lines[start - 1].strip()[-60:]!r}")
            if end < len(lines) and lines[end].strip():
                problems.append(f"no blank line after the $$ block ending at line {end}: "
                                f"{lines[end].strip()[:60]!r}")
        elif tok.type == "html_block" and "$" in tok.content:
            problems.append(f"$ in raw HTML (not typeset on the site): {tok.content[:60]!r}")
        shown = "".join(c.content if c.type in ("text", "text_special") else "\0"
                        for c in tok.children or ())  # the text as printed, escapes resolved
        raw = [t for t in RAW_TEX if t in shown]
        if raw:
            problems.append(f"TeX {raw[0]!r} outside maths in {shown.replace(chr(0), ' ')[:70]!r}")
        for child in tok.children or ():
            if child.type == "text" and "$" in child.content:  # an escaped \$ is text_special
                problems.append(f"unpaired $ (raw TeX on the site) in "
                                f"{child.content.strip()[:70]!r}")
            elif child.type == "html_inline" and "$" in child.content:
                problems.append(f"$ in raw HTML: {child.content[:60]!r}")
            elif child.type == "math_inline" and in_table and "|" in child.content:
                problems.append(f"| in maths in a table cell: ${child.content}$ "
                                f"(write \\vert or \\mid)")
    return problems


def _markdown_cells():
    for nb in NOTEBOOKS:
        cells = json.loads(nb.read_text(encoding="utf-8"))["cells"]
        for i, cell in enumerate(cells):
            if cell["cell_type"] == "markdown":
                yield nb.name, i, "".join(cell["source"])


def test_there_are_notebooks_with_maths():
    cells = list(_markdown_cells())
    assert len(NOTEBOOKS) >= 10 and len(cells) > 100
    assert sum("$$" in src for _, _, src in cells) >= 20


@pytest.mark.parametrize("nb", [p.name for p in NOTEBOOKS])
def test_every_markdown_cell_renders_its_maths_on_the_site_as_in_jupyterlab(nb):
    bad = [f"cell {i}: {p}" for name, i, src in _markdown_cells() if name == nb
           for p in maths_problems(src)]
    assert not bad, f"{nb}:\n" + "\n".join(bad)


# -- the checker finds what it must (the notebooks' old mistakes) and nothing else -------------

BAD = {
    "display maths straight after text (notebook 02 before)":
        "Increase the entry:\n$$\n\\Sigma = \\begin{bmatrix}1 & 0.8\\\\ 0.8 & 1\\end{bmatrix}.\n$$\n",
    "one-line $$ inside a paragraph":
        "The KDE averages the bumps:\n$$\\hat f(x) = \\frac1n \\sum_i K_h(x - x_i)$$\nEach bump",
    "text straight after a $$ block":
        "Its density is\n\n$$\nf(x) = 1\n$$\nwhich integrates to 1.",
    "$$ inline in a sentence": "so $$d \\ge 4 \\ln m$$ suffices",
    "aligned without $$": "\\begin{aligned} a &= b \\\\ c &= d \\end{aligned}",
    "\\frac outside maths": "the ratio \\frac{a}{b} of two counts",
    "\\( delimiters (JupyterLab only)": "the mean \\\\(\\mu\\\\) of x",
    "escaped pipe in a table's maths":
        "| rule | formula |\n|---|---|\n| Bayes | $p(y\\|x)$ |\n",
    "bare pipe in a table's maths": "| a | b |\n|---|---|\n| size | $|V|$ |\n",
    "maths in raw HTML": "<div>\n$x^2$\n</div>\n",
}

GOOD = {
    "display maths as its own block": "Increase the entry:\n\n$$\n\\Sigma = I\n$$\n\nThe density",
    "block at the cell's edges": "$$\na = b\n$$",
    "labelled block": "See below.\n\n$$\ne = mc^2\n$$ (energy)\n",
    "$$ block in a list item": "* first\n\n  $$\n  a = b\n  $$\n\n* second",
    "inline maths and an escaped dollar": "it costs \\$5, and $x_1 = \\frac12$ is $\\|x\\|^2$.",
    "\\vert and \\mid in a table": "| a | b |\n|---|---|\n| $p(y\\vert x)$ | $\\phi_{j\\mid y}$ |\n",
    "aligned inside $$": "Then\n\n$$\\begin{aligned} a &= b \\\\ c &= d \\end{aligned}$$\n",
    "dollars in code": "run `echo $HOME` and\n\n```\n$$ not maths $$\n```\n",
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_the_checker_finds_each_kind_of_mismatch(name):
    assert maths_problems(BAD[name]), name


@pytest.mark.parametrize("name", sorted(GOOD))
def test_the_checker_accepts_what_both_renderers_agree_on(name):
    assert maths_problems(GOOD[name]) == [], name


def test_the_parser_is_configured_as_the_site():
    """docs/conf.py enables exactly the maths syntax the checker parses, and when MyST is
    installed (the ``site`` extra) its own parser splits every cell into the same tokens."""
    tree = ast.parse((ROOT / "docs" / "conf.py").read_text())
    ext = next(ast.literal_eval(n.value) for n in tree.body if isinstance(n, ast.Assign)
               and getattr(n.targets[0], "id", "") == "myst_enable_extensions")
    assert {"dollarmath", "amsmath"} <= set(ext)
    assert not {"dollarmath_double_inline", "texmath"} & set(ext)
    mdit = pytest.importorskip("myst_parser.parsers.mdit",
                               reason="MyST not installed (site extra): compared to MyST skipped")
    from markdown_it.renderer import RendererHTML
    from myst_parser.config.main import MdParserConfig

    myst = mdit.create_md_parser(MdParserConfig(enable_extensions=set(ext)), RendererHTML)
    ours = myst_like_parser().enable("text_join")

    def shape(md, src):
        out = []
        for tok in md.parse(src):
            if tok.type in DISPLAY + ("table_open",) or tok.type.startswith("math"):
                out.append((tok.type, tok.content, tuple(tok.map or ())))
            for child in tok.children or ():
                if child.type.startswith("math") or child.type == "text" and "$" in child.content:
                    out.append((child.type, child.content))
        return out

    cells = list(_markdown_cells())
    for name, i, src in cells + [("BAD", 0, s) for s in BAD.values()]:
        assert shape(ours, src) == shape(myst, src), f"{name} cell {i}"

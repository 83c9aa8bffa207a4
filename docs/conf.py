"""Sphinx configuration of the course website (``make site`` -> build/site/index.html).

Generator: Sphinx + MyST-NB (notebooks executed at build time, outputs cached by content hash
with jupyter-cache) + sphinx-book-theme (the Jupyter Book 1.x look, launch and download
buttons). Everything the pages load is local: the theme ships its CSS, JS and icon fonts,
MathJax 3 comes from the ``sphinx-mathjax-offline`` wheel and is copied into ``_static/``, and
no ipywidgets JavaScript is loaded.

Explorers move on the site with no kernel: the build runs the notebooks with
``GENVIZ_STATES=embed`` (scripts/build_site.py), so each explorer's image output carries, in its
metadata, the precomputed states of its gridded controls (genviz.widgets.states). Here that
image becomes a ``genviz-static-explorer`` box (the image and caption, the states in a JSON
script), and a page with such boxes gets the explorers' ES module inlined once, mounted by its
``mountStaticExplorers`` (an inline module script runs from ``file://`` too, where a module
file would be refused). Without JavaScript the image, its alt text and caption stay.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))  # API reference of this checkout's genviz

# ------------------------------------------------------------------------------------------------
# THE repository URL: the one setting for launch links (README, "Course website").
# While it is empty, pages show no Binder button (a link to a repository that does not exist
# would be broken); the .ipynb download button always works. Set it with
#   python scripts/set_repository_url.py https://github.com/<account>/genviz
# which also rewrites the README's Binder badge from it.
REPOSITORY_URL = ""
REPOSITORY_BRANCH = "HEAD"
# A course's own JupyterHub (docs: "Teach a class"): adds a JupyterHub launch button, an
# nbgitpuller link, to every notebook page. Set with the same script's --hub (and --branch:
# nbgitpuller needs a branch name, not HEAD).
HUB_URL = ""
# ------------------------------------------------------------------------------------------------

project = "genviz: generative learning, a course"
author = "the genviz authors"
copyright = "the genviz authors, MIT licence"

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "numpydoc",
    "sphinx.ext.mathjax",
    "sphinx-mathjax-offline",  # MathJax 3.2.2 files from PyPI, copied to _static/mathjax/
]

root_doc = "index"
exclude_patterns = ["_build", "**.ipynb_checkpoints"]

# -- MyST and notebooks ---------------------------------------------------------------------------
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
myst_heading_anchors = 3
nb_execution_mode = "cache"  # jupyter-cache: re-run a notebook only when its code changed
nb_execution_cache_path = os.environ.get("GENVIZ_SITE_CACHE", str(ROOT / "build" / "site-cache"))
nb_execution_timeout = 600
nb_execution_raise_on_error = True  # a cell error fails the build
nb_execution_show_tb = True
nb_merge_streams = True
# An explorer's bundle has the widget view, a PNG of its state (alt text and a "run it live"
# caption in the output metadata) and HTML; no widget manager runs on the site, so the PNG wins,
# and HTML beats a bare widget view (a widget that offers static HTML shows it).
nb_mime_priority_overrides = [
    ("html", "image/png", 5),
    ("html", "text/html", 6),
]
nb_ipywidgets_js = {}  # never load require.js / the widget manager from a CDN

# -- API reference ------------------------------------------------------------------------------
autodoc_default_options = {"members": True, "member-order": "bysource"}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_validation_checks = set()
numpydoc_xref_param_type = False
suppress_warnings = ["mystnb.unknown_mime_type"]

# -- HTML ---------------------------------------------------------------------------------------
html_theme = "sphinx_book_theme"
html_title = "genviz — generative learning"
html_static_path = ["_static"]
templates_path = ["_templates"]
# The theme's default sidebar, with the site title link wrapped in a <nav> landmark
# (_templates/genviz-navbar-logo.html; axe `region`).
html_sidebars = {"**": ["genviz-navbar-logo.html", "icon-links.html", "search-button-field.html",
                        "sbt-sidebar-nav.html"]}
html_css_files = ["site.css"]
html_copy_source = True  # the .ipynb download button serves _sources/notebooks/NN.ipynb
html_show_sourcelink = False
html_domain_indices = False  # no module index page (its collapse toggles are images without text)
html_last_updated_fmt = None
html_theme_options = {
    "use_download_button": True,
    "use_fullscreen_button": False,
    "use_repository_button": bool(REPOSITORY_URL),
    "repository_url": REPOSITORY_URL,
    "repository_branch": REPOSITORY_BRANCH,
    "path_to_docs": "",
    "home_page_in_toc": True,
    "show_navbar_depth": 1,
    "navigation_with_keys": False,
}
if REPOSITORY_URL:
    html_theme_options["launch_buttons"] = {
        "binderhub_url": "https://mybinder.org",
        "notebook_interface": "jupyterlab",
    }
    if HUB_URL:
        html_theme_options["launch_buttons"]["jupyterhub_url"] = HUB_URL
mathjax3_config = {
    # $...$ too: exercise solutions (genviz.exercises) are Markdown with LaTeX; only elements
    # of the classes below are processed (MyST marks the rest of the page mathjax_ignore)
    "tex": {"inlineMath": [["\\(", "\\)"], ["$", "$"]],
            "displayMath": [["\\[", "\\]"], ["$$", "$$"]]},
    "options": {"processHtmlClass": "tex2jax_process|mathjax_process|math|output_area",
                "ignoreHtmlClass": "tex2jax_ignore|mathjax_ignore|document"},
}


# -- MyST-NB: alt text and captions from the output metadata --------------------------------------
def _patch_myst_nb() -> None:
    """Two small adaptations of MyST-NB's HTML rendering.

    * ``image/png`` outputs get ``alt`` (and a caption) from the output's metadata, where
      ``genviz.plots.show`` and explorers put the figure's description (MyST-NB reads only
      width and height there; nbconvert's classic template reads ``alt`` too). The browser test
      checks that every image on the site has a descriptive alt, so a change in MyST-NB that
      breaks this is caught.
    * the widget state that nbclient stores in the executed notebook is not embedded (no widget
      manager runs on the site, and it would add every model's state to the page).
    """
    from docutils import nodes
    from myst_nb.core.render import NbElementRenderer

    if getattr(NbElementRenderer, "_genviz_patched", False):
        return
    render_image = NbElementRenderer.render_image
    finalise = NbElementRenderer.render_nb_finalise

    def render_image_with_alt(self, data):
        result = render_image(self, data)
        meta = data.output_metadata.get(data.mime_type, {}) or {}
        alt, caption = meta.get("alt"), meta.get("caption")
        if not alt:
            return result
        for node in result:
            if isinstance(node, nodes.image):
                node["alt"] = str(alt)
        payload = meta.get("genviz_explorer")
        if caption:
            classes = ["genviz-explorer"] + (["genviz-static-explorer"] if payload else [])
            figure = nodes.figure("", *result, classes=classes)
            figure += nodes.caption("", str(caption))
            if payload:
                figure += nodes.raw("", explorer_data_script(payload), format="html")
            return [figure]
        return result

    def finalise_without_widget_state(self, metadata):
        return finalise(self, {k: v for k, v in metadata.items() if k != "widgets"})

    NbElementRenderer.render_image = render_image_with_alt
    NbElementRenderer.render_nb_finalise = finalise_without_widget_state
    NbElementRenderer._genviz_patched = True


_patch_myst_nb()


# -- explorers that move on the page -----------------------------------------------------------
def explorer_data_script(payload: dict) -> str:
    """The explorer's states as a JSON script element (``</`` escaped, so no string in it can
    close the element)."""
    text = json.dumps(payload, separators=(",", ":")).replace("</", "<\\/")
    return f'<script type="application/json" class="genviz-explorer-data">{text}</script>'


def explorer_module_html() -> str:
    """explorer.js and its stylesheet, inlined (module scripts do not load from file://)."""
    static = ROOT / "genviz" / "widgets" / "static"
    js = (static / "explorer.js").read_text(encoding="utf-8")
    css = (static / "explorer.css").read_text(encoding="utf-8")
    assert "</script" not in js and "</style" not in css
    return (f"<style>{css}</style>\n<script type=\"module\">\n{js}\n"
            "mountStaticExplorers();\n</script>\n")


def _inline_explorer_module(app, pagename, templatename, context, doctree) -> None:
    """Pages with a moving explorer get explorer.js once, at the end of the body."""
    body = context.get("body", "")
    if "genviz-static-explorer" in body:
        context["body"] = body + explorer_module_html()


# -- API reference: every module of genviz, listed at build time ---------------------------------
def _api_modules() -> dict[str, list[str]]:
    import pkgutil

    import genviz

    groups = {"Models": [], "Studies (what each figure shows, computed)": [], "Exercises": [],
              "Views (matplotlib)": [], "Explorers (widgets)": []}
    for info in pkgutil.walk_packages(genviz.__path__, "genviz."):
        name = info.name
        if name.startswith("genviz.studies"):
            groups["Studies (what each figure shows, computed)"].append(name)
        elif name.startswith("genviz.plots"):
            groups["Views (matplotlib)"].append(name)
        elif name.startswith("genviz.widgets"):
            groups["Explorers (widgets)"].append(name)
        elif name.startswith("genviz.exercises"):
            groups["Exercises"].append(name)
        elif name.split(".")[-1] != "_validation":
            groups["Models"].append(name)
    return groups


def _insert_api_modules(app, docname, source) -> None:
    if docname != "api":
        return
    parts = []
    for title, names in _api_modules().items():
        if names:
            body = "\n".join(f".. automodule:: {n}" for n in names)
            parts.append(f"## {title}\n\n```{{eval-rst}}\n{body}\n```\n")
    source[0] = source[0].replace("<!-- genviz-api-modules -->", "\n".join(parts))


# -- Notebook code as a reader should see it ------------------------------------------------------
#: Lines that are instructions to tools, not course content: nbval's marker for checked outputs
#: and the ipympl backend switch (the site shows images; nothing there is interactive). They are
#: removed from the *displayed* source only; the notebooks run unchanged.
HIDDEN_SOURCE_LINES = ("# NBVAL_CHECK_OUTPUT", "%matplotlib widget")


def strip_tool_lines(code: str, hidden=HIDDEN_SOURCE_LINES) -> str:
    """``code`` without the lines in ``hidden`` (whole lines, surrounding blanks ignored) and
    without the blank lines that leaves at the start."""
    kept = [line for line in code.splitlines() if line.strip() not in hidden]
    while kept and not kept[0].strip():
        kept.pop(0)
    return "\n".join(kept)


def _strip_tool_lines_from_cells(app, doctree) -> None:
    """In notebook pages, drop HIDDEN_SOURCE_LINES from every code cell's displayed input; a
    cell left with no code loses its input box (its outputs, if any, stay)."""
    from docutils import nodes

    for box in list(doctree.findall(nodes.container)):
        if "cell_input" not in box.get("classes", []):
            continue
        for block in list(box.findall(nodes.literal_block)):
            code = block.astext()
            shown = strip_tool_lines(code, tuple(app.config.genviz_hidden_source_lines))
            if shown == code:
                continue
            if not shown.strip():
                block.parent.remove(block)
            else:
                block.children = [nodes.Text(shown)]
                block.rawsource = shown
        if not list(box.findall(nodes.literal_block)):
            box.parent.remove(box)


def setup(app):
    app.connect("source-read", _insert_api_modules)
    # A registered config value, so that changing the list re-reads every page (Sphinx does not
    # see changes in conf.py's functions).
    app.add_config_value("genviz_hidden_source_lines", list(HIDDEN_SOURCE_LINES), "env")
    app.connect("doctree-read", _strip_tool_lines_from_cells)
    app.connect("html-page-context", _inline_explorer_module)

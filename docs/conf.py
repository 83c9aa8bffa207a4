"""Sphinx configuration of the course website (``make site`` -> build/site/index.html).

Generator: Sphinx + MyST-NB (notebooks executed at build time, outputs cached by content hash
with jupyter-cache) + sphinx-book-theme (the Jupyter Book 1.x look, launch and download
buttons). Everything the pages load is local: the theme ships its CSS and JS, MathJax 3 comes
from the ``sphinx-mathjax-offline`` wheel and is copied into ``_static/``, and no ipywidgets
JavaScript is loaded.

Pages are light (issue #37: <= 1 MB cold, compressed, apart from an explorer's states): after
the build, ``_lighten_pages`` typesets the maths with that MathJax under Node.js
(docs/tex2svg.js; MathJax stays in the browser where Node.js is missing or a formula fails),
writes the theme's FontAwesome icons as inline SVG instead of loading its 1.5 MB script, and
keeps Sphinx's search index to the search page. ``benchmarks/bench_page_weight.py`` measures.

Explorers move on the site with no kernel: the build runs the notebooks with
``GENVIZ_STATES=embed`` (scripts/build_site.py), so each explorer's image output carries, in its
metadata, the precomputed states of its gridded controls (genviz.widgets.states). Here that
image becomes a ``genviz-static-explorer`` box (the image and caption, the states in a JSON
script), and a page with such boxes gets the explorers' ES module inlined once, mounted by its
``mountStaticExplorers`` (an inline module script runs from ``file://`` too, where a module
file would be refused). Without JavaScript the image, its alt text and caption stay.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
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
#: each layout's precomputed states in a file of its own (issue #37: a phone fetches only the
#: narrow figure's states, a laptop only the wide one's), loaded by a <script> element, which
#: works from file:// too (a fetch() does not); named by a hash of their content
GRID_DIR = "_static/genviz-grids"
EXPLORER_DATA = re.compile(r'<script type="application/json" class="genviz-explorer-data">'
                           r'(.*?)</script>', re.S)


def explorer_data_script(payload: dict) -> str:
    """The explorer's states as a JSON script element (``</`` escaped, so no string in it can
    close the element)."""
    text = json.dumps(payload, separators=(",", ":")).replace("</", "<\\/")
    return f'<script type="application/json" class="genviz-explorer-data">{text}</script>'


def grid_file_text(name: str, grid: str) -> str:
    """The script a page loads for one layout's states: it files the base64 text under
    ``self.genvizGrids[name]`` (explorer.js ``loadGridFile`` reads it from there)."""
    return f"(self.genvizGrids=self.genvizGrids||{{}})[{json.dumps(name)}]={json.dumps(grid)};\n"


def split_grids(payload: dict, grid_dir: Path) -> dict:
    """``payload`` with its grids (``grid``: the wide layout, ``narrow``: the phone's) moved
    into files of ``grid_dir`` (written unless there), named in ``files`` and ``layouts``."""
    out = {k: v for k, v in payload.items() if k not in ("grid", "narrow")}
    files = {}
    for layout, key in (("wide", "grid"), ("narrow", "narrow")):
        grid = payload.get(key)
        if not grid:
            continue
        name = hashlib.sha256(grid.encode("ascii")).hexdigest()[:24] + ".js"
        path = grid_dir / name
        if not path.is_file():
            grid_dir.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(grid_file_text(name, grid), encoding="ascii")
            os.replace(tmp, path)
        files[layout] = name
    if files:
        out["files"], out["layouts"] = files, list(files)
    return out


def move_grids_to_files(body: str, grid_dir: Path) -> str:
    """A page's HTML with every explorer's grids moved into files (:func:`split_grids`)."""
    def moved(m):
        payload = json.loads(m.group(1).replace("<\\/", "</"))
        return explorer_data_script(split_grids(payload, grid_dir))

    return EXPLORER_DATA.sub(moved, body)


def unused_grid_files(pages, grid_dir: Path) -> list[Path]:
    """The files of ``grid_dir`` that no page of ``pages`` (their HTML) names: the states of
    an earlier build's explorers, left behind by an incremental build."""
    named = {name for text in pages for m in EXPLORER_DATA.finditer(text)
             for name in json.loads(m.group(1).replace("<\\/", "</")).get("files", {}).values()}
    return sorted(p for p in grid_dir.glob("*") if p.is_file() and p.name not in named) \
        if grid_dir.is_dir() else []


def explorer_module_html(grid_base: str | None = None) -> str:
    """explorer.js and its stylesheet, inlined (module scripts do not load from file://);
    ``grid_base``: the page's relative URL of :data:`GRID_DIR`, ending in ``/``."""
    static = ROOT / "genviz" / "widgets" / "static"
    js = (static / "explorer.js").read_text(encoding="utf-8")
    css = (static / "explorer.css").read_text(encoding="utf-8")
    assert "</script" not in js and "</style" not in css
    options = "" if grid_base is None else json.dumps({"gridBase": grid_base})
    return (f"<style>{css}</style>\n<script type=\"module\">\n{js}\n"
            f"mountStaticExplorers(document{', ' + options if options else ''});\n</script>\n")


def _inline_explorer_module(app, pagename, templatename, context, doctree) -> None:
    """Pages with a moving explorer get explorer.js once, at the end of the body, and their
    explorers' states in files (written with the page, so a page Sphinx writes from a cached
    doctree still finds them)."""
    body = context.get("body", "")
    if "genviz-static-explorer" in body:
        body = move_grids_to_files(body, Path(app.outdir) / GRID_DIR)
        base = context["pathto"](GRID_DIR, 1).rstrip("/") + "/"
        context["body"] = body + explorer_module_html(base)


# -- API reference: every module of genviz, listed at build time ---------------------------------
#: The API reference is one page per layer (issue #37: the single page was 3.2 MB, 150,000
#: elements), each a docs/<docname>.md whose `<!-- genviz-api-modules -->` line becomes the
#: automodule directives of its modules (``_api_group`` says which). docs/api.md is the short
#: introduction with the list of these pages; its own marker becomes a script that sends an old
#: link into the single page (api.html#genviz.gda.GDA) to the page that now has that anchor.
API_PAGES = ("api-models", "api-studies", "api-exercises", "api-views", "api-explorers")
API_MARKER = "<!-- genviz-api-modules -->"


def _api_group(name: str) -> str | None:
    """The API page (a key of ``API_PAGES``) of module ``name``; None for a module left out."""
    if name.startswith("genviz.studies"):
        return "api-studies"
    if name.startswith("genviz.plots"):
        return "api-views"
    if name.startswith("genviz.widgets"):
        return "api-explorers"
    if name.startswith("genviz.exercises"):
        return "api-exercises"
    if name.split(".")[-1] == "_validation":
        return None
    return "api-models"


def _api_modules() -> dict[str, list[str]]:
    """API page (docname) -> the genviz modules it documents, in ``pkgutil.walk_packages``
    order: every module of the package, found at build time, so a new one appears by itself."""
    import pkgutil

    import genviz

    groups = {docname: [] for docname in API_PAGES}
    for info in pkgutil.walk_packages(genviz.__path__, "genviz."):
        page = _api_group(info.name)
        if page is not None:
            groups[page].append(info.name)
    return groups


def api_page_source(docname: str, source: str, modules: list[str]) -> str:
    """``source`` (an API page's Markdown) with its marker line replaced by, per module of
    ``modules``, its name (a rubric: a heading would make the docstrings' own "Examples"
    sections clash) and its automodule directive."""
    if API_MARKER not in source:
        raise ValueError(f"docs/{docname}.md: no {API_MARKER} line for its modules")
    body = "\n\n".join(f".. rubric:: {n}\n   :class: genviz-api-module\n\n.. automodule:: {n}"
                       for n in modules)
    return source.replace(API_MARKER, f"```{{eval-rst}}\n{body}\n```\n" if modules else "")


def api_redirect_script(groups: dict[str, list[str]]) -> str:
    """For api.html: a script that sends ``api.html#<anchor>`` (a link into the single page the
    API reference was) to ``<page>.html#<anchor>``, the page documenting the longest module name
    the anchor starts with (``genviz.gda.GDA.fit``, ``module-genviz.gda``)."""
    where = {name: page for page, names in groups.items() for name in names}
    return ("<script>(() => {\n"
            f"  const where = {json.dumps(where, sort_keys=True)};\n"
            "  const id = decodeURIComponent(location.hash.slice(1)).replace(/^module-/, '');\n"
            "  let best = '';\n"
            "  for (const name in where) {\n"
            "    const named = id === name || id.startsWith(name + '.');\n"
            "    if (named && name.length > best.length) best = name;\n"
            "  }\n"
            "  if (best) location.replace(where[best] + '.html' + location.hash);\n"
            "})();</script>\n")


def _insert_api_modules(app, docname, source) -> None:
    if docname in API_PAGES:
        source[0] = api_page_source(docname, source[0], _api_modules()[docname])
    elif docname == "api":
        source[0] = source[0].replace(API_MARKER, api_redirect_script(_api_modules()))


def _check_api_pages(app, env, docnames) -> None:
    """Every page of ``API_PAGES`` is a source of the site (else its modules would be lost)."""
    missing = sorted(set(API_PAGES) - set(env.found_docs))
    if missing:
        raise RuntimeError(f"API pages without a source in docs/: {missing} "
                           "(docs/conf.py API_PAGES)")


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


# -- page weight (issue #37): no icon font, no search index on every page ------------------------
#: The theme's FontAwesome (``_static/scripts/fontawesome.js``: 1.56 MB, 541 kB gzipped, on
#: every page) turns each ``<i class="fa-solid fa-NAME">`` (or ``<span ...>``) into an inline SVG when the page
#: loads. The site uses a dozen of its icons: each is written into the page as that same SVG at
#: build time (its path read from the theme's own copy of FontAwesome Free, CC BY 4.0), and the
#: script is neither loaded nor shipped. The ``svg-inline--fa``, ``fa-fw`` and ``fa-lg`` rules
#: FontAwesome would have injected are in _static/site.css.
FA_STYLES = {"fa-solid": "fas", "fas": "fas", "fa-regular": "far", "far": "far",
             "fa-brands": "fab", "fab": "fab"}
FA_TAG = re.compile(r'<(?P<tag>i|span) class="(?P<cls>[^"]*)"(?P<attrs>[^>]*)>\s*</(?P=tag)>')
FA_SCRIPT = re.compile(r'\s*<script defer src="[^"]*_static/scripts/fontawesome\.js[^"]*"></script>')
#: Sphinx's search tools, which the theme loads on every page for its optional search-as-you-type
#: (off here: the search field submits to search.html, which loads them itself).
SEARCH_SCRIPTS = re.compile(r'\s*<script src="[^"]*(?:_static/searchtools\.js|_static/language_data\.js|'
                            r'searchindex\.js)"></script>')


def fontawesome_source() -> Path:
    import pydata_sphinx_theme

    return (Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" / "static"
            / "scripts" / "fontawesome.js")


@functools.lru_cache(maxsize=None)
def fontawesome_icons(style: str = "fas") -> dict[str, tuple[int, int, str]]:
    """``{name or alias: (width, height, SVG path)}`` of one FontAwesome style (``fas``, ``far``,
    ``fab``), read from the theme's fontawesome.js, where each style is one object literal
    ``var b={name:[width,height,[aliases],"unicode","path"],...}`` registered by
    ``p("<style>",b)``."""
    text = fontawesome_source().read_text(encoding="utf-8")
    end = text.index(f'p("{style}",b)')
    block = text[text.rindex("var b={", 0, end):end]
    icons = {}
    entry = re.compile(r'[{,]"?([\w-]+)"?:\[(\d+),(\d+),\[([^\]]*)\],"[0-9a-f]+","([^"]+)"\]')
    for m in entry.finditer(block):
        name, w, h, aliases, path = m.groups()
        icons[name] = (int(w), int(h), path)
        for alias in re.findall(r'"([\w-]+)"', aliases):
            icons.setdefault(alias, icons[name])
    if not icons:
        raise RuntimeError(f"no {style} icons found in {fontawesome_source()}: has the theme's "
                           "FontAwesome changed its format?")
    return icons


def inline_icons(html: str) -> tuple[str, set]:
    """``html`` with each FontAwesome ``<i>`` icon written as its inline SVG (the markup
    FontAwesome's script makes of it) and the script's ``<script>`` removed; also the names of
    icons not found (left as they were)."""
    missing = set()

    def svg(m):
        classes = m.group("cls").split()
        style = next((FA_STYLES[c] for c in classes if c in FA_STYLES), None)
        names = [c[3:] for c in classes if c.startswith("fa-") and c not in FA_STYLES]
        if style is None:
            return m.group(0)
        icons = fontawesome_icons(style)
        name = next((n for n in names if n in icons), None)
        if name is None:
            missing.update(names)
            return m.group(0)
        w, h, path = icons[name]
        return (f'<svg class="svg-inline--fa {m.group("cls")}"{m.group("attrs")} aria-hidden="true" '
                f'focusable="false" role="img" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}">'
                f'<path fill="currentColor" d="{path}"></path></svg>')

    return FA_SCRIPT.sub("", FA_TAG.sub(svg, html)), missing


# -- maths typeset at build time (issue #37) ------------------------------------------------------
#: MathJax in the browser costs a page with maths ~500 kB (its 1.2 MB script, 264 kB gzipped, and
#: its web fonts). When Node.js is there, the build typesets every formula with the same MathJax
#: (docs/tex2svg.js: SVG with its glyphs, and the assistive MathML a screen reader reads) and the
#: page loads no MathJax at all. Without Node.js, or for a page where a formula fails, the page
#: keeps MathJax in the browser as before.
MATH_PROCESS = re.compile(r"\b(?:math|tex2jax_process|mathjax_process|output_area)\b")
MATH_IGNORE = re.compile(r"\b(?:tex2jax_ignore|mathjax_ignore|document)\b")
MATH_SKIP_TAGS = {"pre", "code", "script", "noscript", "style", "textarea", "annotation",
                  "annotation-xml"}
VOID_TAGS = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
             "track", "wbr"}
TOKEN = re.compile(r"<!--.*?-->|<(script|style)\b[^>]*>.*?</\1\s*>|<[^>]+>", re.S | re.I)
MATH_SPANS = re.compile(r"\$\$(?P<dd>.+?)\$\$|\\\[(?P<db>.+?)\\\]|\\\((?P<ip>.+?)\\\)"
                        r"|(?<![\\$])\$(?P<id>[^$]+?)(?<!\\)\$"
                        r"|(?P<env>\\begin\{(?P<name>[a-zA-Z*]+)\}.*?\\end\{(?P=name)\})", re.S)
#: A displayed formula scrolls sideways when wider than the column (a phone): a scrolling region
#: must be reachable by keyboard (axe ``scrollable-region-focusable``), as MathJax in the browser
#: makes it.
DISPLAY_MATH = re.compile(r'(<mjx-container class="MathJax" jax="SVG" display="true")')
MATHJAX_SCRIPTS = re.compile(r'\s*<script>window\.MathJax = .*?</script>'
                             r'|\s*<script defer="defer" src="[^"]*_static/mathjax/[^"]*"></script>', re.S)


def math_texts(html: str) -> list[tuple[int, int, str, bool]]:
    """``(start, end, tex, display)`` of each formula MathJax would typeset in ``html`` with
    this site's configuration: delimited by ``\\(..\\)``, ``$..$`` (inline), ``\\[..\\]``,
    ``$$..$$`` or a bare ``\\begin{env}..\\end{env}`` (display) in text inside an element of a
    processed class (``mathjax3_config``'s ``processHtmlClass``) and not inside an ignored one
    or a tag MathJax skips (code, scripts); ``start:end`` spans the delimiters in ``html``."""
    import html as html_lib

    found, stack, pos = [], [], 0  # stack: (tag, processed?) of elements that set the state

    def scan(text_start, text_end):
        if not (stack and stack[-1][1]):
            return
        for m in MATH_SPANS.finditer(html, text_start, text_end):
            tex = next(g for g in ("dd", "db", "ip", "id", "env") if m.group(g) is not None)
            body = html_lib.unescape(m.group(tex) if tex != "env" else m.group(0))
            found.append((m.start(), m.end(), body.strip(), tex in ("dd", "db", "env")))

    for tok in TOKEN.finditer(html):
        scan(pos, tok.start())
        pos = tok.end()
        text = tok.group(0)
        if text.startswith("<!--") or tok.group(1):
            continue
        closing = text.startswith("</")
        tag = re.match(r"</?\s*([a-zA-Z0-9-]+)", text)
        if not tag:
            continue
        name = tag.group(1).lower()
        if closing:
            for i in range(len(stack) - 1, -1, -1):
                if stack[i][0] == name and stack[i][2] == 0:
                    del stack[i:]
                    break
                if stack[i][0] == name:
                    stack[i][2] -= 1
                    break
            continue
        if name in VOID_TAGS or text.endswith("/>"):
            continue
        cls = re.search(r'\bclass="([^"]*)"', text)
        cls = cls.group(1) if cls else ""
        if name in MATH_SKIP_TAGS or MATH_IGNORE.search(cls):
            stack.append([name, False, 0])
        elif MATH_PROCESS.search(cls):
            stack.append([name, True, 0])
        elif stack and stack[-1][0] == name:
            stack[-1][2] += 1  # the same tag nested inside the element that set the state
    scan(pos, len(html))
    return found


def node_typeset(pages: list[list[tuple[str, bool]]]) -> dict | None:
    """docs/tex2svg.js on each page's formulas (``(tex, display)``); None when Node.js is not
    there or fails (the site then keeps MathJax in the browser)."""
    import shutil
    import subprocess

    node = shutil.which("node")
    mathjax = _mathjax_dir()
    if not node or mathjax is None or not any(pages):
        return None
    job = json.dumps({"mathjax": str(mathjax), "pages": pages})
    try:
        done = subprocess.run([node, str(HERE / "tex2svg.js")], input=job, capture_output=True,
                              text=True, timeout=600, check=True)
        return json.loads(done.stdout)
    except (OSError, subprocess.SubprocessError, ValueError) as err:
        from sphinx.util import logging

        logging.getLogger(__name__).warning("maths left to MathJax in the browser: %s", err)
        return None


def _mathjax_dir() -> Path | None:
    import importlib.util

    spec = importlib.util.find_spec("sphinx-mathjax-offline")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(list(spec.submodule_search_locations)[0]) / "static" / "mathjax"
    return path if (path / "node-main.js").exists() else None


def typeset_pages(pages: dict[str, str]) -> tuple[dict[str, str], dict]:
    """``pages`` (name -> HTML) with every formula replaced by MathJax's SVG output, the page's
    glyphs once in a hidden ``<svg>`` at the start of its body, MathJax's stylesheet inlined and
    its scripts removed. Pages where a formula failed, or all of them when Node.js is missing,
    come back unchanged (MathJax typesets them in the browser). Also ``{"formulas": n,
    "failed": [page, ...]}``."""
    spans = {name: math_texts(text) for name, text in pages.items()
             if "_static/mathjax/" in text}
    names = sorted(spans)
    result = node_typeset([[(tex, display) for _, _, tex, display in spans[n]] for n in names])
    if result is None:
        return pages, {"formulas": 0, "failed": names}
    out, failed = dict(pages), []
    style = f'<style id="genviz-math">{result["css"]}</style>'
    for name, done in zip(names, result["pages"]):
        if done["errors"]:
            failed.append(name)
            continue
        text = pages[name]
        for (start, end, _, _), svg in sorted(zip(spans[name], done["html"]), reverse=True):
            text = text[:start] + DISPLAY_MATH.sub(r'\1 tabindex="0"', svg, count=1) + text[end:]
        text = MATHJAX_SCRIPTS.sub("", text).replace("</head>", style + "\n</head>", 1)
        defs = ('<svg id="MJX-SVG-global-cache" style="display: none;" aria-hidden="true" '
                f'xmlns="http://www.w3.org/2000/svg">{done["defs"]}</svg>')
        out[name] = re.sub(r"(<body\b[^>]*>)", lambda m: m.group(1) + defs, text, count=1)
    return out, {"formulas": sum(len(v) for v in spans.values()), "failed": failed}


#: A sidebar entry with pages under it (the API reference's): its link, then the theme's fold
#: toggle, a <summary> holding only an icon (axe `summary-name`, serious)
TOCTREE_TOGGLE = re.compile(r'(<a class="(?:current )?reference internal" href="[^"]*">'
                            r'(?P<title>[^<]+)</a><details(?: open="open")?>)<summary>')


def name_toctree_toggles(html: str) -> str:
    """``html`` with each sidebar fold toggle named after its entry ("Pages under API
    reference"), so a screen reader says what it opens."""
    import html as html_lib

    def named(m):
        title = html_lib.escape(html_lib.unescape(m.group("title")).strip(), quote=True)
        return f'{m.group(1)}<summary aria-label="Pages under {title}">'

    return TOCTREE_TOGGLE.sub(named, html)


def _lighten_pages(app, exception) -> None:
    """After an HTML build, in every page: the maths typeset (typeset_pages), FontAwesome's
    icons inlined and its script gone, the sidebar's fold toggles named, Sphinx's search tools
    kept only where they are used (search.html). Pages done already (an incremental build) are
    left as they are."""
    if exception is not None or app.builder.format != "html":
        return
    from sphinx.util import logging

    log = logging.getLogger(__name__)
    out = Path(app.outdir)
    pages = {p.relative_to(out).as_posix(): p.read_text(encoding="utf-8")
             for p in out.rglob("*.html") if p.relative_to(out).parts[0] not in ("_static", "_sources")}
    typeset, info = typeset_pages(pages)
    if info["failed"]:
        log.warning("maths typeset by MathJax in the browser on: %s", ", ".join(info["failed"]))
    missing = set()
    for name, text in typeset.items():
        new, lost = inline_icons(text)
        new = name_toctree_toggles(new)
        missing |= lost
        if name != "search.html":
            new = SEARCH_SCRIPTS.sub("", new)
        if new != pages[name]:
            (out / name).write_text(new, encoding="utf-8")
    for stale in (out / "_static" / "scripts").glob("fontawesome.js*"):
        stale.unlink()
    for stale in unused_grid_files(pages.values(), out / GRID_DIR):
        stale.unlink()
    if missing:
        log.warning("FontAwesome icons not found: %s", sorted(missing))


def setup(app):
    app.connect("build-finished", _lighten_pages)
    app.connect("source-read", _insert_api_modules)
    app.connect("env-before-read-docs", _check_api_pages)
    # A registered config value, so that changing the list re-reads every page (Sphinx does not
    # see changes in conf.py's functions).
    app.add_config_value("genviz_hidden_source_lines", list(HIDDEN_SOURCE_LINES), "env")
    app.connect("doctree-read", _strip_tool_lines_from_cells)
    app.connect("html-page-context", _inline_explorer_module)

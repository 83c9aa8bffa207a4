"""Light site pages (issue #37): docs/conf.py's build-time passes and the page-weight
benchmark's static host (benchmarks/bench_page_weight.py).

* ``math_texts`` finds the formulas MathJax would typeset with the site's configuration (a
  hand-written page is the oracle), and ``typeset_pages`` replaces them with MathJax's own SVG
  output (Node.js and the site's MathJax: its MathML is the oracle of what was typeset), or
  leaves a page to MathJax in the browser when a formula fails or Node.js is missing;
* ``inline_icons`` writes the theme's FontAwesome icons as the inline SVG FontAwesome's
  script would make (viewBox and path of FontAwesome Free's published glyphs);
* ``CompressingServer`` sends gzip that decompresses to the file (``gzip`` is the oracle),
  images as they are, and counts the bytes it wrote; ``states_share`` is the gzip size saved
  by emptying the explorer states.
"""

from __future__ import annotations

import gzip
import importlib.util
import random
import re
import shutil
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


conf = _load("site_conf_weight", ROOT / "docs" / "conf.py")
bench = _load("bench_page_weight_t", ROOT / "benchmarks" / "bench_page_weight.py")

PAGE = r"""<html><head>
<script>window.MathJax = {"tex": {}}</script>
<script defer="defer" src="../_static/mathjax/tex-chtml.js?v=1"></script>
</head><body class="x"><div class="document">
<p>Costs $5 and $6 outside maths.</p>
<p>Inline <span class="math notranslate nohighlight">\(x^2 &lt; y\)</span> and
<div class="math notranslate nohighlight">\[\frac{a}{b}\]</div></p>
<div class="output_area"><div><p>Hint: $\mu_k$ and $$\sum_i x_i$$ here;
<code>$not$</code> <b>bold</b> $\alpha$.</p></div></div>
<pre>\(code\)</pre>
<script>if (a < b && c > d) { x = "$y$"; }</script>
</div></body></html>"""


def test_math_texts_finds_what_mathjax_would_typeset_and_nothing_else():
    found = conf.math_texts(PAGE)
    assert [(tex, display) for _, _, tex, display in found] == [
        ("x^2 < y", False), (r"\frac{a}{b}", True), (r"\mu_k", False), (r"\sum_i x_i", True),
        (r"\alpha", False)]
    for start, end, _, _ in found:  # each span covers its delimiters
        assert PAGE[start] in "$\\" and PAGE[end - 1] in "$)]"


@pytest.mark.skipif(shutil.which("node") is None or conf._mathjax_dir() is None,
                    reason="needs Node.js and the site's MathJax (sphinx-mathjax-offline)")
def test_typeset_pages_writes_mathjax_svg_with_its_mathml_and_drops_the_scripts():
    out, info = conf.typeset_pages({"p.html": PAGE, "plain.html": "<html><body>x</body></html>"})
    page = out["p.html"]
    assert info == {"formulas": 5, "failed": []}
    assert out["plain.html"] == "<html><body>x</body></html>"
    assert page.count("<mjx-container") == 5 and "_static/mathjax" not in page
    assert "window.MathJax" not in page and '<style id="genviz-math">' in page
    assert "mjx-assistive-mml" in page  # what a screen reader reads
    assert page.count('display="true" tabindex="0"') == 2  # a wide one scrolls: keyboard too
    assert '<msup><mi>x</mi><mn>2</mn></msup><mo>&lt;</mo><mi>y</mi>' in page
    assert "<mfrac><mi>a</mi><mi>b</mi></mfrac>" in page
    assert '<math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><munder>' in page
    assert "<code>$not$</code>" in page and "Costs $5 and $6" in page and "\\(code\\)" in page
    assert '"$y$"' in page
    # every glyph used is defined once, in the page's hidden font cache
    used = set(re.findall(r'xlink:href="#([^"]+)"', page))
    defined = re.findall(r'<path id="([^"]+)"', page)
    assert used and used == set(defined) and len(defined) == len(set(defined))
    assert page.index('id="MJX-SVG-global-cache"') < page.index("<mjx-container")


def test_a_page_with_a_failing_formula_or_without_node_keeps_mathjax(monkeypatch):
    broken = PAGE.replace(r"\frac{a}{b}", r"\frac{a}{b")
    if shutil.which("node") and conf._mathjax_dir() is not None:
        out, info = conf.typeset_pages({"bad.html": broken, "good.html": PAGE})
        assert out["bad.html"] == broken and info["failed"] == ["bad.html"]
        assert "<mjx-container" in out["good.html"]
    monkeypatch.setattr(shutil, "which", lambda name: None)
    out, info = conf.typeset_pages({"good.html": PAGE})
    assert out["good.html"] == PAGE and info["failed"] == ["good.html"]


def test_inline_icons_writes_fontawesome_svg_and_removes_its_script():
    html = ('<head><script defer src="../_static/scripts/fontawesome.js?digest=1"></script></head>'
            '<button><i class="fa-solid fa-bars fa-lg" title="menu"></i></button>'
            '<span class="fa-solid fa-magnifying-glass"></span><i class="fa-solid fa-no-such-icon"></i>'
            '<i class="not-an-icon"></i>')
    out, missing = conf.inline_icons(html)
    assert "fontawesome.js" not in out and missing == {"no-such-icon"}
    # FontAwesome Free's published glyphs: bars is 448x512, magnifying-glass 512x512
    assert ('<svg class="svg-inline--fa fa-solid fa-bars fa-lg" title="menu" aria-hidden="true"'
            in out)
    assert 'viewBox="0 0 448 512"><path fill="currentColor" d="M0 96C0' in out
    assert 'viewBox="0 0 512 512"><path fill="currentColor" d="M416 208c0 45.9' in out
    assert '<i class="fa-solid fa-no-such-icon"></i>' in out and '<i class="not-an-icon"></i>' in out
    assert "<span" not in out
    assert conf.fontawesome_icons("fas")["search"] == conf.fontawesome_icons("fas")["magnifying-glass"]


def test_compressing_server_sends_gzip_of_text_and_counts_bytes(tmp_path):
    text = ("<p>" + "genviz " * 2000 + "</p>").encode()
    png = bytes(range(256)) * 8
    (tmp_path / "a.html").write_bytes(text)
    (tmp_path / "b.png").write_bytes(png)
    server = bench.CompressingServer(tmp_path)
    with server as url:
        req = urllib.request.Request(f"{url}/a.html", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(req) as r:
            body, enc = r.read(), r.headers.get("Content-Encoding")
        assert enc == "gzip" and gzip.decompress(body) == text and len(body) < len(text) // 10
        sent_html = server.sent["/a.html"]
        assert len(body) < sent_html < len(body) + 400  # the body and its headers
        with urllib.request.urlopen(f"{url}/a.html") as r:  # no Accept-Encoding: plain
            assert r.read() == text and r.headers.get("Content-Encoding") is None
        req = urllib.request.Request(f"{url}/b.png", headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(req) as r:
            assert r.read() == png and r.headers.get("Content-Encoding") is None
        server.reset()
        assert server.sent == {}


def test_states_share_is_the_gzip_bytes_of_the_embedded_states():
    rng = random.Random(37)
    states = '{"grid":"' + "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(20000)) + '"}'
    page = ('<html><body><p>text</p><script type="application/json" '
            f'class="genviz-explorer-data">{states}</script></body></html>').encode()
    raw, share = bench.states_share(page)
    assert raw == len(states)
    empty = page.replace(states.encode(), b"")
    assert share == len(gzip.compress(page, 6, mtime=0)) - len(gzip.compress(empty, 6, mtime=0))
    assert 0.4 * len(states) < share < len(states)  # random letters: ~4.7 bits each
    assert bench.states_share(b"<html><body>no explorer</body></html>") == (0, 0)


def _payload(rng):
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    grid = "".join(rng.choice(letters) for _ in range(3000))
    narrow = "".join(rng.choice(letters) for _ in range(2000))
    return {"spec": {"controls": [{"name": "h", "label": "</script> h"}]}, "alt": "a figure",
            "grid": grid, "narrow": narrow}


def test_each_layouts_states_go_to_a_file_of_their_own(tmp_path):
    """Issue #37: a site page no longer carries both layouts' states; each is a script file
    named by its content's hash, which node (the oracle) runs to give the base64 text back."""
    import hashlib
    import json
    import subprocess

    payload = _payload(random.Random(5))
    page = ('<p>text</p><figure class="genviz-explorer genviz-static-explorer"><img src="x.png">'
            f'{conf.explorer_data_script(payload)}</figure><p>more</p>')
    out = conf.move_grids_to_files(page, tmp_path / "grids")
    (data,) = conf.EXPLORER_DATA.findall(out)
    moved = json.loads(data.replace("<\\/", "</"))
    assert "grid" not in moved and "narrow" not in moved and "</script>" not in data
    assert moved["layouts"] == ["wide", "narrow"]
    assert {k: v for k, v in moved.items() if k not in ("files", "layouts")} == \
        {k: v for k, v in payload.items() if k not in ("grid", "narrow")}
    assert out.startswith("<p>text</p>") and out.endswith("<p>more</p>")
    for layout, key in (("wide", "grid"), ("narrow", "narrow")):
        name = moved["files"][layout]
        assert name == hashlib.sha256(payload[key].encode()).hexdigest()[:24] + ".js"
        script = (tmp_path / "grids" / name).read_text()
        got = subprocess.run(["node", "-e", f"globalThis.self = globalThis;\n{script}\nprocess.stdout.write("
                              f"self.genvizGrids[{json.dumps(name)}])"],
                             capture_output=True, text=True, timeout=60, check=True).stdout
        assert got == payload[key]
    # the same states again (another page, a rebuild): the same file, written once
    before = {p.name: p.stat().st_mtime_ns for p in (tmp_path / "grids").iterdir()}
    assert conf.move_grids_to_files(page, tmp_path / "grids") == out
    assert {p.name: p.stat().st_mtime_ns for p in (tmp_path / "grids").iterdir()} == before
    # a file no page names any more (an earlier build's) is the one pruned
    (tmp_path / "grids" / "0123abcd.js").write_text("old")
    assert [p.name for p in conf.unused_grid_files([out, "<p>no explorer</p>"],
                                                   tmp_path / "grids")] == ["0123abcd.js"]
    assert conf.unused_grid_files([out], tmp_path / "nowhere") == []
    # an explorer without a phone layout names only its wide file
    wide_only = conf.split_grids({**payload, "narrow": ""}, tmp_path / "grids")
    assert wide_only["layouts"] == ["wide"] and list(wide_only["files"]) == ["wide"]


def test_the_inlined_module_mounts_with_the_pages_grid_base():
    html = conf.explorer_module_html("../_static/genviz-grids/")
    assert html.rstrip().endswith(
        'mountStaticExplorers(document, {"gridBase": "../_static/genviz-grids/"});\n</script>')
    assert "export function loadGridFile" in html
    assert conf.explorer_module_html().rstrip().endswith("mountStaticExplorers(document);\n</script>")

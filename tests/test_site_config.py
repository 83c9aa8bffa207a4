"""The course website's configuration (docs/conf.py): its one repository setting and the launch
links made from it; the API reference's pages (one per layer, issue #37), which module each
documents, and the script that sends an old link into the single API page to its new page."""

import ast
import importlib.util
import json
import shutil
import subprocess
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


_mod = _load("set_repository_url", ROOT / "scripts" / "set_repository_url.py")
BEGIN, END, launch_block, set_repository_url = (_mod.BEGIN, _mod.END, _mod.launch_block,
                                                _mod.set_repository_url)


def _setting(root):
    tree = ast.parse((root / "docs" / "conf.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "REPOSITORY_URL":
            return node.value.value
    raise AssertionError("docs/conf.py has no REPOSITORY_URL")


def _block(root):
    text = (root / "README.md").read_text()
    return text.split(BEGIN, 1)[1].split(END, 1)[0]


def test_readme_launch_links_follow_the_setting_and_no_placeholder_remains():
    url = _setting(ROOT)
    readme = (ROOT / "README.md").read_text()
    assert "OWNER" not in readme
    assert _block(ROOT).strip() == launch_block(url)
    if not url:
        assert "mybinder.org/v2" not in _block(ROOT)


@pytest.fixture
def copy(tmp_path):
    (tmp_path / "docs").mkdir()
    shutil.copy(ROOT / "docs" / "conf.py", tmp_path / "docs" / "conf.py")
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    return tmp_path


def test_setting_the_url_writes_the_badge_and_unsetting_removes_it(copy):
    set_repository_url("https://github.com/acme/genviz/", root=copy)
    assert _setting(copy) == "https://github.com/acme/genviz"
    assert ("(https://mybinder.org/v2/gh/acme/genviz/HEAD?urlpath=lab/tree/notebooks/"
            "00_start_here.ipynb)") in _block(copy)
    readme = (copy / "README.md").read_text()
    assert readme.count(BEGIN) == 1 and readme.count(END) == 1
    set_repository_url("", root=copy)
    assert _setting(copy) == "" and "mybinder.org/v2" not in _block(copy)
    if not _setting(ROOT):
        assert (copy / "README.md").read_text() == (ROOT / "README.md").read_text()


def test_a_non_github_repository_gets_a_generic_binder_link():
    assert launch_block("https://gitlab.example.org/a/b").startswith(
        "[![Binder](https://mybinder.org/badge_logo.svg)](https://mybinder.org/v2/git/https%3A")


@pytest.mark.parametrize("bad", ["github.com/acme/genviz", "http://github.com/a/b", "ftp://x/y"])
def test_bad_urls_are_refused(copy, bad):
    with pytest.raises(ValueError, match="url must be an https URL"):
        set_repository_url(bad, root=copy)


# -- the API reference, one page per layer (docs/conf.py API_PAGES) -----------------------------
conf = _load("site_conf_api", ROOT / "docs" / "conf.py")
#: the list of genviz's modules from its files (the oracle; the build walks the package)
module_report = _load("module_report_api", ROOT / "scripts" / "module_report.py")
#: the layer of a module by its first name under genviz (an independent statement of the rule)
LAYER = {"studies": "api-studies", "plots": "api-views", "widgets": "api-explorers",
         "exercises": "api-exercises"}


def _modules_on_disk() -> set[str]:
    return {module_report.module_name(p) for p in module_report.modules()} - {"genviz"}


def test_every_genviz_module_is_on_exactly_one_api_page_of_its_layer():
    groups = conf._api_modules()
    assert list(groups) == list(conf.API_PAGES)
    placed = [name for names in groups.values() for name in names]
    assert len(placed) == len(set(placed)), "a module is on two API pages"
    assert set(placed) == {n for n in _modules_on_disk() if not n.endswith("._validation")}
    for page, names in groups.items():
        assert names, f"{page} documents nothing"
        for name in names:
            assert page == LAYER.get(name.split(".")[1], "api-models"), (name, page)


def test_a_new_module_appears_on_its_page_by_itself(tmp_path, monkeypatch):
    import genviz

    (tmp_path / "brand_new_model.py").write_text('"""A model added later."""\n')
    monkeypatch.setattr(genviz, "__path__", [*genviz.__path__, str(tmp_path)])
    groups = conf._api_modules()
    assert "genviz.brand_new_model" in groups["api-models"]
    assert all("genviz.brand_new_model" not in names for page, names in groups.items()
               if page != "api-models")


def test_every_api_page_has_its_source_and_is_listed_by_the_introduction():
    intro = (ROOT / "docs" / "api.md").read_text()
    toctree = intro.split("```{toctree}", 1)[1].split("```", 1)[0]
    listed = [line.strip() for line in toctree.splitlines()
              if line.strip() and not line.startswith(":")]
    assert listed == list(conf.API_PAGES)
    assert intro.count(conf.API_MARKER) == 1
    for page in conf.API_PAGES:
        text = (ROOT / "docs" / f"{page}.md").read_text()
        assert text.startswith("# ") and text.count(conf.API_MARKER) == 1, page


def test_an_api_page_gets_one_automodule_per_module_in_place_of_its_marker():
    source = "# Models\n\nIntro.\n\n<!-- genviz-api-modules -->\n"
    out = conf.api_page_source("api-models", source, ["genviz.gda", "genviz.knn"])
    assert out.startswith("# Models\n\nIntro.\n\n```{eval-rst}\n")
    assert conf.API_MARKER not in out
    rst = out.split("```{eval-rst}\n", 1)[1].split("```", 1)[0]
    assert [line for line in rst.splitlines() if line.startswith("..")] == [
        ".. rubric:: genviz.gda", ".. automodule:: genviz.gda",
        ".. rubric:: genviz.knn", ".. automodule:: genviz.knn"]
    assert conf.api_page_source("api-models", source, []) == "# Models\n\nIntro.\n\n\n"


def test_an_api_page_without_its_marker_is_refused_by_name():
    with pytest.raises(ValueError, match=r"docs/api-views\.md: no <!-- genviz-api-modules -->"):
        conf.api_page_source("api-views", "# Views\n", ["genviz.plots.gda"])


def test_a_missing_api_page_source_stops_the_build_naming_it():
    env = types.SimpleNamespace(found_docs={"index", "api", "api-models", "api-views"})
    with pytest.raises(RuntimeError, match=r"\['api-exercises', 'api-explorers', 'api-studies'\]"):
        conf._check_api_pages(None, env, [])
    conf._check_api_pages(None, types.SimpleNamespace(found_docs=set(conf.API_PAGES)), [])


REDIRECT_CASES = [
    ("#genviz.gda.GDA.fit", "api-models.html#genviz.gda.GDA.fit"),
    ("#module-genviz.plots.gda", "api-views.html#module-genviz.plots.gda"),
    ("#genviz.plots.gda", "api-views.html#genviz.plots.gda"),
    ("#genviz.naive_bayes.text.vocabulary", "api-studies.html#genviz.naive_bayes.text.vocabulary"),
    ("#genviz.naive_bayes.MultinomialNB", "api-models.html#genviz.naive_bayes.MultinomialNB"),
    ("#genviz.gdax", None),  # a name that only starts like a module's
    ("#genviz-generative-learning", None),
    ("", None),
]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run the script")
def test_an_old_api_link_is_sent_to_the_page_of_the_longest_module_it_names():
    # a made-up grouping, so that the longest module, not the first one, must win
    groups = {"api-models": ["genviz.gda", "genviz.naive_bayes"],
              "api-studies": ["genviz.naive_bayes.text"], "api-views": ["genviz.plots.gda"]}
    script = conf.api_redirect_script(groups)
    assert script.startswith("<script>") and script.rstrip().endswith("</script>")
    code = script.strip().removeprefix("<script>").removesuffix("</script>")
    runner = ("const cases = JSON.parse(process.argv[1]); const out = [];\n"
              "for (const hash of cases) {\n"
              "  let went = null;\n"
              "  globalThis.location = {hash, replace: (u) => { went = u; }};\n"
              f"  {code}\n"
              "  out.push(went);\n"
              "}\nconsole.log(JSON.stringify(out));\n")
    done = subprocess.run(["node", "-e", runner, json.dumps([c[0] for c in REDIRECT_CASES])],
                          capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == [c[1] for c in REDIRECT_CASES]


def test_a_sidebar_fold_toggle_is_named_after_its_entry():
    entry = ('<li class="toctree-l1 current active has-children"><a class="reference internal" '
             'href="api.html">API &amp; "more"</a><details open="open"><summary><span '
             'class="toctree-toggle" role="presentation"><svg aria-hidden="true"></svg></span>'
             '</summary><ul><li>x</li></ul></details></li>')
    out = conf.name_toctree_toggles(entry)
    assert out == entry.replace("<summary>",
                                '<summary aria-label="Pages under API &amp; &quot;more&quot;">')
    assert conf.name_toctree_toggles(out) == out  # a page done already stays as it is
    closed = entry.replace(' open="open"', "").replace('href="api.html"', 'href="a/b.html"')
    assert 'aria-label="Pages under API' in conf.name_toctree_toggles(closed)
    here = entry.replace('class="reference internal" href="api.html"',
                         'class="current reference internal" href="#"')  # on api.html itself
    assert 'aria-label="Pages under API' in conf.name_toctree_toggles(here)
    plain = "<details><summary>Hint</summary>text</details>"  # an exercise's hint: its own text
    assert conf.name_toctree_toggles(plain) == plain

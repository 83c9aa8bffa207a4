"""The genviz-a11y front-end extension (share/jupyter/labextensions/genviz-a11y) is well formed,
is found by JupyterLab's and Voila's own discovery code, and every place that starts a Lab or
Voila (``make lab``, ``make present``, Binder's postBuild, the browser tests' Lab server) uses
it. What it does in the browser is checked in browser_tests/test_a11y.py."""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SHARE = ROOT / "share" / "jupyter"
EXT = SHARE / "labextensions" / "genviz-a11y"
PACKAGE = json.loads((EXT / "package.json").read_text())


def test_package_json_declares_a_prebuilt_extension():
    assert PACKAGE["name"] == "genviz-a11y" == EXT.name
    assert PACKAGE["version"]
    build = PACKAGE["jupyterlab"]["_build"]
    assert build["extension"] == "./extension"
    assert (EXT / build["load"]).is_file()
    # No npm dependency: nothing to install or build.
    assert not PACKAGE.get("dependencies") and not PACKAGE.get("devDependencies")


def test_jupyterlab_server_lists_it_as_a_federated_extension():
    config = pytest.importorskip("jupyterlab_server.config")
    found = config.get_federated_extensions([str(SHARE / "labextensions")])
    assert found["genviz-a11y"]["jupyterlab"]["_build"] == PACKAGE["jupyterlab"]["_build"]


def test_voila_looks_in_the_project_share_when_jupyter_path_is_set(monkeypatch):
    utils = pytest.importorskip("voila.utils")
    config = pytest.importorskip("jupyterlab_server.config")
    monkeypatch.setenv("JUPYTER_PATH", str(SHARE))
    paths = utils.get_voila_labextensions_path()
    assert str(SHARE / "labextensions") in paths
    assert "genviz-a11y" in config.get_federated_extensions(paths)
    monkeypatch.delenv("JUPYTER_PATH")
    assert str(SHARE / "labextensions") not in utils.get_voila_labextensions_path()


CONTAINER_JS = r"""
global.window = {};
require(process.argv[1]);
const c = window._JUPYTERLAB[process.argv[2]];
(async () => {
  await c.init({});
  const mod = (await c.get(process.argv[3]))();
  const p = mod.__esModule ? mod.default : mod;
  let other = "resolved";
  try { await c.get("./nothing"); } catch (e) { other = "rejected"; }
  console.log(JSON.stringify({id: p.id, autoStart: p.autoStart, activate: typeof p.activate,
                              requires: p.requires || [], other,
                              api: Object.keys(window.genvizA11y || {}).sort()}));
})().catch(e => { console.error(e); process.exit(1); });
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run the script")
def test_remote_entry_implements_the_container_contract():
    """What JupyterLab 4's and Voila 0.5's loaders do (their main bundles): load the script,
    ``window._JUPYTERLAB[name].init(shareScope)``, then ``(await .get(extension))()`` and take
    ``.default`` of an ES module as the plugin."""
    out = subprocess.run(
        ["node", "-e", CONTAINER_JS, str(EXT / PACKAGE["jupyterlab"]["_build"]["load"]),
         PACKAGE["name"], PACKAGE["jupyterlab"]["_build"]["extension"]],
        capture_output=True, text=True, timeout=60, check=True).stdout
    plugin = json.loads(out)
    assert plugin == {"id": "genviz-a11y:plugin", "autoStart": True, "activate": "function",
                      "requires": [], "other": "rejected", "api": ["fix", "start", "version"]}


def test_every_launcher_uses_the_extension():
    makefile = (ROOT / "Makefile").read_text()
    assert ("PROJECT_JUPYTER_PATH := JUPYTER_PATH=$(CURDIR)/share/jupyter" in makefile)
    for target in ("lab:", "present:"):
        recipe = makefile.split(f"\n{target}", 1)[1].split("\n\n", 1)[0]
        assert "$(PROJECT_JUPYTER_PATH)" in recipe, target
    post_build = (ROOT / "postBuild").read_text()
    assert "cp -r share/jupyter/labextensions/genviz-a11y" in post_build
    assert "share/jupyter/labextensions" in post_build
    pages = (ROOT / "browser_tests" / "pages.py").read_text()
    assert 'env["JUPYTER_PATH"]' in pages and '"share" / "jupyter"' in pages

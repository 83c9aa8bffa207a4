"""Project-level rules: packaging lists agree, layers stay apart, notebooks are stored right."""

import ast
import json
import pathlib
import re
import subprocess
import sys
import tomllib

import pytest
import yaml

ROOT = pathlib.Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
CHECK = "NBVAL_CHECK_OUTPUT"


def _name_and_spec(requirement: str):
    m = re.match(r"\s*([A-Za-z0-9_.\-]+)\s*(.*)$", requirement)
    return m.group(1).lower().replace("_", "-"), m.group(2).replace(" ", "")


def test_environment_yml_lists_the_same_runtime_packages_as_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = dict(_name_and_spec(r) for r in project["dependencies"]
                  + project["optional-dependencies"]["lab"])
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    conda = dict(_name_and_spec(d) for d in env["dependencies"] if isinstance(d, str))
    conda.pop("pip", None)
    python = conda.pop("python")
    assert python == project["requires-python"]
    assert conda == wanted
    assert "conda-forge" in env["channels"]


def test_tested_versions_satisfy_environment_yml():
    """What a Binder/JupyterHub image resolves from environment.yml admits what we test with."""
    from importlib.metadata import PackageNotFoundError, version

    from packaging.specifiers import SpecifierSet

    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    for dep in env["dependencies"]:
        if not isinstance(dep, str) or dep.startswith(("python", "pip")):
            continue
        name, spec = _name_and_spec(dep)
        try:
            installed = version(name)
        except PackageNotFoundError:
            pytest.fail(f"{name} from environment.yml is not installed in the test environment")
        assert installed in SpecifierSet(spec), f"{name} {installed} not in {spec}"


def test_postbuild_installs_genviz_from_the_repository():
    text = (ROOT / "postBuild").read_text()
    assert "pip install" in text and "-e ." in text


def _imports(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module.split(".")[0]


COMPUTATION = [p for p in (ROOT / "genviz").glob("*.py")]


@pytest.mark.parametrize("path", COMPUTATION, ids=lambda p: p.name)
def test_computation_modules_import_no_plotting_or_widgets(path):
    forbidden = {"matplotlib", "ipywidgets", "IPython", "sklearn"}
    assert not forbidden & set(_imports(path)), f"{path.name} imports {forbidden & set(_imports(path))}"


@pytest.mark.parametrize("path", sorted((ROOT / "genviz" / "plots").glob("*.py")), ids=lambda p: p.name)
def test_views_import_no_widgets(path):
    assert not {"ipywidgets", "sklearn"} & set(_imports(path))


def test_no_module_of_genviz_imports_sklearn():
    for path in (ROOT / "genviz").rglob("*.py"):
        assert "sklearn" not in set(_imports(path)), path


def test_import_genviz_loads_no_plotting_library():
    code = ("import sys, genviz, genviz.gaussian; "
            "print(sorted(m for m in ('matplotlib', 'ipywidgets', 'sklearn') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_every_module_has_all():
    for path in (ROOT / "genviz").rglob("*.py"):
        if path.name.startswith("_") and path.name != "__init__.py":
            continue
        assert "__all__" in path.read_text(), f"{path} has no __all__"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_outputs_are_stored_only_for_checked_cells(path):
    nb = json.loads(path.read_text())
    checked = 0
    for i, cell in enumerate(nb["cells"]):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"])
        outputs = cell.get("outputs", [])
        if CHECK in source:
            checked += 1
            assert outputs, f"cell {i}: a {CHECK} cell without stored output checks nothing"
            assert cell["execution_count"] is not None, f"cell {i}: nbval skips cells with no count"
            for out in outputs:
                assert set(out.get("data", {})) <= {"text/plain"}, f"cell {i}: stores non-text output"
                assert out["output_type"] in ("stream", "execute_result"), f"cell {i}: {out['output_type']}"
        else:
            assert not outputs, f"cell {i}: unchecked cell has stored outputs (strip them)"
            assert cell["execution_count"] is None, f"cell {i}: execution count not stripped"
    assert checked >= 1, "every notebook prints its key numbers in at least one checked cell"
    assert "widgets" not in nb["metadata"], "widget state is stored (strip it)"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebooks_use_the_interactive_backend_and_seed_randomness(path):
    nb = json.loads(path.read_text())
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert "%matplotlib widget" in code
    assert "np.random.seed" not in code and "np.random.rand" not in code, "use a seeded Generator"
    assert "default_rng()" not in code, "seed every Generator"

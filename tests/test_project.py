"""Project-level rules: packaging lists agree, layers stay apart, notebooks are stored right."""

import ast
import importlib
import importlib.util
import json
import pathlib
import re
import shutil
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


# -- layers (rules and the import reader: scripts/module_report.py; ARCHITECTURE.md) ------------
def _load_module_report():
    spec = importlib.util.spec_from_file_location("module_report", ROOT / "scripts" / "module_report.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


MR = _load_module_report()
MODULES = MR.modules()


@pytest.mark.parametrize("path", MODULES, ids=lambda p: MR.module_name(p))
def test_module_imports_only_from_its_own_layer_or_below(path):
    """Models import no views/widgets/exercises/matplotlib/ipywidgets/IPython; exercises import
    only models; views import no widgets/exercises/ipywidgets; nothing imports scikit-learn."""
    found = MR.violations(path.read_text(), MR.module_name(path), is_package=path.name == "__init__.py")
    assert not found, "\n".join(found)


def test_every_genviz_module_has_a_layer_and_exercises_sit_beside_views():
    layers = {MR.module_name(p): MR.layer_of(MR.module_name(p)) for p in MODULES}
    assert set(layers.values()) == set(MR.LAYERS)
    assert layers["genviz.exercises.gda"] == "exercises"
    assert layers["genviz.plots.knn"] == "view"
    assert layers["genviz._validation"] == layers["genviz.synthetic"] == "model"
    # exercises may use models, not drawing; views may not use exercises
    assert MR.violations("from genviz.gda import GDA", "genviz.exercises.gda") == []
    assert MR.violations("import matplotlib", "genviz.exercises.gda")
    assert MR.violations("from genviz.exercises import Exercise", "genviz.plots.gda")


# Planted upward imports: each must be caught, at its full module path.
PLANTED = [
    ("genviz.plots.knn", False, "from genviz.widgets._base import Explorer"),
    ("genviz.plots.knn", False, "from ..widgets import knn"),            # relative, to a package
    ("genviz.plots.knn", False, "from ..widgets.knn import knn_classification_explorer"),
    ("genviz.plots", True, "from .. import widgets"),                      # relative in __init__
    ("genviz.plots.gda", False, "import ipywidgets as widgets"),
    ("genviz.kde", False, "from genviz.plots import gda"),                 # submodule by name
    ("genviz.kde", False, "from genviz import plots"),
    ("genviz.kde", False, "from .plots.kde import KDEView"),
    ("genviz.kde", False, "import genviz.widgets.kde"),
    ("genviz.kde", False, "import matplotlib.pyplot as plt"),
    ("genviz.kde", False, "from matplotlib import pyplot"),
    ("genviz.kde", False, "def f():\n    from IPython.display import display\n"),  # in a function
    ("genviz._validation", False, "if True:\n    import ipywidgets\n"),
    ("genviz.gda", False, "from genviz.exercises.gda import gda_exercises"),
    ("genviz.exercises.knn", False, "from genviz.plots.knn import ProjectionView"),
    ("genviz.exercises.knn", False, "from ..widgets import exercises"),
    ("genviz.widgets.knn", False, "from sklearn.neighbors import KNeighborsClassifier"),
]


@pytest.mark.parametrize("module, is_package, source", PLANTED, ids=lambda v: str(v))
def test_a_planted_upward_import_is_caught(module, is_package, source):
    assert MR.violations(source, module, is_package=is_package), f"{source!r} in {module} passed"


def test_a_planted_upward_import_in_a_copy_of_the_package_fails_the_checker(tmp_path):
    """The whole pipeline (files -> module names -> rules) on a temporary copy with one bad line."""
    shutil.copytree(ROOT / "genviz", tmp_path / "genviz", ignore=shutil.ignore_patterns("data", "__pycache__"))
    target = tmp_path / "genviz" / "plots" / "knn.py"
    target.write_text(target.read_text() + "\nfrom ..widgets import knn as _upward  # planted\n")
    bad = [v for p in MR.modules(tmp_path / "genviz")
           for v in MR.violations(p.read_text(), MR.module_name(p, tmp_path),
                                  is_package=p.name == "__init__.py")]
    assert bad == [f"genviz.plots.knn (view) line {len(target.read_text().splitlines())} "
                   f"imports genviz.widgets.knn"]


def test_allowed_imports_are_not_flagged():
    assert MR.violations("from genviz.gaussian import mvn_pdf\nimport numpy", "genviz.plots.gaussian") == []
    assert MR.violations("from genviz.plots.knn import ProjectionView", "genviz.widgets.knn") == []
    assert MR.violations("from . import _validation", "genviz.kde") == []
    assert MR.violations("import matplotlib.pyplot", "genviz.plots._base") == []


def test_no_import_cycle_at_import_time():
    assert MR.cycles(MR.graph(top_level=True)) == []
    assert MR.cycles({"a": ["b"], "b": ["c"], "c": ["a"]}) == [["a", "b", "c", "a"]]


def test_import_genviz_loads_no_plotting_library():
    code = ("import sys, genviz, genviz.gaussian, genviz.knn, genviz.synthetic, genviz.text; "
            "print(sorted(m for m in ('matplotlib', 'ipywidgets', 'sklearn') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT)
    assert out.stdout.strip() == "[]"


# -- __all__ ---------------------------------------------------------------------------------
def _public_defs(tree):
    """Names of the public functions and classes a module defines at top level."""
    return {n.name for n in tree.body
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and not n.name.startswith("_")}


@pytest.mark.parametrize("path", MODULES, ids=lambda p: MR.module_name(p))
def test_all_lists_existing_public_names_and_every_public_def(path):
    """Rule: every module (private ones too) has a literal ``__all__``; every listed name exists
    and is public (no leading underscore; ``__version__`` allowed); every public function and
    class the module defines is listed. Public constants and re-exported names may be listed."""
    name = MR.module_name(path)
    tree = ast.parse(path.read_text())
    assigned = [n for n in tree.body if isinstance(n, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == "__all__" for t in n.targets)]
    assert len(assigned) == 1, f"{name} has no (or more than one) __all__ assignment"
    listed = list(ast.literal_eval(assigned[0].value))
    for node in tree.body:  # sections appended later may extend it: __all__ += [...]
        if isinstance(node, ast.AugAssign) and getattr(node.target, "id", None) == "__all__":
            listed += ast.literal_eval(node.value)
    assert len(listed) == len(set(listed)), f"{name}.__all__ lists a name twice"
    module = importlib.import_module(name)
    for item in listed:
        assert item == "__version__" or not item.startswith("_"), f"{name}.__all__ lists private {item}"
        assert hasattr(module, item), f"{name}.__all__ lists {item}, which does not exist"
    missing = _public_defs(tree) - set(listed)
    assert not missing, f"{name} defines public {sorted(missing)} but does not list them in __all__"


@pytest.mark.parametrize("path", sorted((ROOT / "genviz" / "widgets").glob("*.py")), ids=lambda p: p.name)
def test_readouts_use_the_one_formatter(path):
    """Readout HTML is built by genviz.widgets._base.readout_html, not spelled out per explorer."""
    if path.name == "_base.py":
        return
    assert "font-family:monospace" not in path.read_text(), \
        f"{path.name} spells out the readout style; build the readout with readout_html(...)"


MOVED = {  # old home -> names that moved out of it (issue 15); the old import must keep working
    "genviz.knn": ["random_projection", "jl_min_dim", "distance_ratios", "distortion_stats",
                   "projection_benchmark", "two_class_data", "regression_data",
                   "regression_truth", "flip_labels"],
    "genviz.text": ["stratified_split", "binary_metrics", "ThresholdCurves"],
    "genviz.synthetic": ["learning_curves", "crossing_size", "LearningCurves"],
}
NEW_HOME = {"random_projection": "genviz.projections", "jl_min_dim": "genviz.projections",
            "distance_ratios": "genviz.projections", "distortion_stats": "genviz.projections",
            "projection_benchmark": "genviz.projections", "two_class_data": "genviz.synthetic",
            "regression_data": "genviz.synthetic", "regression_truth": "genviz.synthetic",
            "flip_labels": "genviz.synthetic", "stratified_split": "genviz.model_selection",
            "binary_metrics": "genviz.model_selection", "ThresholdCurves": "genviz.model_selection",
            "learning_curves": "genviz.experiments", "crossing_size": "genviz.experiments",
            "LearningCurves": "genviz.experiments"}


@pytest.mark.parametrize("old", sorted(MOVED))
def test_moved_names_are_the_same_objects_at_their_old_home(old):
    module = importlib.import_module(old)
    for item in MOVED[old]:
        assert getattr(module, item) is getattr(importlib.import_module(NEW_HOME[item]), item), item
    with pytest.raises(AttributeError, match="no attribute"):
        getattr(module, "no_such_name")


def test_no_module_over_450_lines_unless_architecture_md_says_why():
    text = (ROOT / "ARCHITECTURE.md").read_text()
    section = text.split("\n## Large modules\n")[1].split("\n## ")[0]  # that section only
    for path in MODULES:
        n = len(path.read_text().splitlines())
        if n > 450:
            assert f"`{MR.module_name(path)}`" in section, \
                f"{MR.module_name(path)} has {n} lines; split it or say why in ARCHITECTURE.md"


def test_the_design_document_is_in_the_repository():
    """Every reference to a design document points at ARCHITECTURE.md, inside the repository."""
    assert (ROOT / "ARCHITECTURE.md").is_file()
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                             check=True).stdout.split()
    for rel in tracked:
        path = ROOT / rel
        if path.suffix not in {".py", ".md", ".toml", ".cfg", ".ipynb", ".yml", ".txt", ""} \
                or not path.is_file() or rel == "tests/test_project.py":
            continue
        text = path.read_text(errors="ignore")
        assert "DESIGN.md" not in text and "../shared" not in text, f"{rel} points outside the repo"


def test_pyproject_names_only_test_files_that_exist():
    text = (ROOT / "pyproject.toml").read_text()
    for ref in re.findall(r"tests/[\w/]+\.py", text):
        assert (ROOT / ref).is_file(), f"pyproject.toml names {ref}, which does not exist"


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


OLD_SHAPE_STYLES = [  # numpydoc: "ndarray of shape (n, d)", dtype after: ", dtype=int"
    re.compile(r"^\s+[\w*, ]+ : .*\b(ndarray|array_like|array),? shape \("),      # ndarray, shape (n,)
    re.compile(r"^\s+[\w*, ]+ : \((?:[^()]|\([^()]*\))*\) (ndarray|array_like|array)\b"),  # (n, d) array_like
    re.compile(r"^\s+[\w*, ]+ : .*\b(ndarray|array_like) \("),                    # ndarray (n, d)
    re.compile(r"^\s+[\w*, ]+ : .*\b(ndarray|array_like) of (int|bool|float),? (shape )?\("),
    re.compile(r"^\s+\w+, \w+[^:]* \(\w+,\)"),                                   # a, b (K,) in one entry
]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: MR.module_name(p))
def test_docstrings_write_shapes_one_way(path):
    bad = [f"{MR.module_name(path)}:{i}: {line.strip()}"
           for i, line in enumerate(path.read_text().splitlines(), 1)
           if any(p.search(line) for p in OLD_SHAPE_STYLES)]
    assert not bad, "write 'ndarray of shape (n, d)' (dtype after: ', dtype=int'):\n" + "\n".join(bad)


def test_the_shape_style_check_can_fail():
    for line in ["    X : array_like, shape (n, 2)", "    cov : (d, d) array_like",
                 "    dist : ndarray (m, k)", "    ind : ndarray of int, shape (m, k)",
                 "    classes_, class_count_ (K,), class_log_prior_ (K,)"]:
        assert any(p.search(line) for p in OLD_SHAPE_STYLES), line
    assert not any(p.search("    X : array_like of shape (n_samples, n_features)") for p in OLD_SHAPE_STYLES)

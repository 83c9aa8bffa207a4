"""Project-level rules: packaging lists agree, layers stay apart, notebooks are stored right."""

import ast
import difflib
import functools
import importlib
import importlib.util
import json
import os
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
    assert layers["genviz.studies.kde"] == layers["genviz.studies"] == "study"
    # exercises may use models, not drawing; views may not use exercises
    assert MR.violations("from genviz.gda import GDA", "genviz.exercises.gda") == []
    assert MR.violations("import matplotlib", "genviz.exercises.gda")
    assert MR.violations("from genviz.exercises import Exercise", "genviz.plots.gda")
    # studies sit above the models; views reach no model, only the studies' results
    assert MR.violations("from genviz.gda import GDA", "genviz.studies.gda") == []
    assert MR.violations("from genviz.studies.gda import GDAFitStudy", "genviz.gda")
    assert MR.violations("from genviz.gda import GDA", "genviz.plots.gda")
    assert MR.violations("from genviz.studies.gda import GDAFitResult", "genviz.plots.gda") == []


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
    # a view reaching a model module, or scipy; a model reaching up to a study
    ("genviz.plots.kde", False, "from genviz.kde import kde_pdf"),
    ("genviz.plots.kde", False, "from genviz import kde"),
    ("genviz.plots.kde", False, "from .. import kde"),
    ("genviz.plots.kde", False, "import scipy.stats"),
    ("genviz.plots.spam", False, "from scipy.special import expit"),
    ("genviz.gda", False, "from genviz.studies.gda import GDAFitStudy"),
    ("genviz.kde", False, "from .studies import kde"),
    ("genviz.studies.kde", False, "import matplotlib.pyplot as plt"),
    ("genviz.studies.kde", False, "from genviz.plots.kde import KDEView"),
    ("genviz.exercises.knn", False, "from ..widgets import exercises"),
    ("genviz.widgets.knn", False, "from sklearn.neighbors import KNeighborsClassifier"),
    # dynamic imports named by a string literal
    ("genviz.kde", False, "import importlib\nplt = importlib.import_module('matplotlib.pyplot')"),
    ("genviz.kde", False, "from importlib import import_module\nimport_module('matplotlib')"),
    ("genviz.kde", False, "plt = __import__('matplotlib.pyplot')"),
    ("genviz.kde", False, "import builtins\nbuiltins.__import__('IPython')"),
    ("genviz.kde", False, "import importlib.util\n"
                          "spec = importlib.util.find_spec('matplotlib')\n"
                          "mod = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(mod)"),
    ("genviz.kde", False, "import pkgutil\npkgutil.resolve_name('matplotlib.pyplot:figure')"),
    ("genviz.kde", False, "import importlib\nimportlib.import_module('.plots', 'genviz')"),
    ("genviz.gda", False, "def f():\n    return __import__('genviz.widgets')"),
    ("genviz.plots.knn", False, "import importlib\nimportlib.import_module('..widgets.knn', __package__)"),
    # plotting and UI libraries other than matplotlib's own modules
    *[("genviz.kde", False, f"import {lib}") for lib in [
        "pylab", "ipympl", "seaborn", "plotly.express", "bokeh.plotting", "PIL.Image",
        "mpl_toolkits.mplot3d", "ipywidgets", "IPython", "ipykernel", "altair", "tkinter",
        "traitlets", "sklearn", "anywidget"]],
    ("genviz.exercises.kde", False, "import seaborn as sns"),
    ("genviz.exercises.kde", False, "from IPython.display import HTML"),
    ("genviz.plots.kde", False, "import pylab"),
    ("genviz.plots.kde", False, "import seaborn"),
    ("genviz.plots.kde", False, "import plotly.graph_objects as go"),
    ("genviz.plots.kde", False, "import ipympl"),
    ("genviz.plots._base", False, "import anywidget"),
    ("genviz.plots.kde", False, "from IPython.display import Javascript\nimport IPython.core"),
]


@pytest.mark.parametrize("module, is_package, source", PLANTED, ids=lambda v: str(v))
def test_a_planted_upward_import_is_caught(module, is_package, source):
    assert MR.violations(source, module, is_package=is_package), f"{source!r} in {module} passed"


def _copy_package(tmp_path):
    shutil.copytree(ROOT / "genviz", tmp_path / "genviz",
                    ignore=shutil.ignore_patterns("data", "__pycache__"))
    return tmp_path / "genviz"


@functools.lru_cache(maxsize=None)
def _file_violations(source: str, module: str, is_package: bool) -> tuple:
    """``MR.violations`` depends only on a file's text and name: the files a planted hole left
    unchanged are read once for all the copies below, not once per copy (the planted file,
    whose text differs, is read anew)."""
    return tuple(MR.violations(source, module, is_package=is_package))


def _checker_on(package):
    """What the layer test reports for a package at ``package`` (the whole pipeline: files ->
    module names -> rules)."""
    return [v for p in MR.modules(package)
            for v in _file_violations(p.read_text(), MR.module_name(p, package.parent),
                                      p.name == "__init__.py")]


def test_a_planted_upward_import_in_a_copy_of_the_package_fails_the_checker(tmp_path):
    package = _copy_package(tmp_path)
    target = package / "plots" / "knn.py"
    target.write_text(target.read_text() + "\nfrom ..widgets import knn as _upward  # planted\n")
    assert _checker_on(package) == [f"genviz.plots.knn (view) line "
                                    f"{len(target.read_text().splitlines())} imports genviz.widgets.knn"]


PLANTED_IN_A_COPY = {  # file -> line appended; each must make the checker fail on that file
    "joint.py": "import importlib\n_plt = importlib.import_module('matplotlib')",
    "gda.py": "_mpl = __import__('matplotlib')",
    "kde.py": "import importlib.util\n_spec = importlib.util.find_spec('seaborn')",
    "logistic.py": "import pylab",
    "grids.py": "def _f():\n    import ipympl",
    "naive_bayes/text.py": "import plotly.express",
    "exercises/joint.py": "from IPython.display import display",
    "plots/gaussian.py": "import bokeh.plotting",
    "plots/kde.py": "from genviz.kde import kde_pdf as _kde_pdf",
    "studies/joint.py": "import matplotlib",
    "knn.py": "from genviz.studies.knn import LabelNoise as _up",
}


@pytest.mark.parametrize("rel, line", PLANTED_IN_A_COPY.items(), ids=list(PLANTED_IN_A_COPY))
def test_each_kind_of_hole_planted_in_a_copy_fails_the_checker(tmp_path, rel, line):
    package = _copy_package(tmp_path)
    assert _checker_on(package) == []
    target = package / rel
    target.write_text(target.read_text() + "\n" + line + "\n")
    name = MR.module_name(target, tmp_path)
    found = _checker_on(package)
    assert found and all(v.startswith(f"{name} (") for v in found), found


def test_allowed_imports_are_not_flagged():
    assert MR.violations("from genviz.studies.gaussian import GaussianResult\nimport numpy",
                         "genviz.plots.gaussian") == []
    assert MR.violations("from genviz._moved import moved_names", "genviz.plots.gda") == []
    assert MR.violations("from genviz.gaussian import mvn_pdf\nimport scipy.linalg",
                         "genviz.studies.gaussian") == []
    assert MR.violations("from genviz.plots.knn import ProjectionView", "genviz.widgets.knn") == []
    assert MR.violations("from . import _validation", "genviz.kde") == []
    assert MR.violations("import matplotlib.pyplot", "genviz.plots._base") == []
    assert MR.violations("from IPython.display import display", "genviz.plots._base") == []
    assert MR.violations("import ipywidgets\nimport ipympl\nfrom PIL import Image", "genviz.widgets.kde") == []
    assert MR.violations("import anywidget", "genviz.widgets._base") == []
    assert MR.violations("import json, html, concurrent.futures\nfrom scipy.special import expit",
                         "genviz.kde") == []
    assert MR.violations("import importlib\nimportlib.import_module('genviz.kde')", "genviz.knn") == []


# -- what a model module loads when imported (a fresh interpreter, every model module) ----------
#: libraries that draw or bind to a front end: none may be loaded by importing the model layer
PLOTTING_AND_UI = ("matplotlib", "mpl_toolkits", "pylab", "PIL", "ipympl", "ipywidgets", "IPython",
                   "ipykernel", "traitlets", "comm", "seaborn", "plotly", "bokeh", "altair",
                   "holoviews", "panel", "tkinter", "turtle", "sklearn", "anywidget",
                   "genviz.plots", "genviz.widgets")


def _loaded_by_importing(names, root=ROOT) -> list:
    """Which of PLOTTING_AND_UI (and genviz.exercises) are in ``sys.modules`` after a fresh
    interpreter imports ``names`` from the genviz package under ``root``."""
    code = ("import importlib, sys\n"
            f"for name in {list(names)!r}:\n    importlib.import_module(name)\n"
            f"watch = {PLOTTING_AND_UI + ('genviz.exercises',)!r}\n"
            "print(sorted(w for w in watch if any(m == w or m.startswith(w + '.') "
            "for m in sys.modules)))")
    env = {**os.environ, "PYTHONPATH": str(root), "MPLBACKEND": "Agg"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=root, env=env)
    return ast.literal_eval(out.stdout.strip().splitlines()[-1])


def _layer_modules(layer, package=ROOT / "genviz"):
    return [MR.module_name(p, package.parent) for p in MR.modules(package)
            if MR.layer_of(MR.module_name(p, package.parent)) == layer]


def test_importing_every_model_module_loads_no_plotting_or_ui_library():
    models = _layer_modules("model") + _layer_modules("study")
    assert len(models) >= 40 and "genviz" in models and "genviz.naive_bayes.text" in models
    assert "genviz.studies.kde_bandwidth" in models
    assert _loaded_by_importing(models) == []


def test_importing_every_exercises_module_loads_nothing_that_draws_or_binds():
    exercises = _layer_modules("exercises")
    assert len(exercises) >= 8
    assert _loaded_by_importing(exercises) == ["genviz.exercises"]


def test_the_run_time_check_fails_on_a_copy_that_loads_matplotlib_by_a_computed_name(tmp_path):
    """An import no reader can see (the name is computed) is still caught at run time, in any
    model module: the check imports every one, discovered from the files."""
    package = _copy_package(tmp_path)
    target = package / "naive_bayes" / "evaluation.py"   # a module no one else imports
    target.write_text(target.read_text() + "\nimport importlib\n"
                      "_p = importlib.import_module('matplot' + 'lib.pyplot')\n")
    assert _checker_on(package) == []              # invisible to the reader...
    loaded = _loaded_by_importing(_layer_modules("model", package), tmp_path)
    assert "matplotlib" in loaded                  # ...not to the run-time check


# -- imports inside functions: each one listed with its reason ---------------------------------
#: the allowed reasons (ARCHITECTURE.md, "Layers"); every other import is at module level
IMPORT_CATEGORIES = {
    "lazy attribute": "keeps `import genviz` free of numpy (target: import genviz <= 0.3 s)",
    "heavy dependency": "a dependency costing over 0.1 s to import that only this function needs",
    "deprecated alias": "resolves a moved name at its old home only when the old name is used",
}
_SOURCE_LAZY = ("lazy attribute", "genviz.__version__/__source__ read the distribution's "
                                  "metadata (~80 ms) on first use only")
#: (module, function, imported module) -> (category, why)
FUNCTION_LEVEL_IMPORTS = {
    ("genviz", "__getattr__", "genviz._validation.NotFittedError"):
        ("lazy attribute", "genviz.NotFittedError without loading numpy"),
    ("genviz", "_source", "importlib.metadata"): _SOURCE_LAZY,
    ("genviz", "_source", "json"): _SOURCE_LAZY,
    ("genviz", "_source", "pathlib"): _SOURCE_LAZY,
    ("genviz", "_source", "urllib.parse"): _SOURCE_LAZY,
    ("genviz._kde_sweep", "select", "scipy.optimize.minimize_scalar"):
        ("heavy dependency", "scipy.optimize takes ~0.35 s to import; only the bandwidth search uses it"),
    ("genviz._moved", "moved_names.__getattr__", "<computed>"):
        ("deprecated alias", "the moved name's new home, named by the old module's table"),
}


def _function_level_imports(package=ROOT / "genviz"):
    return {(MR.module_name(p, package.parent), fn, imp)
            for p in MR.modules(package)
            for fn, imp in MR.function_level_imports(p.read_text(), MR.module_name(p, package.parent),
                                                     is_package=p.name == "__init__.py")}


def test_every_import_inside_a_function_is_listed_with_its_reason():
    found = _function_level_imports()
    unlisted = sorted(found - set(FUNCTION_LEVEL_IMPORTS))
    assert not unlisted, "imports inside functions without a listed reason:\n" + "\n".join(
        f"  {m}: {fn}() imports {imp}" for m, fn, imp in unlisted) + (
        "\nmove each to module level, or add it to FUNCTION_LEVEL_IMPORTS in tests/test_project.py "
        f"with one of the categories {sorted(IMPORT_CATEGORIES)} (ARCHITECTURE.md, 'Layers')")
    stale = sorted(set(FUNCTION_LEVEL_IMPORTS) - found)
    assert not stale, f"FUNCTION_LEVEL_IMPORTS lists imports that no longer exist: {stale}"
    for key, (category, why) in FUNCTION_LEVEL_IMPORTS.items():
        assert category in IMPORT_CATEGORIES and why, key
    doc = (ROOT / "ARCHITECTURE.md").read_text().split("\n## Layers\n")[1].split("\n## ")[0]
    for category in IMPORT_CATEGORIES:
        assert category in doc, f"ARCHITECTURE.md 'Layers' does not describe {category!r}"


def test_an_unlisted_import_inside_a_function_planted_in_a_copy_is_found(tmp_path):
    package = _copy_package(tmp_path)
    target = package / "gaussian.py"
    target.write_text(target.read_text() + "\n\ndef _planted():\n    import json\n    return json\n")
    assert _function_level_imports(package) - set(FUNCTION_LEVEL_IMPORTS) == {
        ("genviz.gaussian", "_planted", "json")}


# -- import cycles -----------------------------------------------------------------------------
def _cycles(package=ROOT / "genviz"):
    paths = MR.modules(package)
    return {top_level: MR.cycles(MR.graph(paths, top_level=top_level, root=package.parent))
            for top_level in (True, False)}


def test_no_import_cycle_inside_genviz():
    """Neither among the imports that run at import time nor among all imports (a function-level
    import that closes a circle is a cycle waiting for someone to move it to the top)."""
    assert _cycles() == {True: [], False: []}
    assert MR.cycles({"a": ["b"], "b": ["c"], "c": ["a"]}) == [["a", "b", "c", "a"]]


@pytest.mark.parametrize("rel, line, top_level_too", [
    ("_validation.py", "from genviz import knn as _circle", True),          # knn imports _validation
    ("gaussian.py", "from .gda import GDA as _circle", True),                # relative: gda imports gaussian
    ("_kde_sweep.py", "def _f():\n    from genviz.kde import kde_pdf", False),  # only inside a function
])
def test_a_cycle_planted_in_a_copy_is_found(tmp_path, rel, line, top_level_too):
    package = _copy_package(tmp_path)
    target = package / rel
    target.write_text(target.read_text() + "\n" + line + "\n")
    found = _cycles(package)
    assert found[False], "the cycle among all imports was not found"
    assert bool(found[True]) == top_level_too


def test_knn_sits_below_the_data_generators_gda_and_projections():
    """k-NN is a basic estimator: importing it must not pull in the data generators, GDA, the
    experiments or the projections (which use k-NN)."""
    g = MR.graph(top_level=False)
    reach, todo = set(), ["genviz.knn"]
    while todo:
        for nxt in g[todo.pop()]:
            if nxt not in reach:
                reach.add(nxt)
                todo.append(nxt)
    # only the private infrastructure every estimator shares (validation, the estimator base,
    # the moved-names lookup): no data generator, GDA, experiment or projection
    assert reach and all(name.startswith("genviz._") for name in reach), reach
    assert not reach & {"genviz.synthetic", "genviz.gda", "genviz.experiments",
                        "genviz.projections", "genviz.gaussian"}
    assert "genviz.knn" in g["genviz.projections"]


# -- the module table in ARCHITECTURE.md -------------------------------------------------------
def test_the_module_table_in_architecture_md_is_fresh():
    documented, generated = MR.documented_report(), MR.report()
    if documented != generated:
        diff = "\n".join(difflib.unified_diff(documented.splitlines(), generated.splitlines(),
                                              "ARCHITECTURE.md", "generated", lineterm="", n=0))
        pytest.fail("the module table in ARCHITECTURE.md is stale: run "
                    "`python scripts/module_report.py --write` (ARCHITECTURE.md, 'How to add a "
                    "topic', step 8)\n" + diff)


def test_the_freshness_check_fails_on_a_stale_table(tmp_path):
    doc = tmp_path / "ARCHITECTURE.md"
    text = (ROOT / "ARCHITECTURE.md").read_text()
    doc.write_text(text.replace("| `genviz.kde` | model |", "| `genviz.kde` | model | 1 |", 1))
    assert MR.documented_report(doc) != MR.report()
    assert MR.documented_report(ROOT / "ARCHITECTURE.md") in text


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


_NB08 = "genviz.studies.naive_bayes_experiments"
_CURVES = "genviz.studies.gda_vs_logistic_curves"
MOVED = {  # old home -> names that moved out of it (issues 15, 32); deprecated aliases (issue 20)
    "genviz.knn": ["random_projection", "jl_min_dim", "distance_ratios", "distortion_stats",
                   "projection_benchmark", "two_class_data", "regression_data",
                   "regression_truth", "flip_labels"],
    "genviz.text": ["stratified_split", "binary_metrics", "ThresholdCurves"],
    "genviz.synthetic": ["learning_curves", "crossing_size", "LearningCurves"],
    # issue 32: the studies in one place, genviz.studies
    "genviz.experiments": ["LearningCurves", "learning_curves", "crossing_size", "NBvsGDA",
                           "nb_vs_gda", "bin_edges", "data_window", "Discretization",
                           "discretization"],
    "genviz.gda_studies": ["GDAFit", "fit_gda_sample", "GDACovarianceFit", "gda_covariance_fits",
                           "PosteriorTwoWays", "posterior_two_ways", "GDAvsLogisticTrial",
                           "gda_vs_logistic_trial"],
    "genviz.samplers": ["LabelNoise", "GDASample", "GDAFitSampler", "GaussianSample",
                        "gaussian_sample", "random_order"],
    "genviz.bandwidth_study": ["BandwidthSweeps", "BandwidthAt", "BandwidthStudy"],
    "genviz.naive_bayes.studies": ["FitPath", "KDEvsGaussianNB", "TEXT_MODELS", "ThresholdFit",
                                   "ThresholdStudy"],
    "genviz.naive_bayes": ["FitPath", "KDEvsGaussianNB", "ThresholdStudy"],
    "genviz.plots.gda": ["line_in_box"],
}
NEW_HOME = {"random_projection": "genviz.projections", "jl_min_dim": "genviz.projections",
            "distance_ratios": "genviz.projections", "distortion_stats": "genviz.projections",
            "projection_benchmark": "genviz.projections", "two_class_data": "genviz.synthetic",
            "regression_data": "genviz.synthetic", "regression_truth": "genviz.synthetic",
            "flip_labels": "genviz.synthetic", "stratified_split": "genviz.model_selection",
            "binary_metrics": "genviz.model_selection", "ThresholdCurves": "genviz.model_selection",
            "learning_curves": _CURVES, "crossing_size": _CURVES, "LearningCurves": _CURVES,
            "NBvsGDA": _NB08, "nb_vs_gda": _NB08, "bin_edges": _NB08, "data_window": _NB08,
            "Discretization": _NB08, "discretization": _NB08, "FitPath": _NB08,
            "KDEvsGaussianNB": _NB08,
            **dict.fromkeys(["GDAFit", "fit_gda_sample", "GDACovarianceFit",
                             "gda_covariance_fits", "PosteriorTwoWays", "posterior_two_ways",
                             "GDASample", "GDAFitSampler", "line_in_box"],
                            "genviz.studies.gda_fits"),
            "GDAvsLogisticTrial": "genviz.studies.gda_vs_logistic",
            "gda_vs_logistic_trial": "genviz.studies.gda_vs_logistic",
            "LabelNoise": "genviz.studies.knn", "GaussianSample": "genviz.studies.gaussian",
            "gaussian_sample": "genviz.studies.gaussian", "random_order": "genviz.studies.joint",
            "BandwidthSweeps": "genviz.studies.kde_bandwidth",
            "BandwidthAt": "genviz.studies.kde_bandwidth",
            "BandwidthStudy": "genviz.studies.kde_bandwidth",
            "TEXT_MODELS": "genviz.studies.spam", "ThresholdFit": "genviz.studies.spam",
            "ThresholdStudy": "genviz.studies.spam"}


@pytest.mark.parametrize("old", sorted(MOVED))
def test_moved_names_still_resolve_at_their_old_home_with_a_deprecation_warning(old):
    module = importlib.import_module(old)
    assert module.__getattr__.moved == {n: NEW_HOME[n] for n in MOVED[old]}
    for item in MOVED[old]:
        assert item not in module.__all__ and item not in vars(module), item
        with pytest.warns(DeprecationWarning, match=rf"{old}\.{item} moved to {NEW_HOME[item]}"):
            value = getattr(module, item)
        assert value is getattr(importlib.import_module(NEW_HOME[item]), item), item
    with pytest.raises(AttributeError, match="no attribute"):
        getattr(module, "no_such_name")


def test_every_deprecated_alias_is_in_the_one_registry_with_its_removal_version():
    """genviz._moved.MOVED lists every alias (the same as this file's independent list), and
    every warning names the one release that removes them all (genviz._moved.REMOVED_IN)."""
    from genviz import _moved

    assert {old: sorted(names) for old, names in _moved.MOVED.items()} == \
        {old: sorted(names) for old, names in MOVED.items()}
    assert re.fullmatch(r"\d+\.\d+\.\d+", _moved.REMOVED_IN)
    import genviz.knn
    with pytest.warns(DeprecationWarning, match=rf"removed in genviz {_moved.REMOVED_IN}\)$"):
        genviz.knn.flip_labels
    with pytest.raises(KeyError):
        _moved.moved_names("genviz.not_a_moved_home")


def test_the_emptied_modules_hold_only_their_deprecated_aliases():
    """The old homes of the studies (issue 32) still import, and hold nothing but the lookup of
    their moved names (a student's old notebook imports them)."""
    import genviz.bandwidth_study
    import genviz.experiments
    import genviz.gda_studies
    import genviz.naive_bayes.studies
    import genviz.samplers

    for module in (genviz.bandwidth_study, genviz.experiments, genviz.gda_studies,
                   genviz.naive_bayes.studies, genviz.samplers):
        assert module.__name__ in EMPTIED and module.__all__ == []
        public = {k for k in vars(module) if not k.startswith("__")}
        assert public == {"moved_names"}, public
        assert set(module.__getattr__.moved) == set(MOVED[module.__name__])


def test_a_moved_name_imported_the_old_way_warns_in_a_fresh_interpreter():
    """``from genviz.knn import two_class_data`` (a student's old notebook) works and warns; the
    old module never imports the new home by itself."""
    code = ("import sys, warnings\nimport genviz.knn\n"
            "assert 'genviz.synthetic' not in sys.modules and 'genviz.projections' not in sys.modules\n"
            "with warnings.catch_warnings(record=True) as w:\n"
            "    warnings.simplefilter('always')\n"
            "    from genviz.knn import two_class_data\n"
            "print(two_class_data.__module__, w[0].category.__name__, w[0].filename)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.stdout.split() == ["genviz.synthetic", "DeprecationWarning", "<string>"]


#: modules that are nothing but deprecated aliases now: any use of them is an old spelling
EMPTIED = ("genviz.experiments", "genviz.gda_studies", "genviz.samplers", "genviz.bandwidth_study",
           "genviz.naive_bayes.studies")


def _old_spellings(source: str) -> list:
    """``from genviz.knn import two_class_data`` and doctest lines alike, in any text; any
    import of a module that only holds deprecated aliases."""
    found = []
    homes = "|".join(re.escape(m) for m in sorted(MOVED, key=len, reverse=True))
    for m in re.finditer(rf"from\s+({homes})\s+import\s+\(?([\w\s,\\]+)", source):
        names = {n.strip() for n in re.split(r"[,\s\\]+", m.group(2)) if n.strip()}
        found += [f"{m.group(1)}.{n}" for n in sorted(names & set(MOVED[m.group(1)]))]
    found += [f"{mod}.{n}" for mod, names in MOVED.items() for n in names
              if re.search(rf"\b{re.escape(mod)}\.{n}\b", source)]
    for mod in EMPTIED:
        parent, _, leaf = mod.rpartition(".")
        if re.search(rf"\bimport\s+{re.escape(mod)}\b|\bfrom\s+{re.escape(parent)}\s+import\s+"
                     rf"(\([^)]*\b{leaf}\b|[^\n]*\b{leaf}\b)", source):
            found.append(mod)
    return sorted(set(found))


def test_nothing_in_the_repository_uses_a_moved_name_by_its_old_home():
    """Notebooks, tests, benchmarks, scripts and genviz import each name from the module that
    owns it (the deprecated aliases are for students' old copies only)."""
    tracked = subprocess.run(["git", "ls-files", "*.py", "*.ipynb", "*.md"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout.split()
    bad = {}
    for rel in tracked:
        if rel in ("tests/test_project.py", "genviz/_moved.py", "ARCHITECTURE.md") or \
                rel in {m.replace(".", "/") + ".py" for m in EMPTIED}:
            continue
        text = (ROOT / rel).read_text()
        if rel.endswith(".ipynb"):
            text = "\n".join("".join(c["source"]) for c in json.loads(text)["cells"])
        if found := _old_spellings(text):
            bad[rel] = found
    assert not bad, f"import these names from their new home ({NEW_HOME}): {bad}"
    assert _old_spellings("from genviz.knn import (KNNClassifier,\n    two_class_data)") == [
        "genviz.knn.two_class_data"]
    assert _old_spellings("    >>> from genviz.text import binary_metrics") == [
        "genviz.text.binary_metrics"]
    assert _old_spellings("from genviz.knn import KNNClassifier") == []
    assert _old_spellings("from genviz.experiments import nb_vs_gda") == [
        "genviz.experiments.nb_vs_gda"]
    assert _old_spellings("import genviz.samplers as s") == ["genviz.samplers"]
    assert _old_spellings("from genviz.naive_bayes import studies") == ["genviz.naive_bayes.studies"]
    assert _old_spellings("from genviz.naive_bayes import GaussianNB, ThresholdStudy") == [
        "genviz.naive_bayes.ThresholdStudy"]


def test_no_module_over_450_lines_unless_architecture_md_says_why():
    text = (ROOT / "ARCHITECTURE.md").read_text()
    section = text.split("\n## Large modules\n")[1].split("\n## ")[0]  # that section only
    for path in MODULES:
        n = len(path.read_text().splitlines())
        if n > 450:
            assert f"`{MR.module_name(path)}`" in section, \
                f"{MR.module_name(path)} has {n} lines; split it or say why in ARCHITECTURE.md"


def _unassigned(notebooks, assignments, ungraded=()) -> list:
    return sorted(nb.name for nb in notebooks if not nb.name.startswith("00_")
                  and nb.name not in {a.notebook for a in assignments} | set(ungraded))


def test_every_topic_notebook_has_a_graded_assignment():
    """ARCHITECTURE.md, 'How to add a topic': a topic notebook's data and exercise calls are
    an nbgrader assignment in course/assignments.py."""
    sys.path.insert(0, str(ROOT))
    from course.assignments import ASSIGNMENTS, UNGRADED

    missing = _unassigned(NOTEBOOKS, ASSIGNMENTS.values(), UNGRADED)
    assert not missing, (f"no assignment in course/assignments.py for {missing} (ARCHITECTURE.md, "
                         f"'How to add a topic', step 5; or declare it ungraded= with the reason "
                         f"in genviz/topics.py)")
    planted = [*NOTEBOOKS, ROOT / "notebooks" / "11_new_topic.ipynb"]
    assert _unassigned(planted, ASSIGNMENTS.values(), UNGRADED) == ["11_new_topic.ipynb"]
    # the reasons (at least 12 words) are checked on the declarations: tests/test_topics.py
    assert all((ROOT / "notebooks" / name).is_file() for name in UNGRADED), UNGRADED


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

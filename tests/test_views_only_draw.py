"""Views only draw (ARCHITECTURE.md, "Layers"): no module under ``genviz/plots`` fits a model,
draws random numbers or does linear algebra; it calls the model layer for every number it shows.

The check reads each module with ``ast`` (no import), so it also sees code that a test never
runs. It is deliberately syntactic: a call ``.fit(...)``; any ``np.random`` / ``default_rng`` /
``rng.<method>`` / ``sample_*`` / ``flip_labels`` / ``random_projection`` use; ``np.linalg``,
``scipy.linalg``, ``cholesky``, ``eigh``, ``inv``, ``solve``, ``np.cov``, ``np.corrcoef``; the
matrix-product operator ``@``. What a view may still do is its drawing arithmetic (coordinates,
clipping, histogram bins of scores the model computed, reshaping a grid for ``imshow``).

Planted code (and the views as they were at 7aacf35) shows the check fails.
"""

from __future__ import annotations

import ast
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PLOTS = sorted((ROOT / "genviz" / "plots").glob("*.py"))
#: widgets only bind and format: the same rule holds for them
WIDGETS = sorted((ROOT / "genviz" / "widgets").glob("*.py"))

#: attribute or function names whose call (or mention) means the view computes a model result
LINALG = {"linalg", "cholesky", "eigh", "eig", "eigvals", "eigvalsh", "inv", "pinv", "solve",
          "lstsq", "svd", "qr", "det", "slogdet", "cov", "corrcoef", "matmul", "dot", "einsum",
          "tensordot", "cho_factor", "cho_solve"}
RANDOM = {"random", "default_rng", "RandomState", "Generator", "standard_normal", "normal",
          "uniform", "integers", "permutation", "shuffle", "choice", "multivariate_normal",
          "binomial", "poisson", "flip_labels", "random_projection", "check_rng"}
FIT = {"fit", "fit_transform", "fit_predict", "partial_fit"}


def _called_name(call: ast.Call) -> str:
    f = call.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def violations(source: str, filename: str = "<string>") -> list[str]:
    """Every place in ``source`` that fits, samples or does linear algebra (``file:line what``)."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        where = f"{filename}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            found.append(f"{where} matrix product '@'")
        elif isinstance(node, ast.Call):
            name = _called_name(node)
            if name in FIT:
                found.append(f"{where} .{name}( (fits a model)")
            elif name in LINALG:
                found.append(f"{where} {name}( (linear algebra)")
            elif name in RANDOM or name.startswith("sample"):
                found.append(f"{where} {name}( (random numbers)")
        elif (isinstance(node, ast.Attribute) and node.attr in ("linalg", "random")
              and isinstance(node.value, ast.Name) and node.value.id in ("np", "numpy", "scipy")):
            found.append(f"{where} {node.value.id}.{node.attr} "
                         f"({'linear algebra' if node.attr == 'linalg' else 'random numbers'})")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            mod = getattr(node, "module", None) or ""
            names = [a.name for a in node.names]
            if "linalg" in mod or mod.startswith("numpy.random") or any(
                    "linalg" in n or n.startswith("numpy.random") for n in names):
                found.append(f"{where} imports linear algebra or random numbers")
            for name in names:
                if name in LINALG or name in RANDOM or name.startswith("sample_"):
                    found.append(f"{where} imports {name}")
    return found


@pytest.mark.parametrize("path", PLOTS + WIDGETS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_view_module_only_draws(path):
    found = violations(path.read_text(), f"genviz/{path.parent.name}/{path.name}")
    assert not found, ("a view computes what the model layer should (ARCHITECTURE.md, "
                       "'Views only draw'):\n" + "\n".join(found))


@pytest.mark.parametrize("planted, kind", [
    ("model = GDA().fit(X, y)", "fits"),
    ("Z = rng.standard_normal((n, 2))", "random"),
    ("rng = np.random.default_rng(0)", "random"),
    ("X = sample_claw(100, 0)", "random"),
    ("L = np.linalg.cholesky(cov)", "linear algebra"),
    ("from scipy.linalg import cho_factor", "linear algebra"),
    ("C = np.cov(X, rowvar=False)", "linear algebra"),
    ("s = X @ theta", "'@'"),
    ("w = eigh(S)", "linear algebra"),
    ("X, y = model.sample(n, self.rng)", "random"),
    ("y = flip_labels(y, 0.1, 2, rng=0)", "random"),
])
def test_the_check_catches_planted_computation(planted, kind):
    found = violations(f"def update(self):\n    {planted}\n")
    assert found and kind in found[0], found


def test_drawing_arithmetic_passes():
    ok = ("import numpy as np\n"
          "def update(self, r):\n"
          "    x = self.cx + r * np.cos(self.theta)\n"
          "    counts, _ = np.histogram(self.scores, self.edges)\n"
          "    self.line.set_data(x, np.clip(counts, 0, 5) / max(counts.max(), 1))\n")
    assert violations(ok) == []


@pytest.mark.parametrize("name", ["gda.py", "kde.py", "spam.py", "gaussian.py", "knn.py"])
def test_the_check_fails_on_the_views_before_the_model_layer_took_their_studies(name):
    """At 7aacf35 these views fitted, sampled or factorised themselves."""
    try:
        old = subprocess.run(["git", "show", f"7aacf35:genviz/plots/{name}"], cwd=ROOT,
                             capture_output=True, text=True, check=True).stdout
    except (subprocess.CalledProcessError, FileNotFoundError):  # pragma: no cover
        pytest.skip("the git history is not available")
    assert violations(old, name)

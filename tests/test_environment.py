"""The project's Python environments start without jsonschema's IRI parsers (etc/python/README.md).

``etc/python/genviz-skip-iri-parsers.pth`` is copied into site-packages by ``make`` and by
``postBuild`` (Binder, TLJH, the Z2JH image). The oracle is a fresh interpreter of this
environment: what it imports, and what ``nbformat``/``jsonschema`` still refuse.
"""

import json
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PTH = ROOT / "etc" / "python" / "genviz-skip-iri-parsers.pth"

PROBE = """
import json, sys
import nbformat, jsonschema
nb = nbformat.v4.new_notebook()
nbformat.validate(nb)
bad = dict(nb, cells=[{"cell_type": "code", "source": "x", "metadata": {}}])
try:
    nbformat.validate(nbformat.from_dict(bad))
    refused = False
except nbformat.ValidationError:
    refused = True
checker = jsonschema.FormatChecker()
print(json.dumps({
    "parsers": sys.modules.get("rfc3987_syntax") is not None,
    "refused": refused,
    "email": checker.conforms("not an address", "email"),
    "iri_checked": "iri" in checker.checkers,
}))
"""


def _probe(*pre: str) -> dict:
    out = subprocess.run([sys.executable, "-c", "\n".join(pre) + PROBE], capture_output=True,
                         text=True, cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def _installed() -> bool:
    import sysconfig

    return (pathlib.Path(sysconfig.get_paths()["purelib"]) / PTH.name).exists()


def test_the_line_is_what_the_makefile_and_post_build_install():
    line = PTH.read_text().strip().splitlines()
    assert len(line) == 1 and line[0].startswith("import sys; sys.modules.setdefault(")
    assert "etc/python/genviz-skip-iri-parsers.pth" in (ROOT / "Makefile").read_text()
    assert "etc/python/genviz-skip-iri-parsers.pth" in (ROOT / "postBuild").read_text()


@pytest.mark.skipif(not _installed(), reason="this environment was not set up by `make` "
                    "(run `make test`, or copy etc/python/genviz-skip-iri-parsers.pth)")
def test_a_fresh_interpreter_skips_the_iri_parsers_and_nbformat_still_validates():
    seen = _probe()
    assert seen == {"parsers": False, "refused": True, "email": False, "iri_checked": False}


def test_without_the_line_the_parsers_are_compiled_so_the_check_can_fail():
    """The planted case: the entry taken out again (as an environment without the file), the
    same probe sees the parsers imported and the IRI formats checked."""
    seen = _probe('import sys; sys.modules.get("rfc3987_syntax", 0) is None and '
                  'sys.modules.pop("rfc3987_syntax")')
    assert seen["parsers"] is True and seen["iri_checked"] is True
    assert seen["refused"] is True

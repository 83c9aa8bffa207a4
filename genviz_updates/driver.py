"""The git merge drivers of a course repository (installed by ``genviz_updates.server``).

``.gitattributes`` in the course repository names them::

    *.ipynb          merge=genviz-notebook
    genviz/data/**   merge=genviz-course

and the single-user server's environment defines them (:func:`git_config`), so every git the
server runs -- nbgitpuller's ``git merge -Xours`` above all -- uses them. git calls a driver
only for a file both sides changed, as ``DRIVER %O %A %B %P``: the base, ours (the student's,
where the result must be written) and theirs (the course's), and the path.

- ``notebook``: :func:`genviz_updates.notebooks.merge_notebooks`. Whatever goes wrong (a file
  that is not a notebook, an exception, a result that breaks the nbformat schema), the
  student's version is left in place if it is a notebook, else the course's; the driver always exits 0,
  so the merge never stops on a notebook. What did not arrive is found afterwards by
  comparing the result with the course's version (``genviz_updates.notices``).
- ``course``: the course's bytes win (a data file whose checksum sidecar the course changed
  with it); the student's version is kept as a copy by the puller's record step.

``python -m genviz_updates.driver notebook|course BASE OURS THEIRS [PATH]``;
``python -m genviz_updates.driver install --system`` writes the same definitions into git's
system configuration (TLJH's setup.sh, for every git on the machine, even one older than 2.31).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import sys
from pathlib import Path

from genviz_updates.notebooks import dumps_notebook, merge_notebooks, read_notebook

__all__ = ["DRIVERS", "git_config", "git_config_env", "merge_file", "install",
           "structure_problems"]

#: driver name -> (description, mode)
DRIVERS = {
    "genviz-notebook": ("genviz: notebooks merged cell by cell", "notebook"),
    "genviz-course": ("genviz: the course's version wins, the student's is kept as a copy",
                      "course"),
}


def git_config(python: str | None = None) -> list[tuple[str, str]]:
    """The git configuration entries that define the drivers, run by ``python``."""
    python = shlex.quote(python or sys.executable)
    # the package's own directory first on the path: a stale editable install (one made
    # before genviz_updates existed) cannot then hide it from the driver
    home = shlex.quote(str(Path(__file__).resolve().parent.parent))
    python = f"PYTHONPATH={home}${{PYTHONPATH:+:$PYTHONPATH}} {python}"
    out = []
    for name, (description, mode) in DRIVERS.items():
        out.append((f"merge.{name}.name", description))
        # "|| true": a driver that cannot even start leaves the student's file as it is and
        # the merge goes on (the record step then names every course change that is missing)
        out.append((f"merge.{name}.driver",
                    f"{python} -m genviz_updates.driver {mode} %O %A %B %P || true"))
    return out


def git_config_env(environ: dict, python: str | None = None) -> dict:
    """``environ`` plus ``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_n``/``GIT_CONFIG_VALUE_n``
    (git >= 2.31) defining the drivers; entries already there are kept."""
    env = dict(environ)
    try:
        n = int(env.get("GIT_CONFIG_COUNT", "0") or 0)
    except ValueError:
        n = 0
    have = {env.get(f"GIT_CONFIG_KEY_{i}") for i in range(n)}
    for key, value in git_config(python):
        if key in have:
            continue
        env[f"GIT_CONFIG_KEY_{n}"], env[f"GIT_CONFIG_VALUE_{n}"] = key, value
        n += 1
    env["GIT_CONFIG_COUNT"] = str(n)
    return env


_KEYS = {"code": {"id", "cell_type", "metadata", "source", "outputs", "execution_count"},
         "markdown": {"id", "cell_type", "metadata", "source", "attachments"},
         "raw": {"id", "cell_type", "metadata", "source", "attachments"}}
_ID = re.compile(r"^[a-zA-Z0-9-_]{1,64}$")


def structure_problems(nb: dict) -> list[str]:
    """What in ``nb`` breaks the nbformat 4 schema in ways a merge could (cell fields per
    type, ids present, well-formed and unique from 4.5 on, sources, outputs); [] if none.
    (nbformat's own validator takes over a second to import where jsonschema loads its
    format checkers; a merge driver runs once per notebook.)"""
    problems = []
    with_ids = nb.get("nbformat") == 4 and nb.get("nbformat_minor", 0) >= 5
    ids = []
    for k, cell in enumerate(nb.get("cells", [])):
        kind = cell.get("cell_type")
        if kind not in _KEYS:
            problems.append(f"cell {k}: cell_type {kind!r}")
            continue
        extra = set(cell) - _KEYS[kind]
        if extra:
            problems.append(f"cell {k}: {sorted(extra)} not allowed in a {kind} cell")
        if with_ids != ("id" in cell) or (with_ids and not _ID.match(str(cell.get("id")))):
            problems.append(f"cell {k}: id {cell.get('id')!r}")
        ids.append(cell.get("id"))
        src = cell.get("source")
        if not (isinstance(src, str) or (isinstance(src, list)
                                         and all(isinstance(x, str) for x in src))):
            problems.append(f"cell {k}: source")
        if not isinstance(cell.get("metadata"), dict):
            problems.append(f"cell {k}: metadata")
        if kind == "code" and not (isinstance(cell.get("outputs"), list) and all(
                isinstance(o, dict) and "output_type" in o for o in cell["outputs"])):
            problems.append(f"cell {k}: outputs")
    if with_ids and len(ids) != len(set(ids)):
        problems.append("duplicate cell ids")
    return problems


def merge_file(mode: str, base_path: str, ours_path: str, theirs_path: str) -> str:
    """Merge into ``ours_path``; returns what was done ('merged', 'ours', 'theirs')."""
    if mode == "course":
        shutil.copyfile(theirs_path, ours_path)
        return "theirs"
    if mode != "notebook":
        raise ValueError(f"mode must be 'notebook' or 'course', got {mode!r}")
    try:
        with open(ours_path, "rb") as f:
            ours = read_notebook(f.read())
    except (OSError, ValueError, UnicodeDecodeError):
        shutil.copyfile(theirs_path, ours_path)  # the student's file is no notebook
        return "theirs"
    try:
        with open(base_path, "rb") as f:
            raw = f.read()
        base = read_notebook(raw) if raw.strip() else None
        with open(theirs_path, "rb") as f:
            theirs = read_notebook(f.read())
        merged = merge_notebooks(base, ours, theirs)
        if structure_problems(merged):
            return "ours"
        text = dumps_notebook(merged)
    except Exception:  # noqa: BLE001 (any failure: the student's version stays)
        return "ours"
    tmp = ours_path + ".genviz-merge"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, ours_path)
    return "merged"


def install(scope: str = "--system") -> None:
    """``git config SCOPE`` for each driver entry (TLJH's setup.sh: ``--system``)."""
    import subprocess

    for key, value in git_config():
        subprocess.run(["git", "config", scope, key, value], check=True)


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["install"] and len(args) <= 2:
        install(*args[1:])
        return 0
    if len(args) not in (4, 5) or args[0] not in ("notebook", "course"):
        print("usage: python -m genviz_updates.driver notebook|course BASE OURS THEIRS [PATH]\n"
              "       python -m genviz_updates.driver install [--system|--global]",
              file=sys.stderr)
        return 2
    try:
        merge_file(*args[:4])
    except Exception as exc:  # noqa: BLE001 (never stop a student's pull on one file)
        print(f"genviz merge driver: {args[4] if len(args) > 4 else args[2]}: {exc}",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python
"""Execute notebooks in a fresh kernel and keep only what nbval should compare.

For each notebook: run it top to bottom (nbclient), then
* cells marked ``# NBVAL_CHECK_OUTPUT`` keep their *text* outputs (stdout and text/plain) and get
  nbstripout's ``keep_output`` metadata, so nbval compares them;
* every other output (images, widgets, unchecked text) and execution count is stripped.
Checked cells keep an execution count (renumbered 1, 2, ... so diffs stay small): nbval treats a
cell without one as "unrun" and fails it ("Unrun reference cell has outputs").

It then warns about every number in a checked output that another machine may print differently
(``scripts/checked_outputs.py``: rounding noise printed as a value, too many digits) and exits 1
if there is any, so such an output is fixed before it reaches git.

Usage: python scripts/refresh_outputs.py notebooks/02_multivariate_gaussian.ipynb [...]
       python scripts/refresh_outputs.py --strip-only NOTEBOOK  (strip without executing)
"""

from __future__ import annotations

import argparse
import pathlib
import sys

import nbformat

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import checked_outputs  # noqa: E402  (scripts/checked_outputs.py, beside this file)

CHECK = "NBVAL_CHECK_OUTPUT"


def text_only(outputs):
    kept = []
    for out in outputs:
        if out.get("output_type") == "stream" and out.get("name") == "stdout":
            kept.append(out)
        elif out.get("output_type") in ("execute_result", "display_data"):
            data = out.get("data", {})
            if "text/plain" in data and not any(k.startswith("application/vnd.jupyter.widget")
                                                for k in data):
                out = nbformat.from_dict({**out, "data": {"text/plain": data["text/plain"]},
                                          "metadata": {}})
                if out.get("output_type") == "execute_result":
                    out["execution_count"] = None
                kept.append(out)
    return kept


def strip(nb):
    count = 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        cell.execution_count = None
        cell.metadata.pop("execution", None)
        if CHECK in cell.source:
            count += 1
            cell.execution_count = count
            cell.outputs = text_only(cell.outputs)
            cell.metadata["keep_output"] = True
        else:
            cell.outputs = []
            cell.metadata.pop("keep_output", None)
    nb.metadata.pop("widgets", None)
    return nb


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="+", type=pathlib.Path)
    parser.add_argument("--strip-only", action="store_true")
    parser.add_argument("--timeout", type=int, default=600)
    args = parser.parse_args(argv)
    unstable = 0
    for path in args.notebooks:
        nb = nbformat.read(path, as_version=4)
        if not args.strip_only:
            from nbclient import NotebookClient

            NotebookClient(nb, timeout=args.timeout, startup_timeout=args.timeout,
                           kernel_name="python3",
                           resources={"metadata": {"path": str(path.parent)}}).execute()
        nbformat.write(strip(nb), path)
        print(f"refreshed {path}", file=sys.stderr)
        for problem in checked_outputs.problems_in_notebook(path):
            unstable += 1
            print(f"warning: {problem}", file=sys.stderr)
    if unstable:
        print(f"warning: {unstable} unstable number(s) in checked outputs: {checked_outputs.FIX}",
              file=sys.stderr)
    return 1 if unstable else 0


if __name__ == "__main__":
    sys.exit(main())

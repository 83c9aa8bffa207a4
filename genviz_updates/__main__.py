"""``python -m genviz_updates status NOTEBOOK``: what the latest course update did not deliver.

Prints the notice of the notebook (and of files) from the record the last pull wrote; exits 1
when there is something to tell, 0 when there is nothing, 2 on a bad argument.
"""

from __future__ import annotations

import sys
from pathlib import Path

from genviz_updates.notices import find_repo, notice_for, read_state, repo_notice


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] != "status":
        print("usage: python -m genviz_updates status NOTEBOOK.ipynb", file=sys.stderr)
        return 2
    path = Path(args[1])
    if path.suffix != ".ipynb" or not path.is_file():
        print(f"notebook must be an existing .ipynb file, got {args[1]!r}", file=sys.stderr)
        return 2
    found = find_repo(path)
    state = read_state(found[1]) if found else None
    rel = path.resolve().relative_to(found[0]).as_posix() if found else ""
    entry = dict((state or {}).get("notebooks", {}).get(rel, {}))
    if state:  # every item, not only the latest merge's
        state = dict(state, notebooks={rel: dict(entry, items=[
            dict(i, merge=state["merge"]) for i in entry.get("items", [])])})
    text = "\n\n".join(filter(None, [notice_for(state, rel), repo_notice(state)]))
    print(text or f"{args[1]}: every course change has reached your copy.")
    return 1 if text else 0


if __name__ == "__main__":
    sys.exit(main())

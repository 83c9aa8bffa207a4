"""``python -m genviz_updates status NOTEBOOK``: what the latest course update did not deliver.

Prints the notice of the notebook (and of files) from the record the last pull wrote; exits 1
when there is something to tell, 0 when there is nothing, 2 on a bad argument.

``python -m genviz_updates status`` (no notebook), for the lecturer on a hub: which precomputed
states the hub rebuilt after the latest course update (genviz_updates.rebuild; the status in
``$GENVIZ_REBUILD_DIR``, set by every deployment); exits 1 when that build failed.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from genviz_updates.notebooks import read_notebook
from genviz_updates.notices import (copy_notice, course_twin, find_repo, git, notice_for,
                                    read_state, repo_notice)


def main(argv=None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args == ["status"]:
        return rebuild_status()
    if len(args) != 2 or args[0] != "status":
        print("usage: python -m genviz_updates status [NOTEBOOK.ipynb]", file=sys.stderr)
        return 2
    path = Path(args[1])
    if path.suffix != ".ipynb" or not path.is_file():
        print(f"notebook must be an existing .ipynb file, got {args[1]!r}", file=sys.stderr)
        return 2
    found = find_repo(path)
    state = read_state(found[1]) if found else None
    rel = path.resolve().relative_to(found[0]).as_posix() if found else ""
    try:
        read_notebook(path.read_bytes())
    except (OSError, ValueError) as exc:
        print(f"{args[1]}: this file is not a readable notebook ({exc}); course updates "
              f"cannot be merged into it.", file=sys.stdout)
        text = repo_notice(state)
        if text:
            print(text)
        return 1
    if found and git(found[0], "ls-files", "--error-unmatch", "--", rel).returncode != 0:
        twin = course_twin(found[0], path)
        if twin:
            print(copy_notice(args[1], twin))
            return 1
        print(f"{args[1]} is not one of the course's notebooks: course updates do not "
              f"change it.")
        return 0
    text = "\n\n".join(filter(None, [notice_for(state, rel), repo_notice(state)]))
    print(text or f"{args[1]}: every course change has reached your copy.")
    return 1 if text else 0


def rebuild_status() -> int:
    """The hub's rebuild of precomputed states, in words (genviz_updates.rebuild)."""
    from genviz_updates import rebuild

    where = os.environ.get("GENVIZ_REBUILD_DIR", "").strip()
    if not where:
        print("GENVIZ_REBUILD_DIR is not set: this server is not on a hub that rebuilds the "
              "precomputed states (usage: python -m genviz_updates status [NOTEBOOK.ipynb])",
              file=sys.stderr)
        return 2
    status = rebuild.read_status(where)
    print(rebuild.describe(status))
    return 1 if status.get("state") in ("failed", "unknown") else 0


if __name__ == "__main__":
    sys.exit(main())

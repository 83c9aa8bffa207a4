"""Copy deploy/hub_auth.py into deploy/z2jh/values.yaml as hub.extraConfig.genviz-refuse-open-login.

``python deploy/z2jh/sync_extra_config.py`` rewrites the block after deploy/hub_auth.py changed
(``--check`` only says whether it is up to date, exit 1 if not). The chart runs extraConfig
entries inside its own jupyterhub_config.py, so the check needs no file in the hub image and
cannot be forgotten on the command line. tests/test_deploy_auth.py fails while the copy differs.
"""

import re
import sys
from pathlib import Path

DEPLOY = Path(__file__).resolve().parent.parent
VALUES = DEPLOY / "z2jh" / "values.yaml"
KEY = "genviz-refuse-open-login"
INDENT = " " * 6


def block(source: str) -> str:
    return "".join(INDENT + line if line.strip() else "\n" for line in source.splitlines(True))


def synced(values: str, source: str) -> str:
    head = f"    {KEY}: |\n"
    start = values.index(head) + len(head)
    m = re.compile(r"^(?! {6}|$)", re.M).search(values, start)  # first line outside the block
    end = m.start() if m else len(values)
    return values[:start] + block(source) + "\n" + values[end:].lstrip("\n")


def main(argv):
    values, source = VALUES.read_text(), (DEPLOY / "hub_auth.py").read_text()
    new = synced(values, source)
    if "--check" in argv:
        print("up to date" if new == values else "values.yaml's copy of deploy/hub_auth.py is stale")
        return 0 if new == values else 1
    VALUES.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

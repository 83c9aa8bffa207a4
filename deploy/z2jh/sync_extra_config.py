"""Copy deploy/hub_auth.py and deploy/hub_db.py into deploy/z2jh/values.yaml as
hub.extraConfig.genviz-refuse-open-login and hub.extraConfig.genviz-hub-db (:data:`COPIES`).

``python deploy/z2jh/sync_extra_config.py`` rewrites the blocks after either file changed
(``--check`` only says whether they are up to date, exit 1 if not). The chart runs extraConfig
entries inside its own jupyterhub_config.py, so they need no file in the hub image and cannot be
forgotten on the command line. tests/test_deploy_auth.py and tests/test_hub_db.py fail while a
copy differs.
"""

import re
import sys
from pathlib import Path

DEPLOY = Path(__file__).resolve().parent.parent
VALUES = DEPLOY / "z2jh" / "values.yaml"
#: extraConfig key -> the file in deploy/ it copies, verbatim
COPIES = {"genviz-refuse-open-login": "hub_auth.py", "genviz-hub-db": "hub_db.py"}
KEY = "genviz-refuse-open-login"
INDENT = " " * 6


def block(source: str) -> str:
    return "".join(INDENT + line if line.strip() else "\n" for line in source.splitlines(True))


def synced(values: str, source: str, key: str = KEY) -> str:
    head = f"    {key}: |\n"
    start = values.index(head) + len(head)
    m = re.compile(r"^(?! {6}|$)", re.M).search(values, start)  # first line outside the block
    end = m.start() if m else len(values)
    return values[:start] + block(source) + "\n" + values[end:].lstrip("\n")


def main(argv):
    values = new = VALUES.read_text()
    for key, name in COPIES.items():
        new = synced(new, (DEPLOY / name).read_text(), key)
    if "--check" in argv:
        stale = [name for key, name in COPIES.items()
                 if synced(values, (DEPLOY / name).read_text(), key) != values]
        print("up to date" if not stale else
              "values.yaml's copy of " + ", ".join(f"deploy/{n}" for n in stale) + " is stale")
        return 0 if new == values else 1
    VALUES.write_text(new)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

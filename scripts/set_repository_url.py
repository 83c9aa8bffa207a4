"""Set THE repository URL of the course: ``python scripts/set_repository_url.py URL``.

One setting, ``REPOSITORY_URL`` in docs/conf.py, drives every launch link: the website's Binder
buttons (sphinx-book-theme) and the README's Binder badge, which this script rewrites between
its ``launch-links`` markers. With an empty URL (``""``, the default until the repository is
published) the site shows no Binder button and the README no badge, so no link is broken; the
website's .ipynb download buttons work either way.

A course with its own JupyterHub adds ``--hub https://hub.example.edu`` (``HUB_URL``): every
notebook page then also gets a **JupyterHub** launch button, an nbgitpuller link that clones the
course into the student's home on the hub (or merges the latest version into it) and opens that
notebook; the README gets the same link next to the Binder badge. nbgitpuller needs a real
branch name (``--branch``, default ``main``), not Binder's ``HEAD``. ``--links`` prints the
Binder and JupyterHub links of every notebook, e.g. to paste into a course page.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from urllib.parse import urlencode, urlparse

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- launch-links:begin -->", "<!-- launch-links:end -->"
SETTING = re.compile(r'^REPOSITORY_URL = "[^"\n]*"$', re.M)
HUB_SETTING = re.compile(r'^HUB_URL = "[^"\n]*"$', re.M)
BRANCH_SETTING = re.compile(r'^REPOSITORY_BRANCH = "[^"\n]*"$', re.M)
START = "notebooks/00_start_here.ipynb"


def binder_link(url: str, notebook: str = START, branch: str = "HEAD") -> str:
    """The Binder URL that opens ``notebook`` (a path in the repository) in JupyterLab."""
    parts = urlparse(url)
    owner_repo = parts.path.strip("/").removesuffix(".git")
    if parts.netloc == "github.com" and owner_repo.count("/") == 1:
        target = f"https://mybinder.org/v2/gh/{owner_repo}/{branch}"
    else:
        target = f"https://mybinder.org/v2/git/{url.replace(':', '%3A').replace('/', '%2F')}/{branch}"
    return f"{target}?urlpath=lab/tree/{notebook}"


def nbgitpuller_link(hub: str, url: str, notebook: str = START, branch: str = "main") -> str:
    """The nbgitpuller URL on ``hub`` that pulls repository ``url`` and opens ``notebook``.

    nbgitpuller clones into a folder named after the repository (``genviz`` for
    .../genviz.git), so the notebook opens at ``lab/tree/<name>/<notebook>``; the query is
    encoded as sphinx-book-theme encodes its JupyterHub buttons (``/`` kept).
    """
    name = urlparse(url).path.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")
    query = urlencode({"repo": url, "urlpath": f"lab/tree/{name}/{notebook}", "branch": branch},
                      safe="/")
    return f"{hub.rstrip('/')}/hub/user-redirect/git-pull?{query}"


def launch_block(url: str, hub: str = "", branch: str = "HEAD") -> str:
    """The README lines between the markers for ``url`` ('' = not published yet)."""
    if not url:
        return ("<!-- No Binder badge yet: the repository URL is not set. Set it with\n"
                "     python scripts/set_repository_url.py https://github.com/<account>/genviz -->")
    block = (f"[![Binder](https://mybinder.org/badge_logo.svg)]"
             f"({binder_link(url, START, 'HEAD')})")
    if hub:
        block += f" · [Open on the course JupyterHub]({nbgitpuller_link(hub, url, START, branch)})"
    return block


def check_url(url: str, name: str = "url") -> str:
    url = url.strip().rstrip("/")
    if url and (urlparse(url).scheme != "https" or not urlparse(url).netloc):
        raise ValueError(f"{name} must be an https URL{' of the repository' if name == 'url' else ''}"
                         f" (or ''), got {url!r}")
    return url


def check_branch(branch: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9._/-]+", branch or "") or branch == "HEAD":
        raise ValueError(f"branch must be a branch name such as 'main' (nbgitpuller cannot pull "
                         f"'HEAD'), got {branch!r}")
    return branch


def set_repository_url(url: str, root: Path = ROOT, hub: str = "", branch: str = "main") -> None:
    url = check_url(url)
    hub = check_url(hub, "hub")
    if hub and not url:
        raise ValueError("hub needs the repository url too: nbgitpuller links pull from it")
    branch = check_branch(branch) if hub else "HEAD"
    conf = root / "docs" / "conf.py"
    text = conf.read_text()
    for setting, line in [(SETTING, "REPOSITORY_URL = \"...\""),
                          (BRANCH_SETTING, "REPOSITORY_BRANCH = \"...\""),
                          (HUB_SETTING, "HUB_URL = \"...\"")]:
        if not setting.search(text):
            raise ValueError(f"no '{line}' line in {conf}")
    text = SETTING.sub(f'REPOSITORY_URL = "{url}"', text, count=1)
    text = BRANCH_SETTING.sub(f'REPOSITORY_BRANCH = "{branch}"', text, count=1)
    conf.write_text(HUB_SETTING.sub(f'HUB_URL = "{hub}"', text, count=1))
    readme = root / "README.md"
    text = readme.read_text()
    if BEGIN not in text or END not in text:
        raise ValueError(f"README.md lacks the {BEGIN} ... {END} markers")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    readme.write_text(f"{head}{BEGIN}\n{launch_block(url, hub, branch)}\n{END}{tail}")


def all_links(url: str, hub: str = "", branch: str = "main", root: Path = ROOT) -> str:
    """A Markdown list: every notebook with its Binder link (and nbgitpuller link on ``hub``)."""
    url = check_url(url)
    if not url:
        raise ValueError("url must be set to make links, got ''")
    hub = check_url(hub, "hub")
    branch = check_branch(branch) if hub else branch
    lines = []
    for nb in sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        rel = nb.relative_to(root).as_posix()
        line = f"- {nb.stem}: [Binder]({binder_link(url, rel)})"
        if hub:
            line += f" · [JupyterHub]({nbgitpuller_link(hub, url, rel, branch)})"
        lines.append(line)
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="e.g. https://github.com/<account>/genviz ('' to unset)")
    parser.add_argument("--hub", default="", help="the course JupyterHub, e.g. https://hub.example.edu")
    parser.add_argument("--branch", default="main", help="branch nbgitpuller pulls (default main)")
    parser.add_argument("--links", action="store_true",
                        help="only print every notebook's launch links; change nothing")
    args = parser.parse_args(argv)
    try:
        if args.links:
            print(all_links(args.url, args.hub, args.branch))
            return 0
        set_repository_url(args.url, hub=args.hub, branch=args.branch)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    print(f"REPOSITORY_URL = {args.url!r}, HUB_URL = {args.hub!r}: docs/conf.py and the README "
          f"launch links updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())

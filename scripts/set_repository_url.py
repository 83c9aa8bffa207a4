"""Set THE repository URL of the course: ``python scripts/set_repository_url.py URL``.

One setting, ``REPOSITORY_URL`` in docs/conf.py, drives every launch link: the website's Binder
buttons (sphinx-book-theme) and the README's Binder badge, which this script rewrites between
its ``launch-links`` markers. With an empty URL (``""``, the default until the repository is
published) the site shows no Binder button and the README no badge, so no link is broken; the
website's .ipynb download buttons work either way.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- launch-links:begin -->", "<!-- launch-links:end -->"
SETTING = re.compile(r'^REPOSITORY_URL = "[^"\n]*"$', re.M)


def launch_block(url: str) -> str:
    """The README lines between the markers for ``url`` ('' = not published yet)."""
    if not url:
        return ("<!-- No Binder badge yet: the repository URL is not set. Set it with\n"
                "     python scripts/set_repository_url.py https://github.com/<account>/genviz -->")
    parts = urlparse(url)
    owner_repo = parts.path.strip("/").removesuffix(".git")
    if parts.netloc == "github.com" and owner_repo.count("/") == 1:
        target = f"https://mybinder.org/v2/gh/{owner_repo}/HEAD"
    else:
        target = f"https://mybinder.org/v2/git/{url.replace(':', '%3A').replace('/', '%2F')}/HEAD"
    return (f"[![Binder](https://mybinder.org/badge_logo.svg)]"
            f"({target}?urlpath=lab/tree/notebooks/00_start_here.ipynb)")


def check_url(url: str) -> str:
    url = url.strip().rstrip("/")
    if url and (urlparse(url).scheme != "https" or not urlparse(url).netloc):
        raise ValueError(f"url must be an https URL of the repository (or ''), got {url!r}")
    return url


def set_repository_url(url: str, root: Path = ROOT) -> None:
    url = check_url(url)
    conf = root / "docs" / "conf.py"
    text = conf.read_text()
    if not SETTING.search(text):
        raise ValueError(f"no 'REPOSITORY_URL = \"...\"' line in {conf}")
    conf.write_text(SETTING.sub(f'REPOSITORY_URL = "{url}"', text, count=1))
    readme = root / "README.md"
    text = readme.read_text()
    if BEGIN not in text or END not in text:
        raise ValueError(f"README.md lacks the {BEGIN} ... {END} markers")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    readme.write_text(f"{head}{BEGIN}\n{launch_block(url)}\n{END}{tail}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("url", help="e.g. https://github.com/<account>/genviz ('' to unset)")
    args = parser.parse_args(argv)
    set_repository_url(args.url)
    print(f"REPOSITORY_URL = {args.url!r}: docs/conf.py and the README badge updated")
    return 0


if __name__ == "__main__":
    sys.exit(main())

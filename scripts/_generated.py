"""What the scripts that write a generated part of a document share: the part between two
markers, and the notebooks' cached recorded runs (``tests/course_records.py``)."""

from __future__ import annotations

import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[1]

__all__ = ["between", "replace_between", "course_records_module", "GeneratedPart"]


def between(text: str, start: str, end: str) -> str:
    """The part of ``text`` between the markers ``start`` and ``end``, stripped."""
    for name, marker in (("start", start), ("end", end)):
        if marker not in text:
            raise ValueError(f"the {name} marker {marker!r} is not in the document")
    return text[text.index(start) + len(start):text.index(end)].strip()


def replace_between(text: str, start: str, end: str, body: str) -> str:
    """``text`` with the part between the markers replaced by ``body`` (on lines of its own)."""
    between(text, start, end)  # both markers present
    head, rest = text.split(start, 1)
    tail = rest.split(end, 1)[1]
    return f"{head}{start}\n{body}\n{end}{tail}"


def course_records_module():
    """``tests/course_records.py``, loaded from its file (it is not an importable module)."""
    spec = importlib.util.spec_from_file_location("course_records",
                                                  ROOT / "tests" / "course_records.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class GeneratedPart:
    """The part of ``doc`` between the markers ``start`` and ``end`` that a script writes."""

    def __init__(self, doc: pathlib.Path, start: str, end: str):
        self.doc, self.start, self.end = pathlib.Path(doc), start, end

    def documented(self, text: str | None = None) -> str:
        """The part as the document (or ``text``) carries it now."""
        text = self.doc.read_text(encoding="utf-8") if text is None else text
        return between(text, self.start, self.end)

    def main(self, argv=None, *, make, doc: str) -> int:
        """The script's command line: print what ``make()`` returns, or with ``--write`` put
        it between the markers; ``doc``: the script's docstring (its first line describes)."""
        import argparse

        parser = argparse.ArgumentParser(description=doc.splitlines()[0])
        parser.add_argument("--write", action="store_true",
                            help=f"replace the generated part of {self.doc.name}")
        args = parser.parse_args(argv)
        text = make()
        if args.write:
            old = self.doc.read_text(encoding="utf-8")
            self.doc.write_text(replace_between(old, self.start, self.end, text),
                                encoding="utf-8")
        else:
            print(text)
        return 0

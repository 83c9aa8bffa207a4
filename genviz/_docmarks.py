"""Docstring sections that several functions or classes share, written once: a line of a
docstring that is only a mark (``{fitted classes}``, ``{raises DataFileError}``) stands for
the shared text, put in its place, indented as the mark, when the module is imported."""

from __future__ import annotations

__all__ = ["fill_marks"]


def fill_marks(doc, marks: dict):
    """``doc`` with every line that is only a key of ``marks`` replaced by the lines of its
    value, each indented as the mark; ``doc`` itself (``None`` too) when it has no mark.

    Examples
    --------
    >>> fill_marks("Title.\\n\\n    {x}\\n", {"{x}": "a : int\\n    The a."})
    'Title.\\n\\n    a : int\\n        The a.\\n'
    """
    if not doc or not any(mark in doc for mark in marks):
        return doc
    lines = []
    for line in doc.splitlines():
        shared = marks.get(line.strip())
        if shared is None:
            lines.append(line)
        else:
            indent = line[:len(line) - len(line.lstrip())]
            lines += [indent + row for row in shared.splitlines()]
    return "\n".join(lines) + ("\n" if doc.endswith("\n") else "")

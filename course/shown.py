"""Text that came from a submission, made safe to keep, write and show.

Everything a student controls — the notebook's JSON (cell sources, outputs, metadata), what the
sandbox reports (exception text, answers), the names of folders and files — may hold what
breaks a writer or misleads a reader:

- **lone surrogates** (``"\\udc80"`` is valid JSON; a folder name with the byte 0xff reads as
  ``"\\udcff"``): no UTF-8 writer (CSV, HTML, the terminal, SQLite) accepts them, and one
  such character used to end the whole class's grading;
- **control characters** (ESC, BEL, the C1 range, DEL): a terminal obeys them (OSC 52 writes the
  clipboard, OSC 0 the window title, CSI K erases the line); **format characters** reorder or
  hide what a person reads: bidirectional overrides and marks (U+202A-U+202E, U+2066-U+2069,
  U+200E, U+061C), zero-width characters (U+200B-U+200D, U+2060, U+FEFF), tags; the line and
  paragraph separators (U+2028, U+2029) break a line where no newline is seen.

One definition of the characters shown escaped, :data:`ESCAPED_CATEGORIES`: every character
whose Unicode category is Cc (control), Cf (format), Cs (surrogate), Zl or Zp (line and
paragraph separator), found from :mod:`unicodedata` (so a character a later Unicode adds to one
of these categories is escaped too), except newline and tab where a text keeps its lines. It is
used for the terminal, the CSV, the report, the feedback pages and the Formgrader's copy.

:func:`unsurrogate` keeps a text as it is except for lone surrogates, which become the
six characters ``\\udXXX`` (what Python's ``backslashreplace`` writes): applied to a notebook as
soon as it is read, so nothing after that meets one. :func:`printable` also shows every
character of :data:`ESCAPED_CATEGORIES` escaped (``\\x1b``, ``\\u202e``, ``\\U000e0001``).
"""

from __future__ import annotations

import functools
import re
import unicodedata

#: The Unicode categories whose characters are shown escaped (never written as they are).
ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
KEPT_IN_LINES = "\n\t"  # kept by printable(..., lines=True)

_SURROGATE = re.compile("[\ud800-\udfff]")


@functools.lru_cache(maxsize=1)
def escaped_ranges() -> tuple:
    """Every character of ESCAPED_CATEGORIES as (first, last) code-point ranges, read from
    unicodedata once per process (about 0.2 s)."""
    ranges, start, category = [], None, unicodedata.category
    for n in range(0x110001):
        if n < 0x110000 and category(chr(n)) in ESCAPED_CATEGORIES:
            start = n if start is None else start
        elif start is not None:
            ranges.append((start, n - 1))
            start = None
    return tuple(ranges)


@functools.lru_cache(maxsize=2)
def _pattern(lines: bool) -> re.Pattern:
    keep = {ord(c) for c in KEPT_IN_LINES} if lines else set()
    parts = []
    for first, last in escaped_ranges():
        n = first
        while n <= last:  # split a range around the kept characters
            if n in keep:
                n += 1
                continue
            end = n
            while end < last and end + 1 not in keep:
                end += 1
            parts.append(re.escape(chr(n)) + ("" if end == n else "-" + re.escape(chr(end))))
            n = end + 1
    return re.compile("[" + "".join(parts) + "]")


def _escape(match: re.Match) -> str:
    ch = match.group()
    n = ord(ch)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def unsurrogate(value):
    """``value`` (a str, or JSON-like lists and dicts of them, keys included) with every lone
    surrogate written as ``\\udXXX``; other characters unchanged."""
    if isinstance(value, str):
        return _SURROGATE.sub(_escape, value) if _SURROGATE.search(value) else value
    if isinstance(value, list):
        return [unsurrogate(v) for v in value]
    if isinstance(value, dict):
        return {unsurrogate(k): unsurrogate(v) for k, v in value.items()}
    return value


def printable(text, *, lines: bool = False) -> str:
    """``str(text)`` with every character of :data:`ESCAPED_CATEGORIES` (controls, format and
    bidi characters, lone surrogates, line and paragraph separators) shown escaped (``\\x1b``,
    ``\\u202e``); with ``lines=True`` newlines and tabs are kept."""
    text = text if isinstance(text, str) else str(text)
    return _pattern(bool(lines)).sub(_escape, text)


def name(raw) -> str:
    """A folder or file name as text to show (bytes not valid UTF-8 read as ``\\xff``)."""
    if isinstance(raw, bytes):
        raw = raw.decode("utf-8", "backslashreplace")
    return printable(raw)

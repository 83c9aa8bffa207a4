"""Text that came from a submission, made safe to keep, write and show.

Everything a student controls — the notebook's JSON (cell sources, outputs, metadata), what the
sandbox reports (exception text, answers), the names of folders and files — may hold what
breaks a writer or misleads a reader:

- **lone surrogates** (``"\\udc80"`` is valid JSON; a folder name with the byte 0xff reads as
  ``"\\udcff"``): no UTF-8 writer (CSV, HTML, the terminal, SQLite) accepts them, and one
  such character used to end the whole class's grading;
- **control characters** (ESC, BEL, the C1 range, DEL): a terminal obeys them (OSC 52 writes the
  clipboard, OSC 0 the window title, CSI K erases the line); bidirectional overrides
  (U+202A-U+202E, U+2066-U+2069) reorder what a person reads.

:func:`unsurrogate` keeps a text as it is except for lone surrogates, which become the
six characters ``\\udXXX`` (what Python's ``backslashreplace`` writes): applied to a notebook as
soon as it is read, so nothing after that meets one. :func:`printable` also shows every control
character escaped (``\\x1b``, ``\\u202e``): for the terminal, the CSV, the pages.
"""

from __future__ import annotations

import re

_SURROGATE = re.compile("[\ud800-\udfff]")
# C0 controls (tab and newline are kept where a text may have lines), DEL, C1, bidi controls
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"
                      "\ud800-\udfff]")
_CONTROL_NO_LINES = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"
                               "\ud800-\udfff]")


def _escape(match: re.Match) -> str:
    ch = match.group()
    n = ord(ch)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


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
    """``str(text)`` with every lone surrogate and control character shown escaped (``\\x1b``,
    ``\\u202e``); with ``lines=True`` newlines and tabs are kept."""
    text = text if isinstance(text, str) else str(text)
    return (_CONTROL if lines else _CONTROL_NO_LINES).sub(_escape, text)


def name(raw) -> str:
    """A folder or file name as text to show (bytes not valid UTF-8 read as ``\\xff``)."""
    if isinstance(raw, bytes):
        raw = raw.decode("utf-8", "backslashreplace")
    return printable(raw)

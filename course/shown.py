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
  paragraph separators (U+2028, U+2029) break a line where no newline is seen;
- **blank letters and invisible marks** that are not format characters: the Hangul fillers
  (U+3164, U+115F, U+1160, U+FFA0, category Lo) and BRAILLE PATTERN BLANK (U+2800, So) are
  letters and symbols that draw nothing, the combining grapheme joiner and the Khmer inherent
  vowels (Mn) draw nothing either: ``"alice\u3164"`` reads as ``"alice"``.

One definition of the characters shown escaped, :data:`ESCAPED_CATEGORIES`: every character
whose Unicode category is Cc (control), Cf (format), Cs (surrogate), Zl or Zp (line and
paragraph separator), found from :mod:`unicodedata` (so a character a later Unicode adds to one
of these categories is escaped too), except newline and tab where a text keeps its lines. It is
used for the terminal, the CSV, the report, the feedback pages and the Formgrader's copy, with
:data:`INVISIBLE` beside it: Unicode's own list of what a renderer draws nothing for
(Default_Ignorable_Code_Point, DerivedCoreProperties.txt) and U+2800. In text the variation
selectors (U+FE00-U+FE0F, U+E0100-U+E01EF, Mongolian U+180B-U+180F) are kept, as they choose how the character before
them is drawn (the emoji form of U+2764); in a name (:func:`name`: a student's folder, a file) they are
shown escaped too, and so is every space other than U+0020 (U+00A0, U+2003, U+3000 …), so that
no two names that read alike are two students.

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

#: Drawn as nothing (Unicode 15.1, DerivedCoreProperties.txt: Default_Ignorable_Code_Point, as
#: (first, last) ranges), and U+2800 BRAILLE PATTERN BLANK, which is not in that list but draws
#: nothing too. Most of these are Cf and escaped anyway; the rest are letters (Lo), marks (Mn)
#: and unassigned code points reserved as ignorable.
INVISIBLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x2800, 0x2800),
    (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
#: Variation selectors: invisible, but they choose the form of the character before them; kept
#: in text, escaped in names.
VARIATION_SELECTORS = ((0x180B, 0x180D), (0x180F, 0x180F), (0xFE00, 0xFE0F), (0xE0100, 0xE01EF))


@functools.lru_cache(maxsize=1)
def _scan() -> tuple:
    """Unicode's database read once per process (about 0.2 s): the ranges of
    ESCAPED_CATEGORIES and the spaces (Zs) other than U+0020."""
    ranges, spaces, start, category = [], [], None, unicodedata.category
    for n in range(0x110001):
        c = category(chr(n)) if n < 0x110000 else ""
        if c in ESCAPED_CATEGORIES:
            start = n if start is None else start
        else:
            if start is not None:
                ranges.append((start, n - 1))
                start = None
            if c == "Zs" and n != 0x20:
                spaces.append(n)
    return tuple(ranges), tuple(spaces)


def escaped_ranges() -> tuple:
    """Every character of ESCAPED_CATEGORIES as (first, last) code-point ranges."""
    return _scan()[0]


@functools.lru_cache(maxsize=4)
def _pattern(lines: bool, names: bool = False) -> re.Pattern:
    keep = {ord(c) for c in KEPT_IN_LINES} if lines else set()
    shown = set()
    for first, last in escaped_ranges() + INVISIBLE:
        shown.update(range(first, last + 1))
    if names:
        shown.update(_scan()[1])
    else:
        shown.difference_update(n for first, last in VARIATION_SELECTORS
                                for n in range(first, last + 1))
    shown -= keep
    parts, ordered = [], sorted(shown)
    i = 0
    while i < len(ordered):  # consecutive code points as one range
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        first, last = chr(ordered[i]), chr(ordered[j])
        parts.append(re.escape(first) + ("" if i == j else "-" + re.escape(last)))
        i = j + 1
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
    bidi characters, lone surrogates, line and paragraph separators) and of :data:`INVISIBLE`
    but the variation selectors shown escaped (``\\x1b``, ``\\u202e``, ``\\u3164``); with
    ``lines=True`` newlines and tabs are kept."""
    text = text if isinstance(text, str) else str(text)
    return _pattern(bool(lines)).sub(_escape, text)


def name(raw) -> str:
    """A folder or file name as text to show (bytes not valid UTF-8 read as ``\\xff``): as
    :func:`printable`, and the variation selectors and every space but U+0020 escaped too."""
    if isinstance(raw, bytes):
        raw = raw.decode("utf-8", "backslashreplace")
    raw = raw if isinstance(raw, str) else str(raw)
    return _pattern(False, True).sub(_escape, raw)

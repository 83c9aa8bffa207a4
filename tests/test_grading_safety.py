"""Grading that no submission can stop (issue #38), without running a sandbox: text from a
submission is written safely everywhere, one failure is one row, student Markdown is inert in
the real renderers the grader uses, the size and time of a run are fixed by the release, the
hand-in time is the course's."""

import csv
import datetime
import html.parser
import io
import json
import os
import unicodedata

import nbformat
import pytest
import regex

from course import build as B
from course import cells as C
from course import grade as G
from course import gradebook as GB
from course import sandbox as SB
from course import submissions as S
from course.assignments import ASSIGNMENTS
from course.sandbox import Limits, RunResult, seccomp_program
from course.shown import name, printable, unsurrogate

SECRET = bytes(range(32))
A = "a03_gda"
ESC_BYTES = ("\x1b", "\x07", "\x9b", "\u202e", "\r")


# -- text -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("raw, shown", [
    ("\x1b]52;c;aGk=\x07", "\\x1b]52;c;aGk=\\x07"),
    ("a\u202eb", "a\\u202eb"),
    ("\ud800x\udcff", "\\ud800x\\udcff"),
    ("tab\tand\nline", "tab\\x09and\\x0aline"),
    ("\x9b2J\x7f", "\\x9b2J\\x7f"),
    ("plain text, é and 中", "plain text, é and 中"),
])
def test_printable_escapes_every_control_and_surrogate(raw, shown):
    assert printable(raw) == shown
    printable(raw).encode("utf-8")  # always writable


def test_printable_keeps_lines_when_asked_and_names_show_bytes():
    assert printable("a\tb\nc\x1b", lines=True) == "a\tb\nc\\x1b"
    assert name(b"h-\xff\x1b") == "h-\\xff\\x1b"
    assert name(os.fsdecode(b"h-\xff")) == "h-\\udcff"


def test_unsurrogate_changes_only_lone_surrogates_keys_included():
    value = {"\udc80k": ["ok \x1b", "\ud800", 1, None, {"x": "\udfff"}]}
    assert unsurrogate(value) == {"\\udc80k": ["ok \x1b", "\\ud800", 1, None, {"x": "\\udfff"}]}
    json.dumps(unsurrogate(value), ensure_ascii=False).encode("utf-8")
    # a pair that forms a real character is not a lone surrogate once decoded by json
    assert unsurrogate(json.loads('"\\ud83d\\ude00"')) == "\U0001F600"


def test_the_text_checks_can_fail():
    """Planted: without escaping, the same texts are not writable or carry ESC."""
    with pytest.raises(UnicodeEncodeError):
        "\ud800".encode("utf-8")
    assert "\x1b" in "\x1b]52;c;aGk=\x07"


# -- reading -------------------------------------------------------------------------------------

def test_a_notebook_with_a_lone_surrogate_is_read_not_raised(tmp_path):
    folder = tmp_path / A
    folder.mkdir()
    (folder / f"{A}.ipynb").write_bytes(b'{"nbformat": "\\udc80", "cells": []}')
    nb, problems = G.read_submission(folder, A)
    assert nb is None and "is not a valid notebook" in problems[0]
    release = B.student_notebook(ASSIGNMENTS[A], "alice", SECRET)[0]
    release.cells[0].source = "x = '\ud800'"
    (folder / f"{A}.ipynb").write_text(json.dumps(release))
    nb, problems = G.read_submission(folder, A)
    assert nb.cells[0].source == "x = '\\ud800'"
    nbformat.writes(nb).encode("utf-8")


# -- one failure is one row ----------------------------------------------------------------------

class _Exploding:
    """A sandbox whose run raises (as a bug, or a text no writer took, would)."""
    unsafe = False

    def __init__(self, fail_for=()):
        self.fail_for, self.limits = fail_for, []

    def run(self, job, limits):
        self.limits.append(limits)
        if any("EXPLODE" in c["source"] for c in job["cells"]):
            raise UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates not allowed")
        return RunResult(events=[{"event": "answers", "answers": {}}, {"event": "done"}])


def _course(tmp_path, students):
    course = tmp_path / "course"
    B.build(course, [A], list(students), SECRET)
    for student, answers in students.items():
        S.write(course, student, A, S.fill(S.release(A, student, SECRET), answers))
    return course


def test_a_failure_while_grading_one_submission_is_its_row_and_the_class_goes_on(tmp_path):
    course = _course(tmp_path, {"alice": {}, "bob": {1: "EXPLODE = 1"}, "carol": {}})
    sandbox = _Exploding()
    rows = [G.grade_one(course, s, A, SECRET, sandbox, Limits()) for s in ("alice", "bob", "carol")]
    assert [o.graded for o in rows] == [True, False, True]
    (why,) = [p for p in rows[1].problems if "could not be graded" in p]
    assert why.startswith("could not be graded: UnicodeEncodeError") and \
        "while running the notebook in the sandbox" in why
    assert rows[1].score == 0 and G.not_graded(rows) == 1
    G.write_report(course, rows)
    with open(course / "grading_report.csv", newline="") as fh:
        assert [r["student_id"] for r in csv.DictReader(fh)] == ["alice", "bob", "carol"]


def test_a_file_where_a_folder_belongs_gets_a_row_that_says_so(tmp_path):
    """A file at submitted/<x> (a notebook or a zip where a student's folder belongs) and a
    notebook put directly in submitted/<student>/ each get a row with the reason -- never no
    row, never "nothing submitted". Planted: the same layout with the notebook moved into its
    folder is a job to grade."""
    course = _course(tmp_path, {"bob": {}})
    B.write_releases(course, ["alice"], SECRET, [A])  # alice was given a03 too
    submitted = course / "submitted"
    (submitted / "stray.ipynb").write_text("{}")
    (submitted / "alice").mkdir()
    (submitted / "alice" / f"{A}.ipynb").write_text("{}")
    (submitted / "alice" / "notes.ipynb").write_text("{}")
    jobs, decided, names = G.plan(course)
    rows = {(o.student_id, o.assignment): " ".join(o.problems) for o in decided}
    assert jobs == [("bob", A)] and names == [A], (jobs, rows)
    assert "submitted/stray.ipynb is a file, not a student's folder" in rows[("stray.ipynb", A)]
    assert f"handed in as submitted/alice/{A}.ipynb, not in the folder" in rows[("alice", A)]
    assert "no assignment 'notes'" in rows[("alice", "notes")]
    alice = next(o for o in decided if (o.student_id, o.assignment) == ("alice", A))
    assert alice.submitted and alice.known_student and G.not_graded(decided) == 2
    (submitted / "alice" / A).mkdir()
    (submitted / "alice" / f"{A}.ipynb").rename(submitted / "alice" / A / f"{A}.ipynb")
    assert ("alice", A) in G.plan(course)[0]

def test_a_failure_names_the_cell_it_happened_in(tmp_path, monkeypatch):
    course = _course(tmp_path, {"alice": {}})

    def boom(result, cells, limits, where=None):
        where["cell"] = 7
        raise RuntimeError("a report no one expected")

    monkeypatch.setattr(G, "describe_run", boom)
    (o,) = [G.grade_one(course, "alice", A, SECRET, _Exploding(), Limits())]
    assert any("the notebook's cell 7" in p and "RuntimeError" in p for p in o.problems)


def test_exit_status_counts_what_could_not_be_graded():
    assert G.exit_status(0) == 0
    assert G.exit_status(3) == 13 and G.exit_status(1000) == 110
    rows = [G.Outcome("a", A, graded=True, submitted=True), G.Outcome("b", A, submitted=True),
            G.Outcome("c", A)]
    assert G.not_graded(rows) == 1


def test_a_report_line_is_bounded():
    lines = G.bounded(["x" * 5000, "\x1b[2J"] + ["p"] * 100)
    assert len(lines) == G.MAX_PROBLEMS + 1 and lines[-1] == f"and {102 - G.MAX_PROBLEMS} more"
    assert len(lines[0]) == G.MAX_PROBLEM_CHARS and lines[1] == "\\x1b[2J"


def test_the_report_says_how_each_run_was_isolated_as_applied(tmp_path):
    """The memory bound the run actually had (the sandbox's own words: a cgroup, or processes
    x per-process where no cgroup could be made) and the user-namespace fallback reach the
    report's ``sandbox`` column and the terminal. Planted: a sandbox that reports the other
    bound is reported so."""
    course = _course(tmp_path, {"alice": {}})

    class Reported(_Exploding):
        userns = "user namespaces NOT disabled inside the sandbox (planted)"

        def __init__(self, memory):
            super().__init__()
            self.memory = memory

        def run(self, job, limits):
            result = super().run(job, limits)
            result.memory, result.uid = self.memory, 1_500_000_123
            return result

    rows = []
    for memory in ("a memory cgroup (v2) of 4 GiB for the whole sandbox",
                   SB.memory_words(Limits())):
        o = G.grade_one(course, "alice", A, SECRET, Reported(memory), Limits())
        assert o.sandbox.startswith("bubblewrap; " + memory), o.sandbox
        assert "NOT disabled" in o.sandbox and "throw-away uid" in o.sandbox
        rows.append(o)
    assert "128 processes x 3 GiB" in rows[1].sandbox
    G.write_report(course, rows)
    with open(course / "grading_report.csv", newline="") as fh:
        assert [r["sandbox"] for r in csv.DictReader(fh)] == [o.sandbox for o in rows]
    lines = G.sandbox_lines(rows)
    assert len(lines) == 2 and all(line.startswith("sandbox of 1 run: bubblewrap") for line in lines)
    unsafe = _Exploding()
    unsafe.unsafe = True
    assert G.grade_one(course, "alice", A, SECRET, unsafe, Limits()).sandbox == "none: --unsafe"

# -- size and time are the release's ------------------------------------------------------------

def test_a_notebook_far_larger_than_its_release_is_refused(tmp_path):
    release = B.student_notebook(ASSIGNMENTS[A], "alice", SECRET)[0]
    assert G.too_large(release, release) is None
    many = S._copies(release, "answer_q1", G.MAX_CELLS_FACTOR * len(release.cells) + 21
                     - len(release.cells))
    assert "more than 4 times the release" in G.too_large(many, release)
    ok = S._copies(release, "answer_q1", G.MAX_CELLS_FACTOR * len(release.cells) + 20
                   - len(release.cells))
    assert G.too_large(ok, release) is None
    big = S.fill(release, {1: "x = '" + "y" * (22 * len(nbformat.writes(release)) + 2_000_000)
                           + "'"})
    assert "times the release's size" in G.too_large(big, release)


def test_a_notebook_far_larger_than_its_release_is_refused_before_nbformat_reads_it(
        tmp_path, monkeypatch):
    """The cells and bytes are counted on the JSON as read: nbformat (parsing and validating
    thousands of cells, the grader's time and memory) never sees a refused notebook; one of
    the right size is parsed once. Planted: without the early count it is parsed."""
    course = _course(tmp_path, {"alice": {}, "bob": {}})
    S.write(course, "bob", A, S._copies(S.fill(S.release(A, "bob", SECRET), {}), "setup", 3000))
    parsed = []
    reads = nbformat.reads
    monkeypatch.setattr(G.nbformat, "reads", lambda *a, **k: parsed.append(1) or reads(*a, **k))
    bob = G.grade_one(course, "bob", A, SECRET, _Exploding(), Limits())
    assert parsed == [] and not bob.graded, bob.problems
    assert any("more than 4 times the release" in p for p in bob.problems), bob.problems
    alice = G.grade_one(course, "alice", A, SECRET, _Exploding(), Limits())
    assert parsed == [1] and alice.graded, alice.problems
    folder = course / "submitted" / "bob" / A
    assert G.read_submission(folder, A)[0] is not None and parsed == [1, 1]  # no refuse given

def test_the_wall_budget_is_the_releases_not_the_students(tmp_path):
    course = _course(tmp_path, {"alice": {}, "bob": {}})
    nb = S.fill(S.release(A, "bob", SECRET), {})
    nb.cells += [nbformat.v4.new_code_cell(f"import time; time.sleep(0.1)  # {k}")
                 for k in range(30)]  # under the cells cap: 4 times the release's 13
    S.write(course, "bob", A, nb)
    sandbox = _Exploding()
    G.grade_one(course, "alice", A, SECRET, sandbox, Limits(cell_seconds=10))
    G.grade_one(course, "bob", A, SECRET, sandbox, Limits(cell_seconds=10))
    alice, bob = sandbox.limits
    release = S.release(A, "alice", SECRET)
    n = sum(c.cell_type == "code" for c in release.cells)
    assert alice.wall_seconds == bob.wall_seconds == 90 + 16 * (n + 1)
    # planted: the old rule (the submission's own cells) would have given bob more
    assert Limits(cell_seconds=10).wall(n + 30) > bob.wall_seconds


# -- the report, the feedback, the terminal -----------------------------------------------------

def _hostile_outcome():
    o = G.Outcome(os.fsdecode(S.ODD_FOLDER), "a0\udcff\x1b]0;t\x07", submitted=True)
    o.problems = G.bounded([f"cell 3 raised ValueError: {S.CONTROL} \ud800",
                            "=HYPERLINK(\"http://evil\")"])
    o.verdicts = {"q1": "wrong"}
    o.feedback = {"q1": "your answer \x1b[2K\ud800 is wrong"}
    return o


def test_report_has_no_control_character_no_formula_and_is_utf8(tmp_path):
    G.write_report(tmp_path, [_hostile_outcome()])
    raw = (tmp_path / "grading_report.csv").read_bytes()
    text = raw.decode("utf-8")  # valid UTF-8
    assert not any(c in text for c in ESC_BYTES if c != "\r")  # csv ends lines with \r\n
    for row in csv.DictReader(io.StringIO(text)):
        for value in row.values():
            assert not any(c in value for c in ESC_BYTES)
            assert value[:1] not in ("=", "+", "-", "@", "\t", "\r")
        assert "\\x1b]52" in row["problems"] and "\\udcff" in row["student_id"]


@pytest.mark.parametrize("text, cell", [("=1+1", "'=1+1"), ("+1", "'+1"), ("-1", "'-1"),
                                        ("@SUM(A1)", "'@SUM(A1)"), ("\t=1", "'=1"),
                                        ("ok", "ok")])
def test_csv_cells_never_start_a_formula(text, cell):
    assert G._cell_text(text) == cell


def test_feedback_page_shows_control_characters_escaped(tmp_path):
    o = _hostile_outcome()
    o.student_id, o.assignment = "mallory", A
    page = G.write_feedback(tmp_path, o, None).read_text(encoding="utf-8")
    assert not any(c in page for c in ESC_BYTES) and "\ud800" not in page
    assert "\\x1b]52" in page and "\\x1b[2K" in page


def test_terminal_lines_escape_what_a_terminal_would_obey():
    lines = G.terminal_lines([_hostile_outcome()])
    assert lines and not any(c in line for line in lines for c in ESC_BYTES)
    "\n".join(lines).encode("utf-8")


# -- one definition of the characters shown escaped ---------------------------------------------

#: The oracle, written here on its own (not read from course.shown): every character of these
#: Unicode categories is shown escaped wherever a submission's text is written; so is every
#: character Unicode lists as drawn as nothing (Default_Ignorable_Code_Point, read from the
#: `regex` package's own Unicode tables) but the variation selectors, and U+2800 BRAILLE
#: PATTERN BLANK. In names the variation selectors and every space but U+0020 too.
KIND = {"Cc", "Cf", "Cs", "Zl", "Zp"}
_IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
_SELECTOR = regex.compile(r"\p{Variation_Selector}")


def _is_of_the_kind(c: str) -> bool:
    return (unicodedata.category(c) in KIND or c == "\u2800"
            or (_IGNORABLE.match(c) is not None and _SELECTOR.match(c) is None))


OF_THE_KIND = "".join(chr(n) for n in range(0x110000) if _is_of_the_kind(chr(n)))
SELECTORS = "".join(chr(n) for n in range(0x110000) if _SELECTOR.match(chr(n)))
OTHER_SPACES = "".join(chr(n) for n in range(0x110000)
                       if unicodedata.category(chr(n)) == "Zs" and n != 0x20)


def _of_the_kind(text: str, keep: str = "") -> set:
    return {c for c in text if _is_of_the_kind(c) and c not in keep}


def test_the_kind_is_every_control_format_surrogate_and_separator():
    """The categories enumerated (Python's Unicode database): every character of the kind is
    escaped, in ASCII; with lines kept only newline and tab stay; every other character is
    left as it is. Among them what an earlier list missed: U+061C, U+200B-U+200D, U+2028,
    U+2029, U+FEFF, U+00AD, the tags."""
    assert {"\u061c", "\u200b", "\u200c", "\u200d", "\u2028", "\u2029", "\ufeff", "\xad",
            "\U000e0041", "\x85", "\u2066"} <= set(OF_THE_KIND)
    shown = printable(OF_THE_KIND)
    assert _of_the_kind(shown) == set() and shown.isascii()
    assert _of_the_kind(printable(OF_THE_KIND, lines=True)) == {"\n", "\t"}
    assert printable("\U000e0041") == "\\U000e0041"
    rest = "".join(chr(n) for n in range(0x110000) if not _is_of_the_kind(chr(n)))
    assert printable(rest) == rest and printable(rest, lines=True) == rest


def test_what_draws_nothing_is_shown_escaped_and_names_that_read_alike_differ():
    """Letters and marks that draw nothing (the Hangul fillers, U+2800, the combining grapheme
    joiner; Unicode's Default_Ignorable_Code_Point) are escaped in text: "alice\\u3164" does
    not read as "alice". Variation selectors stay in text (the emoji form of a heart) and are
    escaped in names, as is every space but U+0020: no two names that read alike."""
    for blank in ("\u3164", "\u115f", "\u1160", "\uffa0", "\u2800", "\u034f", "\u17b4",
                  "\u17b5"):
        assert blank in OF_THE_KIND and printable("alice" + blank) == (
            "alice\\u" + f"{ord(blank):04x}")
    assert printable("\u2764\ufe0f" + SELECTORS) == "\u2764\ufe0f" + SELECTORS
    shown = name("alice" + SELECTORS + OTHER_SPACES + OF_THE_KIND)
    assert shown.isascii() and shown.startswith("alice\\u180b")
    assert "\\xa0" in shown and "\\u3000" in shown and "\\u3164" in shown
    assert name("ali ce") == "ali ce" and name("élodie") == "élodie"


def test_every_outlet_shows_the_kind_escaped(tmp_path):
    """The terminal, the report, the answer spread, the feedback page and the Formgrader's copy
    (its code cells, the student's Markdown, the verdicts), given every character of the kind
    in a name, an exception text, an answer, a feedback and cell sources: none is written as it
    is (newline and tab only where the text keeps lines: sources)."""
    o = G.Outcome("mallory" + OF_THE_KIND, A + OF_THE_KIND, submitted=True, graded=True)
    o.problems = G.bounded([f"cell 3 raised ValueError: {OF_THE_KIND[:150]}",
                            f"cell 4 raised ValueError: {OF_THE_KIND[150:]}"])
    o.verdicts, o.values = {"q1": "wrong"}, {"q1": json.dumps(OF_THE_KIND, ensure_ascii=False)}
    o.feedback = {"q1": "your answer " + OF_THE_KIND}
    text = "\n".join(G.terminal_lines([o]))
    assert _of_the_kind(text, keep="\n") == set(), sorted(_of_the_kind(text))[:5]
    G.write_report(tmp_path, [o])
    G.write_spread(tmp_path, [o] * G.FEW_VALUES_CLASS)
    for name_ in ("grading_report.csv", "answer_spread.csv"):
        with open(tmp_path / name_, newline="", encoding="utf-8") as fh:
            rows = list(csv.reader(fh))
        assert len(rows) > 1 and all(_of_the_kind(v) == set() for r in rows for v in r), name_
    o.student_id, o.assignment = "mallory", A
    page = G.write_feedback(tmp_path, o, None).read_text(encoding="utf-8")
    assert _of_the_kind(page, keep="\n") == set()
    release = B.student_notebook(ASSIGNMENTS[A], "mallory", SECRET)[0]
    cells, _ = G.merge(S.fill(release, {1: f"answer_q1 = {OF_THE_KIND!r}  # {OF_THE_KIND}"},
                              working=OF_THE_KIND), release)
    nb = nbformat.reads(nbformat.writes(G.autograded_notebook(o, cells, release)), as_version=4)
    for cell in nb.cells:
        assert _of_the_kind(cell.source, keep="\n\t") == set(), cell.source[:80]
        for out in cell.get("outputs", []):
            assert _of_the_kind(out.get("text", ""), keep="\n") == set()
    assert any("\\u202e" in c.source for c in nb.cells if c.cell_type == "code")


# -- student Markdown in the grader's pages ------------------------------------------------------

class _Active(html.parser.HTMLParser):
    """Everything in a page that a browser fetches or runs: URLs in href/src/action/... and
    style, event handlers, script, iframe, object, embed, img; and the text inside <pre>."""

    URL_ATTRS = {"href", "src", "action", "formaction", "data", "poster", "srcset", "xlink:href",
                 "background", "srcdoc"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.active, self.stack, self.pre_text, self.other_text = set(), [], [], []

    def handle_starttag(self, tag, attrs):
        self.stack.append(tag)
        if tag in ("script", "iframe", "object", "embed", "img", "svg", "style", "base"):
            self.active.add((tag, tuple(sorted((k, v or "") for k, v in attrs
                                               if k in self.URL_ATTRS))))
        for key, value in attrs:
            if key in self.URL_ATTRS or key.startswith("on") or key == "style":
                self.active.add((tag, key, value or ""))

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop() != tag:
            pass

    def handle_data(self, data):
        if "style" in self.stack or "script" in self.stack:
            return  # the template's own CSS and code (compared above as elements)
        (self.pre_text if "pre" in self.stack or "code" in self.stack
         else self.other_text).append(data)


def _exporters():
    from nbconvert import HTMLExporter
    from nbgrader.server_extensions.formgrader import handlers

    out = [("nbconvert lab", HTMLExporter(template_name="lab")),
           ("nbconvert classic", HTMLExporter(template_name="classic"))]
    try:
        out.append(("nbgrader formgrade", HTMLExporter(
            template_name="formgrade", extra_template_basedirs=[handlers.template_path])))
    except Exception as err:  # noqa: BLE001 - the template is nbgrader's
        pytest.fail(f"nbgrader's formgrade template did not load: {err}")
    return out


FORMGRADE_RESOURCES = {"assignment_id": A, "notebook_id": A, "submission_id": "x", "index": 0,
                       "total": 1, "base_url": "/", "student": "mallory", "last_name": None,
                       "first_name": None, "notebook_path": f"autograded/mallory/{A}/{A}.ipynb"}


def _render(nb):
    pages = {}
    for label, exporter in _exporters():
        page, _ = exporter.from_notebook_node(nbformat.reads(nbformat.writes(nb), as_version=4),
                                              resources=dict(FORMGRADE_RESOURCES))
        parser = _Active()
        parser.feed(page)
        pages[label] = parser
    return pages


def test_student_markdown_is_inert_in_every_renderer_the_grader_uses():
    """The autograded notebook (what the Formgrader shows) of a working full of hostile links,
    images, HTML and fence breakers, rendered by nbconvert's HTML exporter (lab and classic
    templates) and by nbgrader's formgrade template: every URL, handler, script, image and
    frame of the page is one that the same page without the student's text has too (the
    oracle: the renderers' own page of the release), and every student text sits in <pre>."""
    release = S.release(A, "mallory", SECRET)
    outcome = G.Outcome("mallory", A)
    cells = [(c.cell_type, c.source, G._grade_id(c)) for c in release.cells]
    hostile = [(k, S.HOSTILE_MARKDOWN if (g or "").startswith("working_q") else s, g)
               for k, s, g in cells]
    hostile.append(("raw", "<script>alert('raw')</script><img src=http://beacon.invalid/r>",
                    None))
    hostile.append(("markdown", S.HOSTILE_MARKDOWN, None))
    baseline = _render(G.autograded_notebook(outcome, cells, release))
    page = _render(G.autograded_notebook(outcome, hostile, release))
    for label, parsed in page.items():
        extra = parsed.active - baseline[label].active
        assert extra == set(), (label, sorted(extra)[:5])
        flat = " ".join(map(str, parsed.active)).lower()
        assert "javascript" not in flat and "beacon.invalid" not in flat and "data:text" not in flat
        outside = " ".join(parsed.other_text)
        assert "beacon.invalid" not in outside and "javascript" not in outside.lower(), label
        assert "beacon.invalid" in " ".join(parsed.pre_text)  # shown, as text


def test_the_markdown_check_can_fail():
    """Planted: the student's Markdown as it was (not made inert) yields a javascript: link
    and an external image in nbconvert's page, which the check above would catch."""
    release = S.release(A, "mallory", SECRET)
    nb = G._notebook([("markdown", S.HOSTILE_MARKDOWN, None)], release)
    parsed = _render(nb)["nbconvert lab"]
    flat = " ".join(map(str, parsed.active)).lower()
    assert "javascript:" in flat and "beacon.invalid" in flat
    # the old neutraliser (javascript&#58;) is decoded back by the renderer
    old = G._notebook([("markdown", "[c](javascript&#58;alert(1))", None)], release)
    assert any("javascript:" in str(a).lower() for a in _render(old)["nbconvert lab"].active)


@pytest.mark.parametrize("text", ["```", "````\n````", "~~~", "`" * 50 + "\n<b>x</b>",
                                  "    indented\n```\n<img src=x>"])
def test_no_text_closes_the_fence(text):
    inert = G._inert(text)
    fence = inert.split("text\n", 1)[0]
    body = inert[len(fence) + 5:-len(fence) - 2]
    assert fence not in body and body == printable(text, lines=True)


# -- hand-in time ------------------------------------------------------------------------------

def test_the_hand_in_time_is_the_collection_time_never_the_students_file(tmp_path):
    folder = tmp_path / "submitted" / "mallory" / A
    folder.mkdir(parents=True)
    (folder / "timestamp.txt").write_text("2020-01-01 00:00:00.000000 UTC")
    os.utime(folder, (0, 0))  # what an unzip of a forged archive sets: the mtime
    o = G.Outcome("mallory", A, submitted=True)
    when = GB.submitted_timestamp(tmp_path, o)
    now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
    assert abs((now - when).total_seconds()) < 600
    assert "collection time" in GB.handed_in(tmp_path, o) and "2020" not in GB.handed_in(
        tmp_path, o)
    assert GB.submitted_timestamp(tmp_path, G.Outcome("nobody", A)) is None



def test_the_lms_export_states_the_hand_in_time_and_the_report_says_so(tmp_path):
    """Issue #38 item 5: the hand-in time the course's LMS states wins over the folder's
    collection time, and the report names where each time came from. Oracle: the times
    written by hand (an offset converted to UTC by hand)."""
    export = tmp_path / "lms.csv"
    export.write_text("student,assignment,handed_in,comment\n"
                      f"mallory,{A},2026-11-20T14:03:00+01:00,\"late, by a minute\"\n"
                      f"trent,{A},2026-11-20T12:00:00Z,\n"
                      f"ursula,{A},2026-11-20 11:30:00,naive: UTC\n")
    lms = GB.read_hand_in_times(export)
    assert lms.times == {("mallory", A): datetime.datetime(2026, 11, 20, 13, 3),
                         ("trent", A): datetime.datetime(2026, 11, 20, 12, 0),
                         ("ursula", A): datetime.datetime(2026, 11, 20, 11, 30)}
    folder = tmp_path / "submitted" / "mallory" / A
    folder.mkdir(parents=True)
    (folder / "timestamp.txt").write_text("2020-01-01 00:00:00.000000 UTC")
    o = G.Outcome("mallory", A, submitted=True)
    assert GB.submitted_timestamp(tmp_path, o, lms) == datetime.datetime(2026, 11, 20, 13, 3)
    assert GB.handed_in(tmp_path, o, lms) == "2026-11-20 13:03:00 UTC, from the LMS export lms.csv"
    # a submission the export does not list: the folder's time, and the report says so
    (tmp_path / "submitted" / "victor" / A).mkdir(parents=True)
    v = G.Outcome("victor", A, submitted=True)
    words = GB.handed_in(tmp_path, v, lms)
    assert words.split(", ", 1)[1].startswith("not in the LMS export lms.csv; from the collection time")
    assert GB.submitted_timestamp(tmp_path, v, lms) == GB.submitted_timestamp(tmp_path, v)


@pytest.mark.parametrize("text, match", [
    ("student,assignment\nmallory,a\n", "need the columns student, assignment, handed_in"),
    ("student,assignment,handed_in\nmallory,a,yesterday\n", "line 2: handed_in 'yesterday' is not an ISO 8601"),
    ("student,assignment,handed_in\nmallory,a,2026-11-20T10:00Z\nmallory,a,2026-11-20T11:00Z\n",
     "line 3: mallory a is given twice"),
    ("student,assignment,handed_in\n,a,2026-11-20T10:00Z\n", "line 2: student and assignment must not be empty"),
])
def test_a_bad_lms_export_is_refused_naming_the_file_and_line(tmp_path, text, match):
    export = tmp_path / "lms.csv"
    export.write_text(text)
    with pytest.raises(ValueError, match=match):
        GB.read_hand_in_times(export)
    with pytest.raises(ValueError, match="could not be read"):
        GB.read_hand_in_times(tmp_path / "missing.csv")


def test_grade_refuses_a_bad_lms_export_before_grading(tmp_path, capsys):
    export = tmp_path / "lms.csv"
    export.write_text("who,when\n")
    assert G.main([str(tmp_path), "--handed-in", str(export)]) == 2
    assert "need the columns student, assignment, handed_in" in capsys.readouterr().err


def test_a_resubmission_copied_over_the_notebook_is_as_late_as_the_copy(tmp_path):
    """The hand-in time is the latest inode change time of the folder and of every entry under
    it (lstat: a link's own, never its target's). Planted: a notebook copied over the one
    collected earlier leaves the folder's own ctime -- the old rule's hand-in time -- as it
    was; the copy's time is the one taken. A link inside the folder whose target changes later
    does not move the time; a file deep in a subfolder does."""
    import time

    folder = tmp_path / "submitted" / "mallory" / A
    (folder / "sub" / "deeper").mkdir(parents=True)
    notebook = folder / f"{A}.ipynb"
    notebook.write_text("{} first")
    outside = tmp_path / "outside.txt"
    outside.write_text("x")
    (folder / "link").symlink_to(outside)
    o = G.Outcome("mallory", A, submitted=True)
    first, _, count = GB.collection_time(folder)
    assert count == 4  # sub, sub/deeper, the notebook, the link
    folder_ctime = os.lstat(folder).st_ctime
    time.sleep(0.05)
    outside.chmod(0o600)  # the link's target changes: not the submission's time
    assert GB.collection_time(folder)[0] == first
    with open(notebook, "w") as fh:  # what `cp new.ipynb submitted/mallory/a03_gda/` does
        fh.write("{} resubmitted, late")
    assert os.lstat(folder).st_ctime == folder_ctime  # the old rule: still the early time
    late, newest, _ = GB.collection_time(folder)
    assert late > first and late == os.lstat(notebook).st_ctime and newest == notebook.name
    assert GB.submitted_timestamp(tmp_path, o) > GB._utc(folder_ctime)
    words = GB.handed_in(tmp_path, o)
    assert "latest inode change time of the folder and of everything in it" in words
    assert f"(the latest: {A}.ipynb; 4 entries in it)" in words, words
    time.sleep(0.05)
    (folder / "sub" / "deeper" / "extra.py").write_text("x = 1")
    deep, newest, count = GB.collection_time(folder)
    assert deep > late and newest == "sub/deeper/extra.py" and count == 5
    assert GB.collection_time(folder / "link") is None and GB.collection_time(notebook) is None

# -- the seccomp filter -------------------------------------------------------------------------

def _bpf_run(program: bytes, arch: int, nr: int) -> int:
    """A classic-BPF interpreter for the few instructions the filter uses (the oracle)."""
    import struct

    ins = [struct.unpack("<HBBI", program[i:i + 8]) for i in range(0, len(program), 8)]
    data = {0: nr, 4: arch}
    pc, acc = 0, 0
    while True:
        code, jt, jf, k = ins[pc]
        if code == 0x20:
            acc = data[k]
        elif code == 0x06:
            return k
        elif code in (0x15, 0x35):
            hit = acc == k if code == 0x15 else acc >= k
            pc += jt if hit else jf
        else:
            raise AssertionError(f"unexpected instruction {code:#x}")
        pc += 1


def test_the_seccomp_filter_refuses_the_key_calls_and_other_abis_only():
    program = seccomp_program()
    if program is None:
        pytest.skip(f"no filter for {os.uname().machine}")
    arch, calls = {"x86_64": (0xC000003E, (248, 249, 250)),
                   "aarch64": (0xC00000B7, (217, 218, 219))}[os.uname().machine]
    allow, eperm = 0x7FFF0000, 0x00050001
    for nr in calls:
        assert _bpf_run(program, arch, nr) == eperm
    for nr in (0, 1, 2, 56, 57, 59, 60, 231, 247, 251, 435):
        assert _bpf_run(program, arch, nr) == allow
    assert _bpf_run(program, arch, 0x40000000 + 1) == eperm  # x32
    assert _bpf_run(program, 0x40000003, 1) == eperm          # i386


# -- choices and few-valued answers --------------------------------------------------------------

def _choice_assignment():
    from course.assignments import variant

    for a in ASSIGNMENTS.values():
        _, exercises = variant(a, "alice", SECRET)
        for i, ex in enumerate(exercises, 1):
            if C.is_choice(ex):
                return a, exercises, i, ex
    pytest.skip("no assignment has a choice question")


def test_a_choice_takes_the_letter_not_the_options_text():
    """The option's text is the same for every student (and the self-study solution prints it):
    the self-study check accepts it (the oracle), the grader does not; the letter is right."""
    a, exercises, i, ex = _choice_assignment()
    text = ex.options[ex.correct[0]]
    assert ex.check(text).correct  # planted: the library's own check takes the text
    letter = ex.label(ex.correct[0])
    for value, verdict in ((text, "wrong"), (letter, "right"), (f"({letter.upper()})", "right"),
                           (None, "not answered")):
        o = G.Outcome("alice", a.name)
        answers = {f"answer_q{k}": {"missing": True} for k in range(1, len(exercises) + 1)}
        answers[f"answer_q{i}"] = {"value": value}
        G.check_answers(exercises, answers, o, a)
        assert o.verdicts[f"q{i}"] == verdict, (value, o.feedback)
    o = G.Outcome("alice", a.name)
    G.check_answers(exercises, {f"answer_q{i}": {"value": text}}, o, a)
    assert "the letter of your option" in o.feedback[f"q{i}"]


def test_the_spread_lists_questions_with_few_distinct_answers():
    rows = []
    for k in range(12):
        o = G.Outcome(f"s{k}", A, graded=True)
        o.values = {"q1": json.dumps("b" if k < 9 else "c"), "q2": json.dumps(k * 0.5)}
        o.verdicts = {"q1": "right" if k < 9 else "wrong", "q2": "wrong"}
        rows.append(o)
    spread = G.answer_spread(rows)
    assert [(r["question"], r["answer"], r["students"], r["of"], r["verdict"], r["why"])
            for r in spread] == [("q1", '"b"', 9, 12, "right", "2 distinct answers"),
                                 ("q1", '"c"', 3, 12, "wrong", "2 distinct answers")]
    assert G.answer_spread(rows[:G.FEW_VALUES_CLASS - 1]) == []  # too few students to say


def test_the_spread_lists_a_question_whose_many_answers_are_shared_in_pairs():
    """Issue #38's a03 q1: 12 distinct right answers over 60 students, each shared with a
    classmate, was not listed (more than FEW_VALUES values). Now it is, by the share of students
    who give an answer a classmate gives; a class of all-different answers is not."""
    def outcome(k, value):
        o = G.Outcome(f"s{k}", A, graded=True)
        o.values, o.verdicts = {"q1": json.dumps(value)}, {"q1": "right"}
        return o

    pairs = [outcome(k, round(0.1 * (k // 2), 1)) for k in range(12)]  # 6 values, 2 each
    spread = G.answer_spread(pairs)
    assert len(spread) == 6 and all(r["students"] == 2 and r["of"] == 12 for r in spread)
    assert spread[0]["why"] == "12 of 12 students give an answer a classmate gives"
    assert G.answer_spread([outcome(k, 0.1 * k) for k in range(12)]) == []
    few_shared = [outcome(k, 0.1 * k) for k in range(9)] + [outcome(9, 0.0), outcome(10, 0.1)]
    assert G.answer_spread(few_shared) == []  # 4 of 11 share: under SHARED_SHARE


def test_a_notebook_far_larger_than_its_release_in_bytes_is_refused_before_it_is_read(
        tmp_path, monkeypatch):
    """Issue #38, oversize notebook: a file of more than MAX_BYTES_FACTOR (20) times its
    release's bytes (+2 MB) but under the absolute 20 MB is refused from its size (lstat), its
    JSON never decoded (the grader's memory and time); the row says so. One of the right size is
    decoded. Planted: without the check before reading, the 3 MB notebook is decoded first."""
    course = _course(tmp_path, {"alice": {}, "bob": {}})
    limit = G.byte_limit(S.release(A, "bob", SECRET))
    assert 2_000_000 < limit < 3_000_000  # a03's release is ~8 kB
    nb = S.fill(S.release(A, "bob", SECRET), {1: "x = '" + "y" * limit + "'"})
    S.write(course, "bob", A, nb)
    decoded = []
    loads = G.json.loads
    monkeypatch.setattr(G.json, "loads",
                        lambda text, *a, **k: decoded.append(len(text)) or loads(text, *a, **k))
    bob = G.grade_one(course, "bob", A, SECRET, _Exploding(), Limits())
    assert decoded == [] and not bob.graded and bob.submitted, bob.problems
    (why,) = [p for p in bob.problems if p.startswith("refused: the notebook is")]
    assert f"more than {G.MAX_BYTES_FACTOR} times the release's size" in why, why
    alice = G.grade_one(course, "alice", A, SECRET, _Exploding(), Limits())
    assert max(decoded) > 5_000 and alice.graded, alice.problems  # her notebook, decoded


# -- only the course's own assignments are graded ---------------------------------------------

def test_only_assignments_the_course_released_to_the_student_are_graded(tmp_path, monkeypatch):
    """Issue #38, kind other_assignment: a folder named after an assignment genviz knows that the
    course did not make (no source/<n>/<n>.ipynb, and fewer than half the class handed it in),
    or one the course released to other students
    and not to this one, is refused with a row that says so, never run, never put in the
    gradebook. Planted: with every assignment genviz knows taken as the course's and no
    release read (the rule before), both are graded."""
    course = tmp_path / "course"
    for path in ("source/a03_gda/a03_gda.ipynb", "release/alice/a03_gda/a03_gda.ipynb",
                 "release/carol/a03_gda/a03_gda.ipynb", "submitted/carol/a03_gda/a03_gda.ipynb",
                 "submitted/alice/a03_gda/a03_gda.ipynb", "submitted/bob/a03_gda/a03_gda.ipynb",
                 "submitted/alice/a06_naive_bayes/a06_naive_bayes.ipynb"):
        (course / path).parent.mkdir(parents=True, exist_ok=True)
        (course / path).write_text("{}")
    jobs, decided, names = G.plan(course)
    assert jobs == [("alice", "a03_gda"), ("carol", "a03_gda")] and names == ["a03_gda"]
    why = {(o.student_id, o.assignment): (o.problems, o.known_student, o.submitted)
           for o in decided}
    assert why == {
        ("alice", "a06_naive_bayes"): (["refused: the course did not release 'a06_naive_bayes' "
                                        "(no source/a06_naive_bayes/a06_naive_bayes.ipynb, and "
                                        "fewer than half the class handed it in): not graded"],
                                       False, True),
        ("bob", "a03_gda"): (["refused: a03_gda was released to other students, not to bob (no "
                              "release/bob/a03_gda/): not graded"], False, True)}
    # a folder of submissions only: what half the class handed in is the course's
    (course / "source" / "a03_gda" / "a03_gda.ipynb").unlink()
    assert G.plan(course)[2] == ["a03_gda"]
    monkeypatch.setattr(G, "course_assignments", lambda *a: set(ASSIGNMENTS))
    monkeypatch.setattr(G, "_released", lambda course, names: {})
    assert {("alice", "a06_naive_bayes"), ("bob", "a03_gda")} <= set(G.plan(course)[0])


def test_a_course_with_sources_takes_no_assignment_from_what_students_hand_in(tmp_path):
    """The half-the-class rule is for a folder of collected submissions only: where the course
    keeps a source notebook, an assignment it did not make stays refused however many hand it
    in. Planted: the rule applied beside the sources (as first merged), and two of three
    students handing in a06 made it the course's."""
    course = tmp_path / "course"
    for path in ("source/a03_gda/a03_gda.ipynb",
                 *(f"submitted/{s}/a03_gda/a03_gda.ipynb" for s in ("alice", "bob", "carol")),
                 *(f"submitted/{s}/a06_naive_bayes/a06_naive_bayes.ipynb" for s in ("alice", "bob"))):
        (course / path).parent.mkdir(parents=True, exist_ok=True)
        (course / path).write_text("{}")
    assert G.course_assignments(course, {"a03_gda": 3, "a06_naive_bayes": 2}, 3) == {"a03_gda"}
    jobs, decided, names = G.plan(course)
    assert names == ["a03_gda"] and all(a == "a03_gda" for _, a in jobs)
    assert {(o.student_id, o.assignment) for o in decided} == {
        ("alice", "a06_naive_bayes"), ("bob", "a06_naive_bayes")}
    (course / "source" / "a03_gda" / "a03_gda.ipynb").unlink()  # collected submissions only
    assert G.course_assignments(course, {"a03_gda": 3, "a06_naive_bayes": 2}, 3) == {
        "a03_gda", "a06_naive_bayes"}


def test_a_notebook_whose_metadata_names_another_assignment_is_refused(tmp_path):
    """Issue #38: the a03 folder holds a notebook released for another assignment (its
    metadata says so): refused with a row, not run. Planted: with the metadata of its own
    assignment, the same notebook runs."""
    course = _course(tmp_path, {"alice": {}})
    nb = S.fill(S.release(A, "alice", SECRET), {})
    nb.metadata["genviz"]["assignment"] = "a06_naive_bayes"
    S.write(course, "alice", A, nb)
    sandbox = _Exploding()
    alice = G.grade_one(course, "alice", A, SECRET, sandbox, Limits())
    assert not alice.graded and alice.submitted and alice.problems == [
        "refused: the notebook is a release of 'a06_naive_bayes' (its metadata), not of "
        "'a03_gda': not graded"]
    nb.metadata["genviz"]["assignment"] = A
    S.write(course, "alice", A, nb)
    assert G.grade_one(course, "alice", A, SECRET, sandbox, Limits()).graded


# -- a submission folder full of files ----------------------------------------------------------

def _flood(folder, n: int, per_dir: int = 50):
    """``n`` empty files, ``per_dir`` to a folder, each folder inside the one before (deep)."""
    here = folder
    for k in range(n):
        if k % per_dir == 0:
            here = here / f"d{k // per_dir}"
            here.mkdir()
        (here / f"f{k}").touch()


def test_a_submission_folder_with_thousands_of_files_is_refused_after_reading_a_bound(
        tmp_path, monkeypatch):
    """Issue #38, kind folder_flood: an assignment folder holding more than MAX_ENTRIES (1,000)
    files and folders at any depth is refused with a row (never run; no file of it enters the
    sandbox, which gets the cells alone), and no more than MAX_ENTRIES + 1 entries of it are
    read, each directory lazily. Planted: with the bound raised, the same folder is graded."""
    course = _course(tmp_path, {"alice": {}, "bob": {}})
    _flood(course / "submitted" / "bob" / A, 3000)
    found = GB.collection_time(course / "submitted" / "bob" / A)
    assert found[2] == GB.MAX_ENTRIES + 1 == 1001
    sandbox = _Exploding()
    bob = G.grade_one(course, "bob", A, SECRET, sandbox, Limits())
    assert not bob.graded and bob.submitted and bob.problems == [
        "refused: the submission folder holds more than 1000 files and folders: not graded "
        "(hand in the notebook and the few files it reads)"] and sandbox.limits == []
    assert G.grade_one(course, "alice", A, SECRET, sandbox, Limits()).graded
    monkeypatch.setattr(G, "MAX_ENTRIES", 10_000)
    monkeypatch.setattr(GB, "MAX_ENTRIES", 10_000)
    assert G.grade_one(course, "bob", A, SECRET, sandbox, Limits()).graded


def test_a_student_folder_with_hundreds_of_entries_is_refused_with_a_row(tmp_path,
                                                                         monkeypatch):
    """submitted/<student>/ holding more than MAX_STUDENT_ENTRIES (100) entries: no more than
    101 are read, none of its names becomes an assignment (a row each), and the student gets one
    row per assignment that says so. Planted: with the bound raised, each folder name is an
    'unknown assignment' row of its own (hundreds of rows)."""
    course = _course(tmp_path, {"alice": {}, "bob": {}})
    for k in range(300):
        (course / "submitted" / "bob" / f"x{k}").mkdir()
    jobs, decided, names = G.plan(course)
    assert jobs == [("alice", A)] and names == [A]
    assert [(o.student_id, o.assignment, o.problems) for o in decided] == [
        ("bob", A, ["refused: submitted/bob/ holds more than 100 files and folders: not graded "
                    "(one folder per assignment, each with its notebook)"])]
    monkeypatch.setattr(G, "MAX_STUDENT_ENTRIES", 10_000)
    assert len(G.plan(course)[1]) == 300


def test_repeated_cell_ids_are_a_row_and_nothing_on_the_graders_terminal(tmp_path):
    """Every cell of the notebook with one id (control characters in it): nbformat renames them
    and warned once per cell on the grader's terminal (stderr), quoting the student's id; now
    the row says so and no warning is emitted. Planted: nbformat's own reading warns."""
    import warnings

    course = _course(tmp_path, {"alice": {}})
    nb = json.loads(json.dumps(S.fill(S.release(A, "alice", SECRET), {})))
    for cell in nb["cells"]:
        cell["id"] = "\x1b]0;all OK\x07"
    folder = course / "submitted" / "alice" / A
    (folder / f"{A}.ipynb").write_text(json.dumps(nb))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        alice = G.grade_one(course, "alice", A, SECRET, _Exploding(), Limits())
        assert caught == [] and alice.graded
        assert f"{len(nb['cells']) - 1} cells repeat another cell's id" in alice.problems[0]
        nbformat.reads(json.dumps(nb), as_version=4)
        assert caught  # planted: what nbformat does when nobody silences it


def test_an_unreadable_student_folder_is_a_row_and_the_class_goes_on(tmp_path, monkeypatch):
    """submitted/<student>/ that cannot be listed (mode 000 as unzip restores it, for a grader
    who is not root) stopped the whole run with a PermissionError before any grading; now it is
    that student's row. Simulated (the tests run as root, who reads any folder): listing it
    raises. Planted: without the catch, plan raises."""
    course = _course(tmp_path, {"alice": {}, "bob": {}})
    scandir = os.scandir

    def refusing(path="."):
        if os.fspath(path).endswith(os.sep + "bob"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return scandir(path)

    monkeypatch.setattr(G.os, "scandir", refusing)
    jobs, decided, names = G.plan(course)
    assert jobs == [("alice", A)]
    assert [(o.student_id, o.problems) for o in decided] == [("bob", [
        "could not be graded: the folder submitted/bob/ could not be read (PermissionError: "
        "Permission denied)"])]
    with pytest.raises(PermissionError):
        refusing(course / "submitted" / "bob")

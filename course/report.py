"""The grading run's writings for people: ``grading_report.csv`` (per submission, what
happened, in words), ``answer_spread.csv`` (answers few students do not share), the feedback
pages ``feedback/<student>/<assignment>/<assignment>.html``, ``grades.csv`` (nbgrader's export of
the gradebook) and the lines for the terminal. Every text from a submission is shown escaped
(:mod:`course.shown`); a report cell never starts a spreadsheet formula.

Moved out of :mod:`course.grade` (which imports and re-exports every name here: ``course.grade.
write_report`` and the others keep working); it reads the outcomes the grading made, never a
submission.
"""

from __future__ import annotations

import csv
import html
import pathlib

from course.assignments import ASSIGNMENTS
from course.shown import printable

REPORT_FIELDS = ["student_id", "assignment", "graded", "score", "max_score", "answers",
                 "handed_in", "sandbox", "problems"]


FEW_VALUES = 4          # a question with at most this many distinct answers in the class ...
FEW_VALUES_CLASS = 5    # ... of at least this many graded students is listed in the spread
SHARED_SHARE = 0.5      # ... and so is one where at least this share of them gives an answer
                        #     a classmate gives too (a classmate's answer would often do)


def answer_spread(outcomes) -> list[dict]:
    """Per assignment and question whose answers can be passed on or guessed, among at least
    FEW_VALUES_CLASS graded students: those with few distinct values across the class (at most
    FEW_VALUES: every answer listed), and those where at least SHARED_SHARE of the students give
    an answer a classmate gives too (each shared answer listed). A row: the answer, how many
    students give it, of how many, its verdict, and ``why`` the question is listed."""
    from collections import Counter

    rows = []
    by_question = {}
    for o in outcomes:
        for q, value in o.values.items():
            by_question.setdefault((o.assignment, q), []).append((value, o.verdicts.get(q, "")))
    for (assignment, q), answers in sorted(by_question.items()):
        counts = Counter(v for v, _ in answers)
        if len(answers) < FEW_VALUES_CLASS:
            continue
        shared = sum(n for n in counts.values() if n > 1)
        if len(counts) <= FEW_VALUES:
            why, listed = f"{len(counts)} distinct answers", counts.most_common()
        elif shared >= SHARED_SHARE * len(answers):
            why = f"{shared} of {len(answers)} students give an answer a classmate gives"
            listed = [(v, n) for v, n in counts.most_common() if n > 1]
        else:
            continue
        verdict = {}
        for v, d in answers:
            verdict.setdefault(v, set()).add(d)
        for value, n in listed:
            rows.append({"assignment": assignment, "question": q, "answer": value,
                         "students": n, "of": len(answers),
                         "verdict": "/".join(sorted(verdict[value])), "why": why})
    return rows


def write_spread(course, outcomes) -> pathlib.Path:
    """``course/answer_spread.csv``: :func:`answer_spread`, for the instructor."""
    dest = pathlib.Path(course) / "answer_spread.csv"
    fields = ["assignment", "question", "answer", "students", "of", "verdict", "why"]
    with open(dest, "w", newline="", encoding="utf-8", errors="backslashreplace") as fh:
        writer = csv.DictWriter(fh, fields)
        writer.writeheader()
        for row in answer_spread(outcomes):
            writer.writerow({k: _cell_text(v) if isinstance(v, str) else v
                             for k, v in row.items()})
    return dest


def write_feedback(course, outcome, exercises) -> pathlib.Path:
    """``feedback/<student>/<assignment>/<assignment>.html``: per question the verdict and the
    exercise's own feedback (hint, or a choice's reason); every text escaped."""
    a = ASSIGNMENTS[outcome.assignment]
    def esc(text) -> str:
        return html.escape(printable(text))

    rows = []
    for i, q in enumerate(a.questions, 1):
        verdict = outcome.verdicts.get(f"q{i}", "not graded")
        earned = outcome.earned.get(f"test_q{i}", 0.0)
        prompt = exercises[i - 1].prompt if exercises else (
            outcome.prompts[i - 1] if i <= len(outcome.prompts) else "")
        rows.append(f"<section><h2>Question {i}: {esc(verdict)} ({earned:g}/{q.points} "
                    f"points)</h2><p>{esc(prompt)}</p><p><b>{esc(outcome.feedback.get(f'q{i}', ''))}"
                    "</b></p></section>")
    problems = "".join(f"<li>{esc(outcome.for_student.get(p, p))}</li>"
                       for p in outcome.problems)
    page = ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            "<style>body{font-family:system-ui,sans-serif;max-width:46em;margin:2em auto;"
            "padding:0 1em;line-height:1.5}h2{font-size:1.15em;margin-top:1.6em}</style>"
            f"<title>{esc(a.title)}: feedback for {esc(outcome.student_id)}</title></head><body>"
            f"<h1>{esc(a.title)}: feedback for {esc(outcome.student_id)}</h1>"
            + (f"<h2>What happened when your notebook ran</h2><ul>{problems}</ul>"
               if problems else "") + "".join(rows)
            + "<p>The questions graded by hand are scored separately.</p></body></html>")
    dest = course / "feedback" / outcome.student_id / outcome.assignment
    dest.mkdir(parents=True, exist_ok=True)
    path = dest / f"{outcome.assignment}.html"
    path.write_text(page, encoding="utf-8", errors="backslashreplace")
    return path


def _cell_text(text: str) -> str:
    """A report cell: one line, control characters escaped, no spreadsheet formula (OWASP:
    a cell that starts with = + - @, tab or carriage return is prefixed with ')."""
    text = printable(" ".join(str(text).split()))
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def write_report(course, outcomes) -> pathlib.Path:
    """``course/grading_report.csv``: per submission, graded or not, score and what happened."""
    dest = pathlib.Path(course) / "grading_report.csv"
    with open(dest, "w", newline="", encoding="utf-8", errors="backslashreplace") as fh:
        writer = csv.DictWriter(fh, REPORT_FIELDS)
        writer.writeheader()
        for o in outcomes:
            writer.writerow({
                "student_id": _cell_text(o.student_id), "assignment": _cell_text(o.assignment),
                "graded": o.graded, "score": o.score, "max_score": o.max_score,
                "answers": _cell_text("; ".join(f"{q} {v}" for q, v in o.verdicts.items())),
                "handed_in": _cell_text(o.handed_in),
                "sandbox": _cell_text(o.sandbox),
                "problems": _cell_text("; ".join(o.problems))})
    return dest


def export(course) -> pathlib.Path:
    from course import gradebook

    return gradebook.export(course)


def terminal_lines(outcomes) -> list[str]:
    """One line per row for the terminal: names and problems come from the submissions, so
    every control character is shown escaped, never obeyed."""
    lines = []
    for o in outcomes:
        flag = "graded" if o.graded else "NOT GRADED"
        lines.append(f"{printable(o.student_id):20s} {printable(o.assignment):22s} "
                     f"{o.score:5.1f}/{o.max_score:<5.1f} {flag}"
                     + (f"  ({printable('; '.join(o.problems))})" if o.problems else ""))
    return lines


def sandbox_lines(outcomes) -> list[str]:
    """The isolation the runs had, once per kind (the report's ``sandbox`` column per row)."""
    from collections import Counter

    kinds = Counter(o.sandbox for o in outcomes if o.sandbox)
    return [f"sandbox of {n} run{'' if n == 1 else 's'}: {printable(words)}"
            for words, n in sorted(kinds.items())]

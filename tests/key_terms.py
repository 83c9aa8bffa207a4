"""An item's answer read as key terms and numbers, found in a paraphrase (issue #40, item 4).

A claim (``claims=[...]`` of an item: a regular expression of its answer's key claim, e.g.
``r"(fewer points|n shrinks)[^.]{0,60}larger h"``) is read as **slots**: each literal word or
number of the expression is a slot, each alternation ``(a|b)`` one slot with alternatives,
optional parts (``(...)?``) and stop words dropped, words stemmed (``curves`` / ``curve``,
``larger`` / ``large``). A sentence **says** the claim when every slot has an alternative all of
whose stems are among the sentence's stems, in any order: "find where their learning curves
cross" says ``"so the curves cross"``; the regex alone did not match it.

A claim that is mostly symbols (a formula such as ``σ ?1 ?σ ?2 ?sqrt``) has fewer than two word
slots; it is matched as the regular expression it is (:func:`genviz.exercises.matching_claims`).
So is a claim that starts with the regular-expression comment ``(?#phrase)``: an answer that is
one label (``naive bayes answers yes``, ``the majority is blue``), whose words are in every
sentence about the example, is found only as the phrase.
"""

from __future__ import annotations

import re

from genviz.exercises import claim_text, matching_claims

STOP = frozenset("""a an the and or of to in on at by for is are be it its this that so as with
from than then there their they we you your into which what when where how does do
does one per each same has have his her was were will would can""".split())

#: a claim starting with this regular-expression comment is matched as a phrase
PHRASE = "(?#phrase)"

_SUFFIXES = ("ational", "ations", "ation", "ings", "ing", "edly", "ies", "ied", "ed", "es",
             "er", "est", "ly", "s")


def stem(word: str) -> str:
    """A crude stem: common suffixes and a final e dropped, a stem kept at least 3 letters.

    >>> [stem(w) for w in ["curves", "curve", "crosses", "cross", "larger", "large", "blurs"]]
    ['curv', 'curv', 'cross', 'cross', 'larg', 'larg', 'blur']
    >>> [stem(w) for w in ["notes", "note", "not"]]
    ['note', 'note', 'not']
    """
    w = word.lower()
    if any(ch.isdigit() for ch in w):
        return w
    for suf in _SUFFIXES:
        # a stem of at least 3 letters, 4 under "es" and a final e ("notes" is not "not")
        if w.endswith(suf) and len(w) - len(suf) >= (4 if suf == "es" else 3) \
                and not (suf == "s" and w.endswith("ss")):
            w = w[:-len(suf)]
            break
    if w.endswith("e") and len(w) > 4:
        w = w[:-1]
    return w


# a number with what it is divided by or written with ("1/n", "0.05") is one token
_TOKEN = re.compile(r"\d+(?:[./][^\W_]+)*|[^\W\d_]+")


def stems(text: str) -> set[str]:
    """The stems of the words and numbers of ``text`` (read by :func:`claim_text`), stop words
    dropped."""
    return {stem(t) for t in _TOKEN.findall(claim_text(text)) if t not in STOP}


# regular-expression syntax that carries no word: classes, escapes, quantifiers
_SYNTAX = re.compile(r"\[[^\]]*\]\{\d*,?\d*\}|\[[^\]]*\][*+?]?|\\[wWdDsSbB][*+?]?|"
                     r"\{\d*,?\d*\}|\\.")


def _words(fragment: str) -> frozenset[str]:
    return frozenset(stems(_SYNTAX.sub(" ", fragment).replace("?", " ").replace(".", " ")
                           .replace("*", " ").replace("+", " ")))


def slots(claim: str) -> list[list[frozenset[str]]]:
    """The claim's slots: a list of alternatives (each a set of stems) per slot.

    >>> [[sorted(alt) for alt in slot] for slot in slots(r"(fewer points|n shrinks)[^.]{0,60}larger h")]
    [[['few', 'point'], ['n', 'shrink']], [['h']], [['larg']]]
    """
    out, pos = [], 0
    for m in re.finditer(r"\(([^()]*)\)(\?)?", claim):
        out += [[frozenset({w})] for w in sorted(_words(claim[pos:m.start()]))]
        pos = m.end()
        if m.group(2):  # optional: not a key term
            continue
        alternatives = [_words(a.removeprefix("?:")) for a in m.group(1).split("|")]
        if all(alternatives):
            out.append(alternatives)
    out += [[frozenset({w})] for w in sorted(_words(claim[pos:]))]
    return out


def _is_formula(claim: str) -> bool:
    if claim.startswith(PHRASE):
        return True
    words = [alt for slot in slots(claim) for alt in slot
             if any(len(w) >= 3 and w.isalpha() for w in alt)]
    return len(words) < 2


def sentences(text: str) -> list[str]:
    """``text`` cut at sentence ends, blank lines, headings and list items."""
    return [s for s in re.split(r"(?<=[.!?;])\s+|\n\s*\n|\n(?=\s*(?:#|[*-] |\d+\. |\|))", text)
            if s.strip()]


def says(claim: str, text: str) -> bool:
    """Whether a sentence of ``text`` says ``claim``: every slot found, in any order."""
    if _is_formula(claim):
        return bool(matching_claims([claim], text))
    need = slots(claim)
    return any(all(any(alt <= have for alt in slot) for slot in need)
               for have in map(stems, sentences(text)))


def said_claims(claims, text: str) -> list[str]:
    """The claims some sentence of ``text`` says (by key terms), or matches (formulas)."""
    return [c for c in claims if says(c, text)]

"""The check every exercise builder's test makes: its right answer is right, a wrong one (an
independent near miss) is wrong, and no answer is "not answered"."""

from __future__ import annotations


def assert_right_and_wrong(ex, right, wrong) -> None:
    assert ex.check(right).correct is True, (right, str(ex.check(right)))
    assert ex.check(wrong).correct is False, wrong
    assert ex.check(...).correct is None

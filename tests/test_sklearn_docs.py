"""The examples of docs/scikit-learn.md run, with the outputs the page shows.

Every ``pycon`` block of the page is a doctest; the blocks run in order in one namespace (as a
reader types them). Skipped when scikit-learn is not installed (genviz does not need it).
"""

import doctest
import pathlib
import re

import pytest

pytest.importorskip("sklearn")

PAGE = pathlib.Path(__file__).resolve().parents[1] / "docs" / "scikit-learn.md"
BLOCK = re.compile(r"^```pycon\n(.*?)^```", re.S | re.M)


def blocks(text):
    return BLOCK.findall(text)


def run_page(text):
    """Failures and attempts of the page's examples, run in order in one namespace."""
    parser = doctest.DocTestParser()
    test = parser.get_doctest("\n".join(blocks(text)), {}, PAGE.name, str(PAGE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    return runner.summarize(verbose=False)


def test_the_page_has_examples_and_they_all_pass():
    text = PAGE.read_text()
    assert len(blocks(text)) >= 5
    for needed in ("cross_val_score", "StratifiedKFold", "GridSearchCV", "GDA()",
                   "LogisticRegression()", "KNNClassifier", "MultinomialNB"):
        assert needed in text
    result = run_page(text)
    assert result.attempted >= 30 and result.failed == 0


def test_a_wrong_output_on_the_page_fails():
    text = PAGE.read_text().replace("{'knnclassifier__k': 9}", "{'knnclassifier__k': 5}")
    assert run_page(text).failed == 1


def test_the_page_is_in_the_sites_table_of_contents():
    index = (PAGE.parent / "index.md").read_text()
    assert re.search(r"^scikit-learn$", index, re.M)

"""genviz.studies.learning_curves: notebook 10's learning-curve explorer, computed. Oracle: the
curves' own arrays (numpy means and standard errors over repetitions, the leader from the
paired differences); bad sizes and labels refused naming the argument."""

from __future__ import annotations

import numpy as np
import pytest

from genviz.nb_vs_logistic import NBvsLogisticCurves, leader
from genviz.studies.learning_curves import LearningCurveStudy


def _curves():
    sizes = np.array([10, 100, 1000])
    nb = np.array([[0.20, 0.10, 0.08], [0.24, 0.11, 0.08], [0.22, 0.12, 0.08]])
    lr = np.array([[0.30, 0.11, 0.05], [0.32, 0.10, 0.05], [0.31, 0.12, 0.05]])
    return NBvsLogisticCurves(sizes, nb, lr, 50, 400)


def _se(e):
    return e.std(axis=0, ddof=1) / np.sqrt(e.shape[0])


def test_the_static_part_is_both_curves_means_and_standard_errors():
    c = _curves()
    s = LearningCurveStudy(c, labels=("NB", "LR")).static()
    assert s.sizes == (10, 100, 1000) and s.labels == ("NB", "LR")
    np.testing.assert_allclose(s.gen_mean, c.nb_errors.mean(axis=0))
    np.testing.assert_allclose(s.lr_mean, c.lr_errors.mean(axis=0))
    np.testing.assert_allclose(s.gen_se, _se(c.nb_errors))
    np.testing.assert_allclose(s.lr_se, _se(c.lr_errors))


def test_the_result_at_m_is_the_curves_at_that_size():
    """Oracle: numpy's mean and standard error of the repetitions at that size, and
    genviz.nb_vs_logistic.leader."""
    c = _curves()
    study = LearningCurveStudy(c)
    for j, n in enumerate(c.sizes):
        r = study(n=int(n))
        nb, lr = c.nb_errors[:, j], c.lr_errors[:, j]
        assert r.n == n and r.sizes == [10, 100, 1000]
        assert r.gen_error == pytest.approx(nb.mean()) and r.lr_error == pytest.approx(lr.mean())
        assert r.gen_se == pytest.approx(nb.std(ddof=1) / np.sqrt(nb.size))
        assert r.lr_se == pytest.approx(lr.std(ddof=1) / np.sqrt(lr.size))
        assert r.gap == pytest.approx(nb.mean() - lr.mean())
        assert r.leader == leader(c, int(n))
        assert r.labels == ("naive Bayes", "logistic regression")
    assert [study(n=n).leader for n in (10, 1000)] == ["nb", "lr"]
    assert study.defaults() == {"n": 1000} and study.parameter_names() == ("n",)


@pytest.mark.parametrize("bad", [5, 10.0, True, "10"])
def test_a_size_not_on_the_curves_is_refused(bad):
    with pytest.raises(ValueError, match="n must be one of the curves' sizes"):
        LearningCurveStudy(_curves())(n=bad)


def test_none_is_the_largest_size():
    assert LearningCurveStudy(_curves())(n=None).n == 1000


def test_bad_curves_and_labels_are_refused():
    with pytest.raises(TypeError, match="curves must be NBvsLogisticCurves"):
        LearningCurveStudy({"sizes": [10]})
    with pytest.raises(ValueError, match="labels must be two"):
        LearningCurveStudy(_curves(), labels=("only one",))


def test_a_selection_slider_maps_positions_to_its_options_and_refuses_others():
    from genviz.widgets._base import selection_slider
    s = selection_slider("n", [10, 30, 100], 30)
    assert (s.n, s.to_front(), s.from_front(2), s.grid_values()) == (2, 1, 100, [10, 30, 100])
    assert s.spec()["labels"] == ["10", "30", "100"]
    s.value = 100
    assert s.value == 100 and s.to_front() == 2
    with pytest.raises(ValueError, match="n: 50 is not one of the options"):
        s.value = 50
    with pytest.raises(ValueError, match="position 3 outside 0..2"):
        s.from_front(3)
    with pytest.raises(ValueError, match="options must not be empty"):
        selection_slider("n", [], 1)


def test_the_investigation_result_is_the_chosen_settings_curves_read_at_m():
    """VocabularyCurveStudy (notebook 10's investigation). Oracle: numpy on the setting's
    repetitions, crossing_size, and the settled sizes by hand."""
    from genviz.studies.learning_curves import VocabularyCurveStudy
    from genviz.studies.learning_curves_vocabulary import VocabularyCurves
    c = _curves()
    flat = NBvsLogisticCurves(c.sizes, c.nb_errors, c.nb_errors + 0.01, 50, 400)
    sweep = VocabularyCurves(c.sizes, (50,), ("presence", "counts"),
                             {(50, "presence"): c, (50, "counts"): flat}, 1.0, 1.0)
    static = VocabularyCurveStudy(sweep, labels=("NB", "LR")).static()
    assert static.sizes == (10, 100, 1000) and static.labels == ("NB", "LR")
    assert static.top == pytest.approx(max((e.mean(0) + _se(e)).max() for e in
                                           (c.nb_errors, c.lr_errors, flat.lr_errors)))
    r = VocabularyCurveStudy(sweep)(d=50, features="presence", n=100)
    assert r.d == 50 and r.features == "presence" and r.n == 100
    assert r.gen_se_n == pytest.approx(_se(c.nb_errors)[1])
    assert r.lr_se_n == pytest.approx(_se(c.lr_errors)[1])
    # the error bars the figure draws: mean ± standard error per size (numpy's, above)
    for key, errors in (("gen", c.nb_errors), ("lr", c.lr_errors)):
        mean, se = np.mean(errors, axis=0), _se(errors)
        assert len(r.bars[key]) == len(r.sizes)
        for (lo, hi), s_, a, e in zip(r.bars[key], r.sizes, mean, se):
            assert lo[0] == hi[0] == s_ and lo[1] == pytest.approx(a - e)
            assert hi[1] == pytest.approx(a + e)
    # logistic regression clearly ahead only at 1000 (0.05 against 0.08, fitted once)
    assert r.crossing == 1000 and r.crossing_text == "logistic regression clearly ahead from n = 1000"
    # naive Bayes' means 0.22, 0.11, 0.08: within 0.01 of 0.08 only at 1000; likewise LR's
    assert (r.nb_settled, r.lr_settled) == (1000, 1000)
    assert r.crossing_per_word == pytest.approx(1000 / 50)
    r = VocabularyCurveStudy(sweep, tol=0.05)(d=50, features="counts")
    assert r.crossing is None and r.crossing_text.startswith("no crossing in range")
    assert np.isnan(r.crossing_per_word)
    assert (r.nb_settled, r.lr_settled) == (100, 100)

"""Naive Bayes exercises: a right and a wrong answer each; the answers are the worked numbers."""

from genviz import datasets
from genviz.exercises import naive_bayes as nx


def test_counting_exercises_on_enjoy_sport():
    t = datasets.enjoy_sport()
    ex = nx.conditional_by_counting(t.X, t.y, t.feature_names, "Forecast", "same", "yes")
    assert ex.check(2 / 3).correct and not ex.check(0.5).correct
    assert "0.66" not in str(ex.check(0.5))
    ex = nx.conditional_by_counting(t.X, t.y, t.feature_names, "Forecast", "same", "yes", alpha=1)
    assert ex.check(3 / 5).correct and not ex.check(2 / 3).correct

def test_query_exercises_on_play_tennis():
    t = datasets.play_tennis()
    q = ["Sunny", "Cool", "High", "Strong"]
    ex = nx.posterior_of_query(t.X, t.y, t.feature_names, q, "No", alpha=0.0)
    assert ex.check(0.795).correct and not ex.check(0.205).correct
    ex = nx.decision_of_query(t.X, t.y, t.feature_names, ["Overcast", "Hot", "High", "Weak"])
    assert ex.check("Yes").correct and not ex.check("No").correct

def test_continuous_exercises():
    ex = nx.living_area_bin(890)
    assert ex.check(3).correct and not ex.check(2).correct
    assert nx.living_area_bin(1600).check(5).correct
    p = datasets.penguins()
    x = p.X[:, 2]
    ex = nx.gaussian_nb_parameters(x, p.y, "Gentoo")
    g = x[p.y == "Gentoo"]
    assert ex.check([g.mean(), g.var()]).correct
    assert not ex.check([g.mean(), g.var(ddof=1) * 1.05]).correct
    ex = nx.parameter_count(4, 3)
    assert ex.check(26).correct and not ex.check(24).correct
    assert "Not answered" in str(ex.check(...))
    assert "= 26" in str(ex.solution())

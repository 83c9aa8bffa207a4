"""Exercises for notebook 09 (nearest neighbours and random projections)."""

from __future__ import annotations

import numpy as np

from genviz._validation import check_points, check_vector
from genviz.exercises import Exercise
from genviz.knn import KNNClassifier, KNNRegressor
from genviz.projections import jl_min_dim

__all__ = ["majority_vote", "knn_regression_value", "jl_dimension", "distance_computations"]


def majority_vote(X, y, query, k) -> Exercise:
    """Which class does k-NN give the query? (Algorithm 1.2 by hand on a few points.)"""
    X = check_points(X, "X")
    q = check_vector(query, "query", d=X.shape[1])
    clf = KNNClassifier(k).fit(X, y)
    label = clf.predict(q[None, :])[0]
    dist, ind = clf.kneighbors(q[None, :])
    return Exercise(
        f"With k = {k}, which label does the k-nearest-neighbour classifier give the query "
        f"x = {q.tolist()}? (Answer with the label.)",
        label.item() if hasattr(label, "item") else label,
        hint="Compute the Euclidean distance from x to every point, keep the k smallest, and "
             "count the labels among them; equal votes go to the smaller label.",
        solution=(f"The {k} nearest points are rows "
                  f"{', '.join(str(int(i)) for i in ind[0])} at distances "
                  f"{', '.join(f'${v:.3f}$' for v in dist[0])}; their labels are "
                  f"{', '.join(str(v) for v in np.asarray(y)[ind[0]])}, and the majority is "
                  f"**{label}**."),
    )


def knn_regression_value(x, y, x0, k) -> Exercise:
    """The k-NN regression estimate at x0: the average of the k nearest y values."""
    x = check_vector(x, "x")
    reg = KNNRegressor(k).fit(x[:, None], y)
    value = float(reg.predict([[float(x0)]])[0])
    _, ind = reg.kneighbors([[float(x0)]])
    return Exercise(
        f"What is the {k}-nearest-neighbour regression estimate at x = {x0}?",
        value,
        hint="Find the k data points whose x is closest to x0 and average their y values "
             "(not their x values).",
        solution=(f"The {k} nearest $x_i$ are "
                  f"{', '.join(f'${v:.3f}$' for v in x[np.sort(ind[0])])}; the average of their "
                  rf"$y_i$ is $\hat y({x0}) = {value:.4f}$."),
    )


def jl_dimension(m, eps) -> Exercise:
    """The Johnson-Lindenstrauss target dimension for m points and distortion eps."""
    d = jl_min_dim(m, eps)
    return Exercise(
        f"By Dasgupta and Gupta's form of the Johnson-Lindenstrauss lemma, d >= 4 ln(m) / "
        f"(eps^2/2 - eps^3/3). What is the smallest integer d for m = {m} points and "
        f"eps = {eps}?",
        d,
        hint="Use the natural logarithm and round up to the next integer.",
        solution=(rf"$\dfrac{{4 \ln {m}}}{{{eps}^2/2 - {eps}^3/3}} = "
                  rf"{4 * np.log(m) / (eps**2 / 2 - eps**3 / 3):.2f}$, rounded up: $d = {d}$."),
        rtol=0.0, atol=0.5,
    )


def distance_computations(n_train, n_queries, n_features, d) -> Exercise:
    """How many times fewer multiply-adds does brute-force k-NN need after projecting to d?"""
    ratio = n_features / d
    return Exercise(
        f"Brute-force k-NN compares each of {n_queries} queries with {n_train} training points "
        f"in {n_features} dimensions. After a random projection to d = {d} dimensions, by what "
        f"factor does the number of multiply-adds in the distance computations shrink "
        f"(ignore the cost of projecting)?",
        ratio,
        hint="Each distance costs one multiply-add per coordinate; the numbers of queries and "
             "training points do not change.",
        solution=(rf"${n_queries} \times {n_train} \times {n_features}$ multiply-adds against "
                  rf"${n_queries} \times {n_train} \times {d}$: the factor is "
                  rf"${n_features}/{d} = {ratio:g}$."),
    )

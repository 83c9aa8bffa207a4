"""Exercises for notebook 01 (probability, joint tables, learning a joint)."""

from __future__ import annotations

import math

import numpy as np

from genviz.exercises import Choice, Exercise, Observation, OpenQuestion, Prediction
from genviz.exercises.choice import _transfer
from genviz.exercises.derivation import Derivation, Step, Symbol, read_formula
from genviz.joint import JointTable, dimensionality_curve, record_counts

__all__ = ["posterior_by_bayes", "parameter_count",
           "dataset_log_likelihood", "predict_empty_share", "independence_concept",
           "fewest_records_to_fill",
           "training_log_likelihood_derivation", "clinic_joint_table"]


def _explorer_curve(records, names, n, seed):
    """The curve the dimensionality explorer shows for ``n`` records: its subset is the first
    ``n`` of a seeded permutation (``genviz.plots.joint.DimensionalityView``)."""
    records = np.asarray(records, dtype=object)
    order = np.random.default_rng(seed).permutation(len(records))
    return dimensionality_curve(records[order[:n]], names)


def _fmt(assignment: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in assignment.items())


def posterior_by_bayes(table, hypothesis: dict, evidence: dict) -> Exercise:
    """``P(H | E)`` from ``P(E | H) P(H) / P(E)``."""
    r = table.bayes(hypothesis, evidence)
    return Exercise(
        f"Use Bayes' rule: what is P({_fmt(hypothesis)} | {_fmt(evidence)})?",
        r.posterior,
        hint="P(H | E) = P(E | H) P(H) / P(E); each part is a sum of table rows, or take "
             "P(H, E) / P(E) directly.",
        solution=(rf"$P(E \mid H) = {r.likelihood:.4g}$, $P(H) = {r.prior:.4g}$, "
                  rf"$P(E) = {r.evidence:.4g}$, so $P(H \mid E) = \dfrac{{P(E \mid H)\,P(H)}}"
                  rf"{{P(E)}} = \dfrac{{{r.likelihood:.4g} \times {r.prior:.4g}}}{{{r.evidence:.4g}}}"
                  rf" = {r.posterior:.4g}$."),
        objective="01.1",
    )


def parameter_count(cardinalities: dict) -> Exercise:
    """Free parameters of the full joint table over variables with these numbers of values."""
    cells = math.prod(cardinalities.values())
    times = r" \times "
    return Exercise(
        f"How many free parameters has the full joint table over {cardinalities} "
        f"(variable: number of values)?",
        cells - 1,
        hint="One probability per row of the truth table (the product of the numbers of values), "
             "but they must sum to 1.",
        solution=(f"${times.join(map(str, cardinalities.values()))} = {cells}$ cells, minus 1 "
                  rf"because the probabilities must sum to 1: ${cells} - 1 = {cells - 1}$."),
        objective="01.4",
    )


def dataset_log_likelihood(table, records) -> Exercise:
    """``sum_i log P(x_i)`` of a few records under the table (natural log)."""
    return Exercise(
        f"What is the log-likelihood (natural log) of these {len(records)} records under the "
        f"table?",
        table.log_likelihood(records),
        hint="Records are independent: log P(dataset) = sum_i log P(x_i). Look up each record's "
             "row; a zero-probability record makes the sum -inf.",
        solution=(r"Records are i.i.d., so $\log \hat P(\text{dataset}) = \sum_i \log \hat P(x_i)$: "
                  r"look up each record's probability and add the natural logs "
                  r"(`table.log_likelihood(records)`)."),
        objective="01.3",
    )


def _empty_share_transfer(cards=(6, 2, 5, 10), n=600, *, seed=0) -> Choice:
    """The analogous situation after 01's cycle: a clinic's records over attributes that depend
    on each other, against what records thrown at random would leave empty (computed: random
    records, drawn seeded, counted by :func:`genviz.joint.dimensionality_curve`)."""
    gen = np.random.default_rng(seed)
    thrown = np.column_stack([gen.integers(0, c, n) for c in cards]).astype(str)
    curve = dimensionality_curve(thrown)
    cells, random_share = int(curve["cells"][-1]), float(curve["empty_fraction"][-1])
    return _transfer(
        "01-empty-share", 2,
        f"A clinic has {n} patient records over age band ({cards[0]} values), smoker "
        f"({cards[1]}), blood-pressure band ({cards[2]}) and diagnosis ({cards[3]}): {cells} "
        f"cells, {n / cells:g} record per cell on average. Roughly what share of the cells "
        f"holds no patient?",
        [("none: one record per cell on average fills every cell",
          "An average of one record per cell is not one record in each cell: "
          "records can share a cell."),
         (f"about {random_share:.0%}, what records thrown at random would leave",
          "That is what independent, uniform attributes would give: are age, "
          "smoking, blood pressure and diagnosis independent?"),
         (f"more than {random_share:.0%}: patients fill only some combinations", None),
         (f"less than {random_share:.0%}: related answers spread out evenly",
          "Dependence concentrates the records on some combinations; it does not "
          "spread them.")],
        explanation=(f"Thrown at random, {n} records would leave about {random_share:.0%} of "
                     f"the {cells} cells empty (a seeded draw counted by genviz; "
                     f"$(1 - 1/{cells})^{{{n}}}$ in expectation). Real patients are not random: "
                     f"diagnoses go with age and smoking, young patients rarely have high blood "
                     f"pressure, so the dependent attributes leave more cells empty than chance "
                     f"does, and the learned table calls every such patient impossible."),
        claims=[r"dependent attributes leave more cells empty than (chance|random)"])


def predict_empty_share(records, names, d=4, *, seed=0) -> Prediction:
    """Before the dimensionality explorer: with all the records and ``d`` variables, what share
    of the cells is empty? (Computed from the explorer's own table.) The options are bands of
    the share; the wrong ones are what records spread evenly, or at random, would leave."""
    n = len(records)
    curve = _explorer_curve(records, names, n, seed)
    empty = float(curve["empty_fraction"][d - 1])
    cells = int(curve["cells"][d - 1])
    bands = [(0.0, 0.0), (0.0, 0.1), (0.1, 0.4), (0.4, 1.0)]
    right = next(i for i, (lo, hi) in enumerate(bands)
                 if (lo < empty <= hi) or (lo == hi == empty))
    added = names[d - 1]
    return Prediction(
        f"The explorer below starts with d = {d - 1} variables. Raise d to {d} (it adds "
        f"{added}): the table then has {cells} cells for the {n} records, about "
        f"{n / cells:.1f} records per cell. What share of the cells is empty?",
        ["none: there are more records than cells",
         "a few, under 10 %",
         "between 10 % and 40 %",
         "more than 40 %"],
        right, id="01-empty-share",
        explanation=("Records do not spread evenly over the cells, nor at random: the "
                     "attributes depend on each other. Most cars with many cylinders are "
                     "American and bad on mileage, the Asian cars of those years have few "
                     "cylinders, so the records crowd into the combinations that exist and "
                     "many combinations get no record at all. A table learned by counting "
                     "calls every empty cell impossible, and an average of several records per "
                     "cell says nothing about how many cells stay empty: most cells are empty "
                     "long before the records per cell run out."),
        reasons=["More records than cells does not put a record in every cell: they can pile "
                 "up in a few.",
                 "That is what records thrown at random would leave; are mileage, maker and "
                 "cylinders independent?",
                 "The attributes are strongly dependent: which combinations of cylinders and "
                 "maker exist at all?",
                 None],
        claims=[r"most cells are empty", r"records (crowd|pile)[^.]{0,40}(few|combinations)"],
        transfer=_empty_share_transfer(),
        observation=Observation(
            f"Keep n = {n}. Compare the share of empty cells at d = {d - 1} with the share at "
            f"d = {d}: record both.",
            100 * empty, setting={"d": d, "n": n}, read=lambda state: 100 * state["empty_at_d"],
            before={"d": d - 1}, expected_before=100 * float(curve["empty_fraction"][d - 2]),
            what="the share of empty cells", unit="%",
            hint="read the readout's line 'empty cells' (a percentage, 1 decimal).",
            atol=0.06))


def independence_concept(p_high=0.9) -> Choice:
    """If A and B are independent given C, are they independent? (A counter-example table is
    built and measured with genviz.)"""
    # C a fair coin; given C, A and B are independent Bernoulli(p) with p depending on C
    probs = []
    for a in (0, 1):
        for b in (0, 1):
            for c in (0, 1):
                p = p_high if c else 1 - p_high
                probs.append(0.5 * (p if a else 1 - p) * (p if b else 1 - p))
    table = JointTable({"A": [0, 1], "B": [0, 1], "C": [0, 1]}, probs)
    given = table.independence_gap("A", "B", given="C")
    gap = table.independence_gap("A", "B")
    return Choice(
        "Naive Bayes assumes that features are independent given the class. If A ⊥ B | C (A and "
        "B independent given C), are A and B independent?",
        ["yes, always: conditioning can only remove dependence",
         "not necessarily: it depends on the joint table",
         "only when C has two values"],
        1, id="01-independence-given-c",
        claims=[r"conditional independence (does not imply|is not)[^.]{0,30}independence"],
        explanation=(rf"Conditional independence does not imply independence. A "
                     rf"counter-example: a fair coin $C$; given $C$, $A$ and $B$ are "
                     rf"independent coins that land 1 with probability {p_high} if $C = 1$ and "
                     rf"{1 - p_high:.1f} if $C = 0$. The gap $\max|P(A,B\mid C) - "
                     rf"P(A\mid C)P(B\mid C)|$ is {given:.2g}, but without $C$ the gap is "
                     rf"{gap:.3f}: $A = 1$ makes $C = 1$ likely, hence $B = 1$. (The reverse fails "
                     rf"too: two independent causes of an alarm become dependent once you know "
                     rf"it rang.)"),
        reasons=["Conditioning can also remove independence: two causes of one alarm.",
                 "Both directions fail: each property can hold without the other.",
                 "The number of values of C plays no role: think of a hidden common cause."],
        hint="Think of C as a hidden common cause of A and B.", objective="01.2",
    )


# -- practice that climbs: an investigation, a derivation, an open question ---------------------

def fewest_records_to_fill(records, names, d, filled, *, seed=0) -> Exercise:
    """Investigation with the dimensionality explorer: the fewest records ``n`` (its slider) for
    which at least ``filled`` cells of the ``d``-variable table hold a record.

    Computed by running the explorer's own study (the first ``n`` records of its seeded order,
    :func:`genviz.joint.dimensionality_curve`) at every position of the slider. The records are
    nested, so the number of filled cells never falls as ``n`` grows.

    Examples
    --------
    >>> recs = np.array([["a", "x"], ["a", "y"], ["b", "x"], ["b", "y"]] * 5, dtype=object)
    >>> fewest_records_to_fill(recs, ["u", "v"], 2, 3).kind
    'investigation'
    """
    records = np.asarray(records, dtype=object)
    filled = int(filled)
    grid = record_counts(len(records)).tolist()  # the slider's positions
    found = next((n for n in grid
                  if _explorer_curve(records, names, n, seed)["occupied"][d - 1] >= filled), None)
    below = grid[grid.index(found) - 1] if found is not None and found != grid[0] else None
    if found is None:
        raise ValueError(f"even all {len(records)} records fill fewer than {filled} cells of "
                         f"the d = {d} table; ask for fewer")
    full = _explorer_curve(records, names, len(records), seed)
    cells, most = int(full["cells"][d - 1]), int(full["occupied"][d - 1])
    return Exercise(
        f"Investigate with the explorer: set d = {d} variables, then move the records slider n. "
        f"What is the fewest records n on the slider for which at least {filled} cells of the "
        f"table hold a "
        f"record (the readout's 'distinct')?",
        found,
        hint="Lower n one step at a time (arrow keys) from all the records and watch "
             "'distinct': adding records can fill a cell, never empty one, so it only grows "
             "with n.",
        solution=(f"{found} records fill {filled} cells of the d = {d} table"
                  + ("" if below is None else
                     f"; the slider's position below, {below} records, fills "
                     f"{int(_explorer_curve(records, names, below, seed)['occupied'][d - 1])}")
                  + f". All {len(records)} records fill only {most} of its "
                  f"{cells} cells: the first records land in new cells, later ones mostly "
                  f"repeat a combination already seen, so each added record fills less. A "
                  f"table needs far more records than cells before every cell is filled."),
        kind="investigation", atol=0.5, rtol=0.0, objective="01.4")


def training_log_likelihood_derivation(records, names, values=None) -> Derivation:
    r"""Derivation, written: the log-likelihood of the training records under the table learned
    from them by counting, cell by cell (``c`` records in a cell, ``N`` in all), then per record.

    The keys are checked here against :meth:`genviz.joint.JointTable.log_likelihood` of the
    learned table on ``records``: the cells' contributions add up to it.

    Examples
    --------
    >>> recs = [["a", "x"], ["a", "x"], ["b", "y"]]
    >>> q = training_log_likelihood_derivation(recs, ["u", "v"])
    >>> print(q.check_step(0, "c log(c/N)"))
    Correct!
    """
    records = np.asarray(records, dtype=object)
    table = JointTable.from_records(records, names, values)
    _, counts = np.unique(np.asarray(records, dtype=str), axis=0, return_counts=True)
    total = float(table.log_likelihood(records))
    symbols = {"c": Symbol("c", 1, 50, integer=True), "N": Symbol("N", 60, 5000, integer=True)}
    cell, per_record = (read_formula(k, symbols) for k in ("c*log(c/N)", "c/N*log(c/N)"))
    env = {"c": counts.astype(float), "N": float(counts.sum())}
    if not (np.isclose(cell(env).sum(), total, rtol=1e-12)
            and np.isclose(per_record(env).sum(), total / counts.sum(), rtol=1e-12)):
        raise RuntimeError("the counting derivation disagrees with JointTable.log_likelihood")
    steps = [
        Step(r"The $c$ training records that fall in one cell: what do they add to "
             r"$\sum_i \log \hat P(x_i)$?", "c*log(c/N)", r"c\log(c/N)",
             mistakes={"log(c/N)": "Each of the c records adds the cell's log-probability: "
                                   "c of them.",
                       "log(1/N)": "The learned table gives the cell c/N, not 1/N."}),
        Step(r"Divide by $N$: what does the cell add to the **average** log-likelihood per "
             r"record?", "c/N*log(c/N)", r"\tfrac{c}{N}\log(c/N)",
             mistakes={"log(c/N)/N": "The cell still holds c records: c/N of the data."}),
    ]
    return Derivation(
        "A table is learned by counting from $N$ training records ($c$ of them in a cell, so "
        r"$\hat P(\text{cell}) = c/N$). Derive the training set's log-likelihood "
        r"$\sum_{i=1}^N \log \hat P(x_i)$ as a sum over the table's cells.", steps,
        symbols=symbols, id="01-counting-log-likelihood", objective="01.3",
        explanation=(r"Group the records by the cell they fall in: the $c$ records of a cell "
                     r"all have $\hat P(x_i) = c/N$, so they contribute $c \log(c/N)$, and "
                     r"empty cells contribute nothing: $\sum_i \log \hat P(x_i) = "
                     r"\sum_{\text{cells}} c \log(c/N)$. Dividing by $N$ gives "
                     r"$\sum (c/N) \log (c/N)$, minus the entropy of the learned table: the "
                     rf"average log-likelihood per record. (On these {len(records)} records: "
                     rf"{total:.2f}.)"),
        claims=[r"c log ?\( ?c ?/ ?n ?\)"],
        hint="Write the sum over records as a sum over cells: how many records share a cell's "
             "probability?")


def clinic_joint_table(n_symptoms=12, n_patients=500) -> OpenQuestion:
    """Open transfer question: a full joint table for a clinic's symptoms and diagnosis."""
    cells = 2 ** (n_symptoms + 1)
    return OpenQuestion(
        f"A clinic records {n_symptoms} yes/no symptoms and a yes/no diagnosis for "
        f"{n_patients} patients, and wants $P(\\text{{diagnosis}} \\mid \\text{{symptoms}})$ "
        f"from the full joint table learned by counting. What goes wrong for a new patient, and "
        f"what would you do instead?",
        (f"The full table has $2^{{{n_symptoms + 1}}} = {cells}$ cells for {n_patients} "
         f"records: at least {cells - n_patients} cells are empty, so most combinations of "
         f"symptoms were never seen. For a new patient with such a combination the learned "
         f"table gives probability 0 to both diagnoses and the conditional is $0/0$, undefined "
         f"(and one such test record makes a data set's log-likelihood $-\\infty$). Laplace "
         f"smoothing makes it defined but then rests on pseudo-counts, not data. Instead make "
         f"an assumption that needs fewer parameters: with the symptoms independent given the "
         f"diagnosis (naive Bayes, notebook 6) it takes $2 \\times {n_symptoms} + 1 = "
         f"{2 * n_symptoms + 1}$ numbers, each estimated from hundreds of patients; or use "
         f"fewer symptoms."),
        key_points={"counts the cells against the patients": r"cells|\b{0}\b|2\^".format(cells),
                    "most combinations were never seen: probability 0 or 0/0":
                        r"empty|never (seen|occur)|0 ?/ ?0|zero|undefined|impossible",
                    "needs fewer parameters: an assumption (naive Bayes) or fewer variables":
                        r"naive|independen|fewer (variables|symptoms|parameters)|assum"},
        # its key is the count of this table's empty cells: a phrase, not the words "cells",
        # "empty" of any sentence about a sparse table
        claims=[r"(?#phrase)(at least|about|most of the) \d+ cells (are|stay) empty"],
        objective="01.4")

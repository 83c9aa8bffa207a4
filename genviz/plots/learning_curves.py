"""A learning-curve view: a generative learner against logistic regression, test error against
the training-set size, with a marker at one size (notebook 10's explorer).

The view only draws what :mod:`genviz.nb_vs_logistic` (or :mod:`genviz.experiments`) computed:
the curves' means and standard errors and who is ahead at the chosen size
(:func:`genviz.nb_vs_logistic.leader`).
"""

from __future__ import annotations

import numpy as np

from genviz.nb_vs_logistic import NBvsLogisticCurves, leader
from genviz.plots._base import View, fmt, new_figure
from genviz.plots.style import PALETTE, explorer_figsize

__all__ = ["LearningCurveView"]


class LearningCurveView(View):
    """Both learners' mean test error (± one standard error) against the training-set size
    ``m`` on a log axis, and a marker at ``m``.

    ``curves`` is a :class:`genviz.nb_vs_logistic.NBvsLogisticCurves` (its ``sizes`` and
    ``mean_se``, and :func:`~genviz.nb_vs_logistic.leader`). ``update(m=)`` moves the marker to one
    of the curves' sizes. ``state`` has ``m``, ``sizes``, ``gen_error``/``gen_se`` and
    ``lr_error``/``lr_se`` at ``m``, ``gap`` (generative minus logistic) and ``leader``
    (``"nb"``, ``"lr"`` or ``"tie"``: ahead by more than two standard errors of the paired
    differences).
    """

    PARAMS = ("m",)

    def __init__(self, curves, m=None, *, labels=("naive Bayes", "logistic regression"),
                 figsize=None):
        if not isinstance(curves, NBvsLogisticCurves):
            raise TypeError(f"curves must be NBvsLogisticCurves (genviz.nb_vs_logistic), got "
                            f"{type(curves).__name__}")
        self.curves = curves
        self.sizes = [int(s) for s in np.asarray(curves.sizes)]
        self.labels = tuple(labels)
        (gen, gen_se), (lr, lr_se) = curves.mean_se("nb"), curves.mean_se("lr")
        self._mean, self._se = {"gen": gen, "lr": lr}, {"gen": gen_se, "lr": lr_se}
        super().__init__(new_figure(figsize=figsize or explorer_figsize(7.8, 4.2)))
        ax = self.ax = self.fig.add_subplot(1, 1, 1)
        colours = {"gen": PALETTE["green"], "lr": PALETTE["purple"]}
        for key, label, marker in (("gen", self.labels[0], "o"), ("lr", self.labels[1], "s")):
            ax.errorbar(self.sizes, self._mean[key], yerr=self._se[key], marker=marker, ms=5,
                        capsize=3, color=colours[key], label=label)
        ax.set_xscale("log")
        ax.set_xlabel("training emails m (log scale)")
        ax.set_ylabel("test error")
        ax.grid(alpha=0.3, which="both")
        ax.legend(loc="upper right", fontsize="small")
        self._cursor = self.animate(ax.axvline(self.sizes[0], color=PALETTE["black"], ls="--",
                                               lw=1.2))
        (self._dots,) = ax.plot([], [], "o", ms=12, mfc="none", mec=PALETTE["vermillion"], mew=2)
        self.animate(self._dots)
        self.params = {"m": self.sizes[-1] if m is None else m}
        self.update(**self.params)
        self.finish_layout()

    def update(self, **params):
        m = params.get("m", self.params["m"])
        if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or int(m) not in self.sizes:
            raise ValueError(f"m must be one of the curves' sizes {self.sizes}, got {m!r}")
        m = int(m)
        j = self.sizes.index(m)
        self.params = {"m": m}
        g, lr = float(self._mean["gen"][j]), float(self._mean["lr"][j])
        self._cursor.set_xdata([m, m])
        self._dots.set_data([m, m], [g, lr])
        self.state = dict(m=m, sizes=list(self.sizes), gen_error=g,
                          gen_se=float(self._se["gen"][j]), lr_error=lr,
                          lr_se=float(self._se["lr"][j]), gap=g - lr,
                          leader=leader(self.curves, m), labels=self.labels)

    def describe(self) -> str:
        """Alt text from the state: both curves and the errors at the marked size."""
        s = self.state
        ahead = {"nb": f"{self.labels[0]} ahead", "lr": f"{self.labels[1]} ahead",
                 "tie": "neither clearly ahead"}[s["leader"]]
        return (f"Learning curves: test error of {self.labels[0]} and {self.labels[1]} against "
                f"the number of training emails m from {self.sizes[0]} to {self.sizes[-1]} "
                f"(log scale), with error bars. At m = {s['m']}, marked: {self.labels[0]} "
                f"{fmt(s['gen_error'])}, {self.labels[1]} {fmt(s['lr_error'])}; {ahead}.")

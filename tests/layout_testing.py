"""The headless text-layout check shared by tests/test_layout.py (explorers' views) and
tests/test_static_layout.py (the static ``*_figure`` functions).

How overlaps are found: the figure is drawn once with Agg's drawing calls disabled (layout and
text metrics only, fast), every ``Text`` that is actually drawn (visible, non-empty, tick labels
inside the view limits included, animated artists drawn by a view's draw_event handler included)
is recorded with its rendered extent, and so is every legend's box.
"""

from __future__ import annotations

import contextlib
import itertools

import matplotlib.legend as mlegend
import matplotlib.text as mtext

from genviz.plots.style import FIGURE_DPI, figure_width_budget

TOLERANCE_PX = 1.0  # extents may touch by this much (anti-aliasing, rounding)


@contextlib.contextmanager
def _recording():
    """Record every Text and Legend drawn inside the block."""
    drawn = {"texts": [], "legends": []}
    text_draw, legend_draw = mtext.Text.draw, mlegend.Legend.draw

    def record_text(self, renderer):
        text_draw(self, renderer)
        if self.get_visible() and self.get_text().strip() and (self.get_alpha() is None
                                                               or self.get_alpha() > 0):
            drawn["texts"].append(self)

    def record_legend(self, renderer):
        legend_draw(self, renderer)
        if self.get_visible():
            drawn["legends"].append(self)

    mtext.Text.draw, mlegend.Legend.draw = record_text, record_legend
    try:
        yield drawn
    finally:
        mtext.Text.draw, mlegend.Legend.draw = text_draw, legend_draw


def _label(t) -> str:
    return repr(t.get_text()[:40])


def figure_width_in(fig) -> float:
    """The figure's width in inches at :data:`FIGURE_DPI` (what a browser shows 1:1)."""
    return fig.get_figwidth() * fig.dpi / FIGURE_DPI


def drawn_texts(fig) -> tuple[list, list]:
    """``(texts, legends)`` the figure draws now (one draw with the drawing calls disabled)."""
    renderer = fig.canvas.get_renderer()
    with _recording() as drawn, renderer._draw_disabled():
        fig.draw(renderer)  # a view's draw_event handler draws its animated artists too
    # The blit background cached by that draw holds no pixels: an explorer's next PNG may be
    # wrong, which no test here looks at (a full redraw per check would double the runtime).
    return list(dict.fromkeys(drawn["texts"])), list(dict.fromkeys(drawn["legends"]))


def figure_layout_problems(fig, *, width_budget: float | None = -1.0, drawn=None) -> list[str]:
    """Texts that overlap one another or a legend they are not in, or leave the figure; a
    figure wider than ``width_budget`` inches (default: :func:`figure_width_budget` of the
    current style; ``None``: width not checked). Empty when the layout is clean.
    ``drawn``: the result of :func:`drawn_texts` if the caller has it already."""
    problems = []
    budget = figure_width_budget() if width_budget == -1.0 else width_budget
    width = figure_width_in(fig)
    if budget is not None and width > budget + 1e-6:
        problems.append(f"figure {width:.2f} in wide > budget {budget} in")
    texts, legends = drawn_texts(fig) if drawn is None else drawn
    renderer = fig.canvas.get_renderer()
    boxes = [mtext.Text.get_window_extent(t, renderer) for t in texts]
    W, H = fig.bbox.width, fig.bbox.height

    def outside(b):
        return (b.x0 < -TOLERANCE_PX or b.y0 < -TOLERANCE_PX or b.x1 > W + TOLERANCE_PX
                or b.y1 > H + TOLERANCE_PX)

    for t, b in zip(texts, boxes):
        if outside(b):
            problems.append(f"text {_label(t)} leaves the figure: "
                            f"[{b.x0:.0f}, {b.x1:.0f}] x [{b.y0:.0f}, {b.y1:.0f}] in {W:.0f} x {H:.0f}")

    def overlap(a, b):
        return (min(a.x1, b.x1) - max(a.x0, b.x0) > TOLERANCE_PX
                and min(a.y1, b.y1) - max(a.y0, b.y0) > TOLERANCE_PX)

    for (t1, b1), (t2, b2) in itertools.combinations(zip(texts, boxes), 2):
        if overlap(b1, b2):
            problems.append(f"texts {_label(t1)} and {_label(t2)} overlap")
    for legend in legends:
        lb = legend.get_window_extent(renderer)
        own = set(legend.texts) | {legend.get_title()}
        if outside(lb):
            problems.append(f"a legend leaves the figure: [{lb.x0:.0f}, {lb.x1:.0f}] x "
                            f"[{lb.y0:.0f}, {lb.y1:.0f}] in {W:.0f} x {H:.0f}")
        for t, b in zip(texts, boxes):
            if t not in own and overlap(lb, b):
                problems.append(f"text {_label(t)} overlaps a legend")
    return problems

"""The narrow (phone) layout of every explorer (issue #37, item 2), headless, no browser.

Every explorer case (tests/explorer_testing.py) is built inside
:func:`genviz.plots.style.narrow_mode` and checked at its default state and with each control at
both ends of its range: the figure is :data:`~genviz.plots.style.NARROW_FIGURE_WIDTH` wide;
every text it draws (tick labels, axis labels, titles, legend texts, annotations) is at least
:data:`~genviz.plots.style.MIN_TEXT_PT` (11 CSS px shown 1:1 on a phone), lies inside the
figure and overlaps no other text (two tick labels of one axis included); its panels are
stacked (no two axes side by side, except the pair :func:`genviz.plots.style.row_or_pair_over_one`
draws over a third, each panel at least :data:`PAIR_MIN_WIDTH` of the figure); and the same case in the wide layout keeps the size it had
before the narrow layout existed. Each check is shown to fail on a planted fault (a 7-pt label,
two panels side by side, a label outside the figure), and the narrow grid of a few
representative explorers fits the states budget.
"""

from __future__ import annotations

import itertools

import matplotlib.pyplot as plt
import matplotlib.text as mtext
import pytest

from explorer_testing import (explorer_cases, found_message, make_explorer,
                              problems_across_controls)
from genviz.plots._base import new_figure
from genviz.plots.style import (MIN_TEXT_PT, NARROW_FIGURE_WIDTH, by_layout, explorer_figsize,
                                legend_columns, narrow_mode, subplot_grid, table_panel_grid,
                                text_size)
from layout_testing import TOLERANCE_PX, drawn_texts, figure_layout_problems

#: Each case's wide figure size in inches as it was before the narrow layout (main at e5857dd):
#: converting a painter must not change its wide layout. Two designs were made shorter since,
#: on purpose (#37 item 6, one screen at 1280x800): gda_vs_logistic 4.8 -> 4.5, threshold
#: 6.4 -> 5.6.
WIDE_SIZES = {
    "bandwidth_explorer": (7.8, 5.8), "categorical_nb_explorer": (7.8, 5.1),
    "categorical_nb_explorer_enjoysport": (7.8, 5.1), "dimensionality_explorer": (7.8, 5.6),
    "discretize_explorer": (7.8, 5.0), "email_explorer": (7.5, 4.8),
    "gaussian_explorer": (7.8, 4.3), "gaussian_explorer_contours": (7.0, 4.6),
    "gda_fit_explorer": (7.8, 4.7), "gda_vs_logistic_explorer": (7.0, 4.5),
    "histogram_explorer": (7.0, 4.0), "kde2d_explorer": (6.4, 4.8), "kde_explorer": (7.0, 4.0),
    "kde_nb_explorer": (7.8, 5.0), "knn_classification_explorer": (7.8, 4.6),
    "knn_regression_explorer": (7.8, 3.0), "learning_curve_explorer": (7.8, 4.2),
    "nb_vs_gda_explorer": (7.8, 4.0), "projection_explorer": (7.8, 3.7),
    "threshold_explorer": (7.8, 5.6), "vocabulary_curve_explorer": (7.8, 4.2),
}


# -- the checks --------------------------------------------------------------------------------
def small_texts(texts) -> list[str]:
    """Texts drawn smaller than MIN_TEXT_PT."""
    return [f"text {t.get_text()[:30]!r} is {t.get_fontsize():.1f} pt < {MIN_TEXT_PT} pt"
            for t in texts if t.get_fontsize() < MIN_TEXT_PT - 1e-6]


def tick_overlaps(fig) -> list[str]:
    """Two visible tick labels of one axis that overlap (also in figure_layout_problems; stated
    on its own, per axis, as the issue asks)."""
    renderer = fig.canvas.get_renderer()
    found = []
    for ax in fig.axes:
        if not ax.get_visible():
            continue
        for axis in ax._axis_map.values():
            labels = [t for t in axis.get_ticklabels(which="both")
                      if t.get_visible() and t.get_text().strip()]
            boxes = [mtext.Text.get_window_extent(t, renderer) for t in labels]
            for (t1, b1), (t2, b2) in itertools.combinations(zip(labels, boxes), 2):
                if (min(b1.x1, b2.x1) - max(b1.x0, b2.x0) > TOLERANCE_PX
                        and min(b1.y1, b2.y1) - max(b1.y0, b2.y0) > TOLERANCE_PX):
                    found.append(f"tick labels {t1.get_text()!r} and {t2.get_text()!r} overlap")
    return found


#: The narrowest panel of row_or_pair_over_one's pair, as a share of the figure's width (a square
#: map of the plane 1 in = 100 CSS px wide on a phone; its text is held to the same rules).
PAIR_MIN_WIDTH = 0.3


def side_by_side(fig) -> list[str]:
    """Pairs of visible axes side by side: sharing a band of height but not of width (a twin
    axes, or an inset within its panel's width, shares both). The pair that
    ``row_or_pair_over_one`` draws (marked ``narrow_pair``) may, if each is wide enough."""
    boxes = [(ax, ax.get_position()) for ax in fig.axes if ax.get_visible()]
    found = []
    for (a, p), (b, q) in itertools.combinations(boxes, 2):
        share_height = min(p.y1, q.y1) - max(p.y0, q.y0) > 1e-3
        share_width = min(p.x1, q.x1) - max(p.x0, q.x0) > 1e-3
        if not share_height or share_width:
            continue
        pair = getattr(a, "narrow_pair", False) and getattr(b, "narrow_pair", False)
        if not pair:
            found.append(f"axes {a.get_title()!r} and {b.get_title()!r} side by side")
        elif min(p.width, q.width) < PAIR_MIN_WIDTH:
            found.append(f"axes {a.get_title()!r} and {b.get_title()!r}: a pair narrower than "
                         f"{PAIR_MIN_WIDTH} of the figure")
    return found


#: The tallest narrow figure, in inches: at 3.4 in for a 345-CSS-px column (~101 px an inch) it
#: is ~660 px, so on a 390x844 phone the figure and a slider fit one screen. EnjoySport's seven
#: bar charts stacked one a row were 10.9 in, two screens: the slider's effect out of sight.
MAX_NARROW_HEIGHT = 6.5


def narrow_problems(fig) -> list[str]:
    """Every way the figure breaks the narrow layout's rules (empty: none)."""
    problems = []
    if abs(fig.get_figwidth() - NARROW_FIGURE_WIDTH) > 1e-6:
        problems.append(f"figure {fig.get_figwidth():.2f} in wide, not {NARROW_FIGURE_WIDTH} in")
    if fig.get_figheight() > MAX_NARROW_HEIGHT + 1e-6:
        problems.append(f"figure {fig.get_figheight():.2f} in high, more than "
                        f"{MAX_NARROW_HEIGHT} in (a phone screen with its controls): put small "
                        f"panels two a row (genviz.plots.panels.narrow_top_and_pairs)")
    drawn = drawn_texts(fig)
    problems += small_texts(drawn[0])
    problems += figure_layout_problems(fig, width_budget=NARROW_FIGURE_WIDTH, drawn=drawn)
    problems += tick_overlaps(fig)
    problems += side_by_side(fig)
    return problems


# -- every explorer ------------------------------------------------------------------------------
#: the cases whose narrow copy this process has built (test_wide_layout_keeps_its_size builds one
#: first only when the narrow test of its case did not run before it: a -k run)
_NARROW_BUILT: set = set()


@pytest.mark.parametrize("case", explorer_cases())
def test_narrow_layout_of_every_explorer(case):
    """Default state, then each control at both ends (first, middle, last of options)."""
    with narrow_mode():
        e = make_explorer(case)
        _NARROW_BUILT.add(case)
        try:
            assert e.view.fig.get_figwidth() == pytest.approx(NARROW_FIGURE_WIDTH)
            found = problems_across_controls(e, lambda e: narrow_problems(e.view.fig))
        finally:
            e.close()
            plt.close("all")
    assert not found, found_message(case, "narrow", found)


@pytest.mark.parametrize("case", sorted(WIDE_SIZES))
def test_wide_layout_keeps_its_size(case):
    """The wide figure of each case is the size it was before the narrow layout (and building
    a narrow copy first does not leak into it: the one test_narrow_layout_of_every_explorer
    built, or one built here)."""
    if case not in _NARROW_BUILT:
        with narrow_mode():
            make_explorer(case).close()
        _NARROW_BUILT.add(case)
    e = make_explorer(case)
    try:
        assert tuple(e.view.fig.get_size_inches()) == pytest.approx(WIDE_SIZES[case])
    finally:
        e.close()
        plt.close("all")


def test_every_recorded_wide_size_is_of_an_explorer_case():
    """WIDE_SIZES locks the sizes the explorers had before the narrow layout came; an explorer
    added since has no size from before, so a new topic adds nothing here (issue #41, item 1).
    A recorded case that no longer exists is stale."""
    stale = sorted(set(WIDE_SIZES) - set(explorer_cases()))
    assert not stale, f"WIDE_SIZES records explorer cases that no longer exist: {stale}"


# -- each check fails on a planted fault --------------------------------------------------------
def _narrow_figure(plant=None):
    """A clean two-panel narrow figure, or one with a planted fault."""
    with narrow_mode():
        fig = new_figure(figsize=explorer_figsize(7.8, 3.9, panels=(1, 2)))
        axes = (fig.subplots(1, 2) if plant == "side by side" else subplot_grid(fig, 1, 2))
        if plant == "thin pair":  # the exempt pair, but each panel a quarter of the figure
            axes = fig.subplots(1, 4)[:2]
            for ax in axes:
                ax.narrow_pair = True
        for i, ax in enumerate(axes):
            ax.plot([0, 1], [0, 1], label="a line")
            ax.set_title(f"panel {i + 1}")
            ax.set_xlabel("$x$")
            ax.set_ylabel("$y$")
        axes[0].legend(loc="upper left")
        if plant == "7 pt":
            axes[1].set_xlabel("$x$", fontsize=7)
        if plant == "ticks":
            axes[1].set_xticks([0.0, 0.02], ["zero", "two hundredths"])
        fig.set_layout_engine("constrained")
        fig.draw_without_rendering()
        fig.set_layout_engine("none")
        if plant == "outside":  # after the layout, which would make room for it
            axes[1].text(0.8, 0.5, "a label past the right edge", transform=axes[1].transAxes)
        return fig


def test_the_clean_figure_passes():
    assert narrow_problems(_narrow_figure()) == []


@pytest.mark.parametrize("plant, expected", [
    ("7 pt", "7.0 pt < 8.0 pt"),
    ("side by side", "side by side"),
    ("thin pair", "a pair narrower than"),
    ("outside", "leaves the figure"),
    ("ticks", "tick labels 'zero' and 'two hundredths' overlap"),
])
def test_each_check_fails_on_a_planted_fault(plant, expected):
    problems = narrow_problems(_narrow_figure(plant))
    assert any(expected in p for p in problems), problems


def test_a_figure_taller_than_a_phone_screen_fails_the_height_check():
    fig = new_figure(figsize=(NARROW_FIGURE_WIDTH, 10.91))  # EnjoySport's, stacked one a row
    fig.subplots(7, 1)
    assert any("10.91 in high" in p for p in narrow_problems(fig))


def test_narrow_top_and_pairs_puts_the_panels_two_a_row_and_refuses_too_few():
    from matplotlib.figure import Figure

    from genviz.plots.style import narrow_top_and_pairs
    for n, rows in ((2, 2), (6, 4), (7, 5)):
        fig = Figure(figsize=(NARROW_FIGURE_WIDTH, 6))
        top, panels = narrow_top_and_pairs(fig, n)
        assert len(panels) == n and top.get_subplotspec().colspan == range(0, 2)
        assert top.get_gridspec().nrows == rows == 1 + -(-n // 2)
        assert all(ax.narrow_pair for ax in panels) and not getattr(top, "narrow_pair", False)
        assert side_by_side(fig) == []  # the pairs are allowed: each half the figure wide
    for bad in (1, 0, 2.0, True, "3"):
        with pytest.raises(ValueError, match="n must be"):
            narrow_top_and_pairs(Figure(), bad)


def test_a_wide_figure_fails_the_width_check():
    fig = new_figure(figsize=(7.8, 3.9))
    fig.subplots(2, 1)
    assert any("not 3.4 in" in p for p in narrow_problems(fig))


# -- the style helpers the painters use -----------------------------------------------------------
def test_layout_helpers_leave_the_wide_layout_alone():
    assert by_layout(1, 2) == 1 and text_size("x-small") == "x-small"
    assert legend_columns(3) == 3 and table_panel_grid(5) == (2, 3)
    assert explorer_figsize(7.5, 4.8, narrow_aspect=1.0) == (7.5, 4.8)
    with narrow_mode():
        assert by_layout(1, 2) == 2
        assert text_size("x-small") == MIN_TEXT_PT and text_size(11) == 11
        assert legend_columns(3) == 2 and table_panel_grid(7) == (7, 1)
        # 3.4 * 1.0 + 0.2: a square panel and the margin
        assert explorer_figsize(7.5, 4.8, narrow_aspect=1.0) == (3.4, 3.6)


@pytest.mark.parametrize("kwargs, name", [
    (dict(panels=(0, 2)), "panels"), (dict(panels=(1, 1.5)), "panels"),
    (dict(narrow_aspect=0.1), "narrow_aspect"), (dict(narrow_aspect=3.0), "narrow_aspect"),
])
def test_explorer_figsize_refuses_bad_arguments_in_both_layouts(kwargs, name):
    for layout in (False, True):
        with (narrow_mode() if layout else _nothing()):
            with pytest.raises(ValueError, match=name):
                explorer_figsize(7.8, 3.9, **kwargs)
    with pytest.raises(ValueError, match="ncol"):
        legend_columns(0)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


# -- the narrow grid fits the budget --------------------------------------------------------------
@pytest.mark.parametrize("case", ["knn_classification_explorer", "threshold_explorer",
                                  "gaussian_explorer", "categorical_nb_explorer_enjoysport"])
def test_narrow_grid_fits_the_budget(case):
    """states.build_grid of a headless narrow copy (what widgets/payload.py builds for a
    phone): within MAX_STATES and MAX_BYTES (GridBudgetError otherwise)."""
    from genviz.widgets import states

    with narrow_mode():
        with states.headless():
            e = make_explorer(case)
        try:
            blob = states.build_grid(e)
            grid, _ = states.read_grid(blob)
        finally:
            e.close()
            plt.close("all")
    assert len(blob) <= states.MAX_BYTES
    assert 1 < len(grid["states"]) <= states.MAX_STATES


def test_row_or_pair_over_one_shares_its_axes_and_refuses_unknown_keywords():
    from matplotlib.figure import Figure

    from genviz.plots.style import row_or_pair_over_one
    for layout in (False, True):
        with (narrow_mode() if layout else _nothing()):
            axes = row_or_pair_over_one(Figure(), sharey=True)
            assert len(axes) == 3
            assert all(ax.get_shared_y_axes().joined(axes[0], ax) for ax in axes)
            assert [getattr(ax, "narrow_pair", False) for ax in axes] == [layout, layout, False]
            with pytest.raises(ValueError, match="squeeze"):
                row_or_pair_over_one(Figure(), squeeze=False)

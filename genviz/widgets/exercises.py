"""A button that hides an exercise's worked solution until the learner asks for it."""

from __future__ import annotations

import html

import ipywidgets as widgets

__all__ = ["solution_toggle"]


def solution_toggle(exercise) -> widgets.VBox:
    """A "Show solution" toggle; the solution HTML is empty until the button is pressed."""
    button = widgets.ToggleButton(value=False, description="Show solution", icon="eye",
                                  tooltip="Reveal the worked solution and the answer")
    box = widgets.HTML("")

    def on_toggle(change):
        if change["new"]:
            sol = exercise.solution()
            box.value = (f"<div style='white-space:pre-wrap'>{html.escape(sol.text)}</div>"
                         f"<div><b>Answer:</b> <code>{html.escape(sol.answer)}</code></div>")
            button.description = "Hide solution"
        else:
            box.value = ""
            button.description = "Show solution"

    button.observe(on_toggle, names="value")
    return widgets.VBox([button, box])

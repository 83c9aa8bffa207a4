"""After an explorer: record what it showed, then the verdict, the explanation and a why.

The second half of predict, observe, explain (the first is
:func:`genviz.widgets.predictions.prediction_box`; the module docstring there describes the
cycle). :func:`observation_box` takes the prediction asked before the explorer and the explorer
itself, which it reads only through ``explorer.values()`` and ``explorer.view.state``, when the
learner records a reading: the reading is checked against the explorer's own state at the
observation's stated setting (:meth:`genviz.exercises.Observation.check_reading`), never against
another setting. In lecture mode a *Reveal* toggle shows the room the reading and the
explanation once the room has voted twice.

An observation about a change (``Observation.before``) asks for two readings, *before* and
*after*, each checked at its own setting; the box keeps the "before" (shown in its field,
locked) while the learner moves the control, and the verdict shows the pair and how they
compare beside the learner's prediction and reason.
"""

from __future__ import annotations

import html
import weakref

import ipywidgets as widgets

from genviz.exercises._core import _stop, parse_answer
from genviz.exercises.observation import _reading
from genviz.plots.style import is_lecture_mode
from genviz.widgets import room as _room
from genviz.widgets._choice import ChoiceBox, _static_choice_html
from genviz.widgets._static_box import StaticFallback, static_card
from genviz.widgets.predictions import (_LISTENERS, _RECORDS, PredictionRecord, _changed,
                                        _check_prediction, _md, _option, _report)

__all__ = ["ObservationBox", "observation_box", "static_observation_html"]

#: what a reading recorded before the commit is told (cleared by the commit)
COMMIT_FIRST = "Commit a prediction in the box above the explorer first: predict, then observe."
#: what Reveal before the room's second vote is told (cleared by that vote)
VOTES_FIRST = ("Take the room's two votes in the box above the explorer first: vote, discuss "
               "with your neighbour, vote again.")
#: the start of what a reading at an explorer's invalid setting is told (cleared by a valid one)
EXPLORER_ERROR = "The explorer shows an error at this setting: set "


class ObservationBox(StaticFallback, widgets.VBox):
    """Record what the explorer showed; then the verdict, the explanation and a one-line why.

    Attributes
    ----------
    prediction : Prediction
    observation : Observation
        ``prediction.observation``.
    explorer : Explorer or None
        Read through ``values()`` and ``view.state`` only, when a reading is recorded.
    lecture : bool
    heading : ipywidgets.HTMLMath
        The observation's prompt.
    text : ipywidgets.Text
        What the learner saw (not in lecture mode): the "after" reading.
    texts : dict
        Stage (``"before"``, ``"after"``) -> its ipywidgets.Text (not in lecture mode); one
        field, ``text``, for an observation that is not about a change.
    kept : dict
        Stage -> the reading recorded there (float, or a list for a two-part reading).
    button : ipywidgets.Button or ipywidgets.ToggleButton
        Record; in lecture mode the Reveal toggle.
    feedback : ipywidgets.HTMLMath
    show_button : ipywidgets.Button
        "Show me the reading", offered after two readings that do not match.
    explanation : ipywidgets.HTMLMath
        Empty until the reading is recorded (or revealed).
    why : ipywidgets.Text
        The learner's one line, kept in the record (shown with the explanation).
    transfer : ChoiceBox or None
        The prediction's analogous situation (``Prediction(transfer=...)``), shown after the
        explanation: the same idea in another setting, checked like any choice.
    attempts : int
        Readings that did not match.
    """

    def __init__(self, prediction, explorer=None, *, lecture: bool | None = None,
                 width: str = "420px"):
        self.prediction = _check_prediction(prediction)
        self.observation = prediction.observation
        if self.observation is None:
            raise ValueError(f"prediction {prediction.id!r} has no observation: give it one "
                             f"(Prediction(..., observation=Observation(...)))")
        if explorer is not None and not (callable(getattr(explorer, "values", None))
                                         and hasattr(getattr(explorer, "view", None), "state")):
            raise TypeError(f"explorer must be a genviz explorer (with values() and view.state) "
                            f"or None, got {type(explorer).__name__}")
        self.explorer = explorer
        self.lecture = is_lecture_mode() if lecture is None else bool(lecture)
        self.attempts = 0
        self.last = None
        self.kept = {}
        obs = self.observation
        self.heading = widgets.HTMLMath(f"<b>Observe.</b> {_md(obs.prompt)}")
        self.feedback = widgets.HTMLMath("")
        self.explanation = widgets.HTMLMath("")
        hidden = widgets.Layout(display="none")
        self.show_button = widgets.Button(description="Show me the reading", icon="eye",
                                          tooltip="Show what the explorer shows at the setting",
                                          layout=widgets.Layout(display="none", width="auto"))
        self.show_button.on_click(lambda _: self.show_reading())
        self.why = widgets.Text(value="", placeholder="In one line: why did it turn out so?",
                                description="Why?", continuous_update=False,
                                style={"description_width": "50px"},
                                layout=widgets.Layout(width="560px"))
        self.why_button = widgets.Button(description="Keep", icon="check",
                                         tooltip="Keep your one line (it is not graded)",
                                         layout=widgets.Layout(width="auto", min_width="90px"))
        self.why_button.on_click(lambda _: self.keep_why())
        self.why_row = widgets.HBox([self.why, self.why_button], layout=hidden)
        self.texts = {}
        if self.lecture:
            self.text = None
            self.button = widgets.ToggleButton(value=False, description="Reveal", icon="eye",
                                               tooltip="Show the room what happened, and why",
                                               layout=widgets.Layout(width="auto",
                                                                     min_width="120px"))
            self.button.observe(lambda change: self.reveal(change["new"]), names="value")
            row = widgets.HBox([self.button])
        else:
            row = self._reading_row(obs, width)
        self.transfer = None
        children = [self.heading, row, self.feedback, self.show_button, self.explanation,
                    self.why_row]
        if prediction.transfer is not None:
            self.transfer = ChoiceBox(prediction.transfer)
            self.transfer.question.value = (f"<b>An analogous situation.</b> "
                                            f"{_md(prediction.transfer.prompt)}")
            self.transfer.layout.display = "none"
            children.append(self.transfer)
        super().__init__(children)
        self._listen_for_commits()
        self.add_class("genviz-choice")
        self.add_class("genviz-observation")

    def _reading_row(self, obs, width: str):
        """The learner's fields (one per stage: Before/After, or You saw) and Record."""
        typed = f"{', '.join(obs.parts)}, as the explorer shows them" if obs.parts else \
            f"{obs.what}, as the explorer shows it"
        for stage in obs.stages:
            label = {"before": "Before", "after": "After"}[stage] if obs.before else \
                "You saw"
            where = f" at {obs.setting_text(stage)}" if obs.before else ""
            self.texts[stage] = widgets.Text(
                value="", placeholder=typed + where, description=label,
                continuous_update=False, style={"description_width": "70px"},
                layout=widgets.Layout(width=width))
            self.texts[stage].observe(
                lambda c: self.record_reading() if c["new"].strip() else None, names="value")
        self.text = self.texts["after"]
        self.button = widgets.Button(description="Record", icon="check", button_style="primary",
                                     tooltip="Record what the explorer shows",
                                     layout=widgets.Layout(width="auto", min_width="110px"))
        self.button.on_click(lambda _: self.record_reading())
        fields = [self.texts[s] for s in obs.stages]
        row = (widgets.HBox([self.text, self.button]) if len(fields) == 1 else
               widgets.HBox([widgets.VBox(fields), self.button]))
        return row

    def _listen_for_commits(self) -> None:
        # a commit in the prediction box above clears "Commit a prediction ... first" here
        # (a reading recorded too early must not leave it standing), the room's second vote
        # "Take the room's two votes ... first", a valid setting the explorer's error; weak
        # references, so a closed or dropped box is not kept alive by the listener lists
        ref = weakref.ref(self)

        def on_change():
            box = ref()
            if box is None:
                if on_change in _LISTENERS:
                    _LISTENERS.remove(on_change)
            else:
                box._clear_stale_message()

        def on_control(_control):  # after the explorer's own refresh (observed first)
            box = ref()
            if box is not None and box._on_change in _LISTENERS:  # not closed
                box._clear_stale_message()

        self._on_change = on_change
        _LISTENERS.append(on_change)
        # a control moved to a valid setting clears "The explorer shows an error ..."
        for control in getattr(self.explorer, "controls", {}).values():
            control.observe(on_control)

    @property
    def record(self) -> PredictionRecord | None:
        """The prediction's record in this kernel (made by its prediction box)."""
        return _RECORDS.get(self.prediction.id)

    def _clear_stale_message(self) -> None:
        """A refusal whose cause is gone is cleared (#37 item 6): "Commit a prediction ...
        first" once the prediction is committed, "Take the room's two votes ... first" once the
        second vote is recorded, "The explorer shows an error ..." once it shows none."""
        record, shown = self.record, self.feedback.value
        if (shown == COMMIT_FIRST and record is not None and record.committed) or \
                (shown == VOTES_FIRST and record is not None and record.vote2 is not None) or \
                (shown.startswith(EXPLORER_ERROR)
                 and not getattr(self.explorer, "error", None)):
            self.feedback.value = ""

    def close(self):
        if getattr(self, "_on_change", None) in _LISTENERS:
            _LISTENERS.remove(self._on_change)
        super().close()

    # -- reading the explorer ------------------------------------------------------------------
    def _live(self):
        """(values, state) of the explorer, or (None, None) without one."""
        if self.explorer is None:
            return None, None
        return dict(self.explorer.values()), self.explorer.view.state

    def _stage_to_judge(self, values) -> str:
        """The stage a Record judges: the one the explorer is at (if its field is filled and
        not yet kept), else the first filled one not kept, else the first not kept."""
        open_ = [s for s in self.observation.stages if s not in self.kept]
        filled = [s for s in open_ if self.texts[s].value.strip()]
        if values is not None:
            at = self.observation.stage_at(values)
            if at in filled:
                return at
        return (filled or open_)[0]

    def record_reading(self, text: str | None = None, *, stage: str | None = None):
        """Check the typed reading against the explorer; when it matches, keep it, and once
        every reading is kept (before and after, for a change) record it and show the verdict
        and the explanation. ``text`` types into the field of ``stage`` (default: the one not
        kept yet; for a change "before" first). Returns the :class:`Feedback`, or None when
        nothing could be judged yet (no commit above)."""
        if stage is not None and stage not in self.observation.stages:
            raise ValueError(f"stage must be one of {self.observation.stages}, got {stage!r}")
        if text is not None:
            if stage is None:
                stage = next((s for s in self.observation.stages if s not in self.kept),
                             "after")
            if text != self.texts[stage].value:
                self.texts[stage].value = text  # its observer records it
                return self.last
        record = self.record
        if record is None or not record.committed:
            self.last = None
            self.feedback.value = COMMIT_FIRST
            return None
        if record.observed_done:
            return self.last
        values, state = self._live()
        if getattr(self.explorer, "error", None):
            self.last = None
            self.feedback.value = (EXPLORER_ERROR
                                   + f"{html.escape(self.observation.setting_text())}.")
            return None
        obs = self.observation
        stage = self._stage_to_judge(values)
        field = self.texts[stage]
        self.last = obs.check_reading(field.value, state=state, values=values, stage=stage)
        self.feedback.value = self.last.to_html()
        if self.last.correct:
            like = obs.expected_before if stage == "before" else obs._answer
            self.kept[stage] = _reading(parse_answer(obs._strip(field.value), like))
            field.disabled = True
            missing = [s for s in obs.stages if s not in self.kept]
            if missing:
                self.feedback.value += (f" Kept. Now set {html.escape(obs.setting_text(missing[0]))}"
                                        f" and record the {missing[0]} reading.")
                return self.last
            record.observed = self.kept["after"]
            record.before = self.kept.get("before")
            self.button.disabled = True
            self.button.description = "Recorded"
            self.show_button.layout.display = "none"
            _report(self.prediction.id, "observation", record.observed)
            self._explain(html.escape(obs.saw_text(record.observed, record.before)))
        elif self.last.correct is False:
            self.attempts += 1
            if self.attempts >= 2:
                self.show_button.layout.display = None
        return self.last

    def _reference(self, state, stage: str = "after"):
        return _reading(self.observation.reference(state, stage))

    def _readings(self) -> dict:
        """Stage -> what the explorer shows there: live at the stage it is at, else genviz's
        (a reading already kept stays)."""
        obs = self.observation
        values, state = self._live()
        out = {}
        for stage in obs.stages:
            live = values is not None and not obs.off_setting(values, stage)
            out[stage] = self.kept.get(stage, self._reference(state if live else None, stage))
        return out

    def _reading_text(self) -> str:
        """What the explorer shows at the setting(s)."""
        obs, got = self.observation, self._readings()
        if obs.before is None:
            return f"{obs.saw_text(got['after'])} (at {obs.setting_text()})"
        return obs.saw_text(got["after"], got["before"])

    def show_reading(self) -> None:
        """Show the reading instead of recording it (offered after two that did not match)."""
        record = self.record
        if record is None or not record.committed or record.observed_done:
            return
        record.shown = True
        record.before = self._readings().get("before")
        for field in self.texts.values():
            field.disabled = True
        self.button.disabled = True
        self.show_button.layout.display = "none"
        self.feedback.value = f"The explorer shows {html.escape(self._reading_text())}."
        _report(self.prediction.id, "observation", None)
        self._explain(html.escape(self._reading_text()) + " (shown)")

    # -- the explanation -------------------------------------------------------------------------
    def _explain(self, saw: str) -> None:
        p, record = self.prediction, self.record
        mine = record.final
        rows = []
        if self.lecture:
            rows.append(("The room's votes", _room_votes(p, record)))
        else:
            rows.append(("Your prediction", _md(_option(p, mine))))
        if record.reason:
            rows.append(("Your reason", html.escape(record.reason)))
        rows.append(("What the explorer showed", saw))
        table = "".join(f"<tr><th style='text-align:left;padding-right:1em'>{k}</th>"
                        f"<td>{v}</td></tr>" for k, v in rows)
        held = mine in p.correct
        verdict = ("held" if held else "did not hold") if not self.lecture else \
            ("was right" if held else "was not right")
        who = "The room's prediction" if self.lecture else "Your prediction"
        reason = p.reasons[mine]
        right = " or ".join(_md(_option(p, i)) for i in p.correct)
        self.explanation.value = (
            f"<table class='genviz-saw'>{table}</table>"
            f"<p><b>{who} {verdict}.</b> The answer: {right}{_stop(right)} "
            f"{_md(reason) if reason and not held else ''}</p>"
            f"<div>{_md(p.explanation)}</div>")
        if not self.lecture:
            self.why_row.layout.display = None
        if self.transfer is not None:
            self.transfer.layout.display = None
        _changed()

    def reveal(self, show: bool = True) -> None:
        """Lecture mode: after the room's second vote, show the reading and the explanation
        (or fold them again)."""
        record = self.record
        if show and (record is None or record.vote2 is None):
            self.feedback.value = VOTES_FIRST
            self.button.value = False
            return
        if show:
            self.feedback.value = ""
            if record.observed is None:
                got = self._readings()
                record.observed, record.before = got["after"], got.get("before")
                _report(self.prediction.id, "observation", record.observed)
            self._explain(html.escape(self._reading_text()))
        else:
            self.explanation.value = ""
            if self.transfer is not None:
                self.transfer.layout.display = "none"
        if self.button.value != show:
            self.button.value = show
        self.button.description = "Hide" if show else "Reveal"

    def keep_why(self, text: str | None = None) -> str:
        """Keep the learner's one line in the record (not graded). Returns it."""
        if text is not None:
            self.why.value = text
        record = self.record
        line = " ".join(self.why.value.split())[:300]
        if record is None or not record.observed_done:
            return ""
        record.why = line
        _report(self.prediction.id, "why", line)
        self.why_button.description = "Kept" if line else "Keep"
        _changed()
        return line

    def _static(self) -> tuple[str, str]:
        """(html, text) where no widget manager runs: the observation's prompt, then
        what happens and why folded in ``<details>``."""
        return (static_observation_html(self.prediction),
                f"Observe: {self.observation.prompt} Run this notebook to record it; then the "
                f"explanation is shown.")


def _room_votes(p, record) -> str:
    """The room's first and second vote; with the poll service's counts (lecture mode on the
    course hub), how many chose each."""
    room = record.room

    def one(rnd, i):
        if room is not None and room["voters"][rnd]:  # the room's counts: a tie named as one
            return _room.room_choice(room["counts"][rnd], room["voters"][rnd],
                                     lambda j: _md(_option(p, j)))
        return _md(_option(p, i))

    if room is not None and not room["voters"]["2"]:
        return f"{one('1', record.vote1)} (no second vote)"
    return f"{one('1', record.vote1)} → {one('2', record.vote2)}"


def static_observation_html(prediction) -> str:
    """The observation without widgets: its prompt, then the answer and the explanation folded
    (what the course website shows under an explorer)."""
    p, obs = prediction, prediction.observation
    reasons = "".join(f"<li>{html.escape(_option(p, i))}: {_md(r)}</li>"
                      for i, r in enumerate(p.reasons) if r and i not in p.correct)
    reasons = f"<ul>{reasons}</ul>" if reasons else ""
    answer = " or ".join(html.escape(_option(p, i)) for i in p.correct)
    transfer = "" if p.transfer is None else (
        "<p><b>An analogous situation.</b></p>" + _static_choice_html(p.transfer))
    return static_card("genviz-choice genviz-observation", ("Observe", _md(obs.prompt)),
                       "Record what you see (run this notebook to record it in a box), then "
                       "open the explanation.",
                       folds=[("What happens, and why",
                               f"<p><b>{answer}{_stop(answer)}</b> {_md(p.explanation)}</p>"
                               f"{reasons}{transfer}")])


def observation_box(prediction, explorer=None, *, lecture: bool | None = None,
                    **kwargs) -> ObservationBox:
    """The box after an explorer: ``observation_box(p, explorer)`` with the prediction of the
    box before it and the explorer (read through ``values()`` and ``view.state``)."""
    return ObservationBox(prediction, explorer, lecture=lecture, **kwargs)



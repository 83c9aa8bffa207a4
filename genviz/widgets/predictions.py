"""Predict, observe, explain: the boxes around an explorer, and the learner's record of them.

The cycle (Sokoloff & Thornton's interactive lecture demonstrations; Crouch, Fagen, Callan &
Mazur, Am. J. Phys. 72, 2004), in three widgets a notebook puts around an explorer::

    p = exercises.predict_peak_with_rho(0.5, 0.9)
    prediction_box(p)                    # before the explorer: commit to an option
    explorer = gaussian_explorer(...)    # try it
    explorer
    observation_box(p, explorer)         # after it: record what it showed, then the explanation
    ...
    prediction_review()                  # at the end: which of your predictions failed, and why?

* :func:`prediction_box` — the question and its options. **Commit** locks the choice and says
  only "now try it" (no verdict, no explanation). In **lecture mode** (Voila, ``make present``)
  it is a question to the room, after Mazur's peer instruction: *Record vote 1* → "discuss with
  your neighbour" → *Record vote 2*.
* :func:`genviz.widgets.observations.observation_box` — the observation's prompt (set this, read that), a box for what the
  learner saw and **Record**. The reading is checked against the explorer's own state (see
  :class:`genviz.exercises.Observation`: never against another setting than the one stated);
  only a matching reading opens the verdict, the learner's prediction beside what they saw, the
  explanation, and a one-line "why?" (free text, kept, not graded). In lecture mode a *Reveal*
  toggle, active after the room's second vote, shows the reading and the explanation.
* :func:`prediction_review` — the learner's own committed predictions, observations and whys,
  from the kernel-side record (:func:`prediction_records`), updated as the boxes change.

Statically (the course website, GitHub, nbviewer) the prediction box is the question and its
options, and the observation box the observation's prompt and then the verdict and the
explanation folded in ``<details>``.

**One hook**: every stage (``"vote1"``, ``"vote2"``, ``"observation"``, ``"why"``) goes through
:func:`report_stage` (the boxes look it up on this module when a stage happens, so another
function can be assigned to ``genviz.widgets.predictions.report_stage``). Off a course hub it
does nothing. **On the course hub** (issue #31, :mod:`genviz.widgets.room`) it sends a learner's
vote 1 (the commit), vote 2 and recorded observation to the room's poll service, and the boxes
take part in the lecture:

* a learner's box (JupyterLab) says whether the commit counted in the room's vote, and offers
  **Vote again**: it asks the service which vote is open (one request, only when pressed) and
  unlocks the options to change the answer while the first vote is open, or for the second
  vote after the discussion;
* in lecture mode, for the hub's instructors, the box *is* the room's vote: the question, the
  lecturer's panel (:class:`genviz.widgets.room.LecturerPanel`: open, live count, close and
  the bars, second vote, reveal) and what to do next; the room's votes (the most chosen option
  of each round) are the record's, so the observation box's Reveal and the review follow them.
  Anyone else in lecture mode gets the box above, with the lecturer marking the room's votes.
"""

from __future__ import annotations

import dataclasses
import html
import threading

import ipywidgets as widgets

import genviz.widgets.room as _room
from genviz.exercises._core import _markdown_to_html, _stop
from genviz.plots.style import is_lecture_mode
from genviz.widgets import prediction_log as _log
from genviz.widgets._choice import _options_layout
from genviz.widgets._room_box import LearnerVote, LectureVote
from genviz.widgets._static_box import StaticFallback, static_card

__all__ = ["report_stage", "STAGES", "PredictionRecord", "prediction_records",
           "clear_prediction_records", "PredictionBox", "PredictionReview", "prediction_box",
           "prediction_review"]

#: The stages a prediction goes through, in order, as :func:`report_stage` names them: the
#: (first) vote — a learner's commit or the room's first vote —, the room's second vote
#: (lecture mode), the observation recorded, and the learner's one-line why.
STAGES = ("vote1", "vote2", "observation", "why")


def report_stage(question_id: str, stage: str, value):
    """Called once per stage of every prediction: on the course hub, a learner's stage goes to
    the room's poll service; anywhere else nothing happens (no thread, no network call).

    On the hub (:func:`genviz.widgets.room.on_hub`) ``vote1`` and ``vote2`` are sent as the
    learner's first and second vote, ``observation`` as the observation round's answer (the
    option the explorer showed: the right one, since a reading is recorded only when it matches
    the explorer; nothing when the learner asked to be shown it); ``why`` is never sent. The
    stages of a lecture box are the room's, not a learner's: they are not sent (the service
    counts the room itself). Returns the ``Future`` of the send, or None.

    Parameters
    ----------
    question_id : str
        The prediction's ``id`` (``"02-peak-with-rho"``).
    stage : {"vote1", "vote2", "observation", "why"}
        See :data:`STAGES`.
    value
        ``vote1``/``vote2``: the index of the option chosen, in the order shown
        (``prediction.options``); ``observation``: the reading (a float; None when the learner
        asked to be shown it); ``why``: the text.
    """
    if not _room.on_hub():
        return None
    record = _RECORDS.get(question_id)
    if record is None or record.lecture:
        return None
    observed = None
    if stage == "observation" and value is not None:
        observed = record.prediction.correct[0]
    return _room.send_stage(question_id, stage, value, observed=observed)


def _report(question_id: str, stage: str, value):
    # looked up at call time, so assigning a new report_stage to this module takes effect
    return globals()["report_stage"](question_id, stage, value)


# --- the kernel-side record ------------------------------------------------------------------

@dataclasses.dataclass
class PredictionRecord:
    """What one learner (or one room) did with one prediction in this kernel.

    Attributes
    ----------
    prediction : Prediction
    lecture : bool
        Whether it was asked to a room (two votes) or committed by one learner.
    vote1, vote2 : int or None
        The option committed (or the room's first vote), and the second vote (the room's, or
        on the course hub a learner's vote again).
    observed : float or None
        The reading recorded (None until recorded, or when it was shown instead).
    shown : bool
        The learner asked to be shown the reading instead of recording it.
    reason : str
        The learner's one-line reason given at commit ("" in lecture mode when none was
        written): part of the prediction, shown back at the verdict and in the review; never
        sent to the room (:func:`report_stage` has no stage for it).
    before : float or None
        The "before" reading of an observation about a change (``Observation.before``), kept
        once recorded (or shown, or revealed).
    why : str
        The learner's one line ("" until written).
    room : dict or None
        Lecture mode on the hub: the poll service's last counts of the question.
    """

    prediction: object
    lecture: bool = False
    vote1: int | None = None
    vote2: int | None = None
    observed: float | None = None
    shown: bool = False
    why: str = ""
    reason: str = ""
    before: float | None = None
    room: dict | None = None

    @property
    def id(self) -> str:
        return self.prediction.id

    @property
    def final(self) -> int | None:
        """The prediction that counts: the second vote in a room (or a learner's second vote
        on the hub), else the commit."""
        return self.vote2 if (self.lecture or self.vote2 is not None) else self.vote1

    @property
    def committed(self) -> bool:
        return self.final is not None

    @property
    def observed_done(self) -> bool:
        return self.observed is not None or self.shown

    @property
    def held(self) -> bool | None:
        """Whether the prediction held (None until it is committed and observed)."""
        if not self.committed or not self.observed_done:
            return None
        return self.final in self.prediction.correct


#: refusals of the prediction box, each cleared as soon as its cause is gone (#37 item 6): an
#: option chosen, a reason typed -- a message must not stay beside what it asks for
CHOOSE_FIRST = "Choose an option first, then press Commit."
REASON_FIRST = ("Write your reason first, in one line after <b>Because</b>: why do you expect "
                "it? Then press Commit.")
MARK_FIRST = "Mark the option most of the room chose, then record it."

_RECORDS: dict[str, PredictionRecord] = {}
_LISTENERS: list = []


def prediction_records(prefix: str | None = None) -> list[PredictionRecord]:
    """The records of this kernel's predictions, in the order their boxes were made; only the
    ids starting with ``prefix`` (a notebook's ``"02"``) if given."""
    return [r for k, r in _RECORDS.items() if prefix is None or k.startswith(prefix)]


def clear_prediction_records() -> None:
    """Forget every record (a fresh kernel's state)."""
    _RECORDS.clear()
    _changed()


def _record_for(prediction, *, lecture: bool = False, fresh: bool = False) -> PredictionRecord:
    """The record of ``prediction``'s id; a new one when ``fresh`` (a prediction box made or
    re-made: a re-run cell asks again) or when there is none yet."""
    record = _RECORDS.get(prediction.id)
    if fresh or record is None:
        record = PredictionRecord(prediction, lecture=bool(lecture))
        _RECORDS[prediction.id] = record
    return record


def _changed() -> None:
    _keep()
    for fn in list(_LISTENERS):
        fn()


def _row_of(record: PredictionRecord) -> dict:
    """What the review shows of one record: id, question, predicted, reason (given at commit),
    saw (before -> after for an observation about a change), held, why."""
    p = record.prediction
    obs = p.observation
    if not record.observed_done:
        saw = None
    elif record.shown:
        saw = "(shown)"
    elif obs is None:
        saw = str(record.observed)
    else:
        saw = obs.saw_text(record.observed, record.before)
    return {"id": record.id, "question": p.prompt,
            "predicted": _option(p, record.final) if record.committed else None,
            "reason": record.reason, "saw": saw, "held": record.held, "why": record.why}


def _keep() -> None:
    """The learner's committed predictions into the file beside the notebook
    (:mod:`genviz.widgets.prediction_log`; a room's votes are not kept)."""
    rows = [_row_of(r) for r in _RECORDS.values() if not r.lecture and r.committed]
    if rows:
        _log.write_log(rows)


def _check_prediction(prediction):
    if not (hasattr(prediction, "options") and hasattr(prediction, "correct")
            and getattr(prediction, "kind", None) == "prediction"):
        raise TypeError(f"prediction must be a genviz.exercises.Prediction, got "
                        f"{type(prediction).__name__}")
    return prediction


def _md(text: str) -> str:
    return _markdown_to_html(text)


def _option(prediction, i) -> str:
    return f"({prediction.label(i)}) {prediction.options[i]}"


# --- before the explorer: commit, or vote / discuss / vote ---------------------------------

class PredictionBox(StaticFallback, LearnerVote, LectureVote, widgets.VBox):
    """The question, its options as radio buttons, and Commit (or the room's two votes).

    On the course hub a learner's box also shows whether the vote counted in the room and
    offers *Vote again*; in lecture mode an instructor's box is the room's vote (the parts of
    :mod:`genviz.widgets._room_box`).

    Attributes
    ----------
    prediction : Prediction
    lecture : bool
    question : ipywidgets.HTMLMath
    radio : ipywidgets.RadioButtons
        Value: the index of the option selected (as shown), or None.
    button : ipywidgets.Button
        Commit; in lecture mode Record vote 1, then Record vote 2.
    feedback : ipywidgets.HTMLMath
        What to do next. Never a verdict or the explanation.
    record : PredictionRecord
    panel : genviz.widgets.room.LecturerPanel or None
        Lecture mode on the course hub, for its instructors: the room's vote, in place of the
        radio buttons and the button.
    room_status : ipywidgets.HTML or None
        A learner's box on the course hub: whether their vote counted in the room.
    room_button : ipywidgets.Button or None
        A learner's box on the course hub: *Vote again* / *Send vote* (:meth:`vote_again`).
    room_round : int or None
        The room's round the options are unlocked for (after *Vote again*), else None.
    pending : concurrent.futures.Future or None
        The last exchange with the room: done once the box shows its outcome.
    """

    def __init__(self, prediction, *, lecture: bool | None = None, width: str = "560px"):
        self.prediction = _check_prediction(prediction)
        self.lecture = is_lecture_mode() if lecture is None else bool(lecture)
        self.record = _record_for(prediction, lecture=self.lecture, fresh=True)
        _changed()
        self.question = widgets.HTMLMath(f"<b>Predict.</b> {_md(prediction.prompt)}")
        self.radio = widgets.RadioButtons(
            options=[(_option(prediction, i), i) for i in range(len(prediction.options))],
            value=None, layout=_options_layout(width), style={"description_width": "0px"})
        label, tip = (("Record vote 1", "Record the room's first vote") if self.lecture else
                      ("Commit", "Commit to your prediction; then try it in the explorer"))
        self.button = widgets.Button(description=label, icon="check", button_style="primary",
                                     tooltip=tip, layout=widgets.Layout(width="auto",
                                                                        min_width="110px"))
        self.button.on_click(lambda _: self.vote() if self.lecture else self.commit())
        self.reason = widgets.Text(
            value="", placeholder=("In one line: why do you expect it?" if not self.lecture else
                                   "Optional: the room's reason, in one line"),
            description="Because", continuous_update=True, style={"description_width": "70px"},
            layout=widgets.Layout(width=width))
        self.feedback = widgets.HTMLMath("")
        self.radio.observe(lambda _: self._clear_stale_message(), names="value")
        self.reason.observe(lambda _: self._clear_stale_message(), names="value")
        self.panel = self.room_status = self.room_button = None
        self.room_round = self.pending = None
        self._room_lock = threading.Lock()
        self._room_seen = object()
        children = [self.question, self.radio, self.reason, widgets.HBox([self.button]),
                    self.feedback]
        # the course hub's room (issue #31); off the hub nothing here runs a network call
        if self.lecture:
            if _room.on_hub() and _room.is_lecturer():
                children = self._lecturer_flow()
        elif _room.on_hub():
            children = self._learner_room(children)
        super().__init__(children)
        self.add_class("genviz-choice")
        self.add_class("genviz-prediction")

    def _clear_stale_message(self) -> None:
        """A refusal whose cause is gone (an option now chosen, a reason now typed) is cleared."""
        chosen = self.radio.value is not None
        typed = bool(self.reason.value.strip())
        if (self.feedback.value in (CHOOSE_FIRST, MARK_FIRST) and chosen) or \
                (self.feedback.value == REASON_FIRST and typed):
            self.feedback.value = ""

    def select(self, i) -> None:
        """Select option ``i`` (an index, letter or text), as a click on it does."""
        self.radio.value = self.prediction.index(i)

    # what the room's parts use of the box
    def _stage(self, stage: str, value):
        return _report(self.prediction.id, stage, value)

    def _touched(self) -> None:
        _changed()

    def _opt(self, i) -> str:
        return _md(_option(self.prediction, i))

    def _now_try(self) -> str:
        obs = self.prediction.observation
        if obs is None:
            return "Now try it in the explorer below."
        if self.lecture:
            return (f"Now watch the explorer below: {_md(obs.prompt)} Then reveal what happens, "
                    f"and why, under it.")
        return (f"Now try it in the explorer below: {_md(obs.prompt)} Record what you see in the "
                f"box under the explorer.")

    def _committed_text(self) -> str:
        r, p = self.record, self.prediction
        second = (f"; <b>your second vote:</b> {_md(_option(p, r.vote2))}"
                  if r.vote2 is not None else "")
        because = (f" <b>Because:</b> {html.escape(r.reason)}{_stop(r.reason)}" if r.reason
                   else "")
        last = _option(p, r.vote1 if r.vote2 is None else r.vote2)
        return (f"<div><b>Committed:</b> {_md(_option(p, r.vote1))}{second}{_stop(last)}{because} "
                f"{self._now_try()}</div>")

    def _reason_text(self, reason) -> str:
        if reason is not None:
            if not isinstance(reason, str):
                raise TypeError(f"reason must be a string or None, got {type(reason).__name__}")
            self.reason.value = reason
        return " ".join(self.reason.value.split())[:300]

    def commit(self, reason: str | None = None):
        """Lock the selected option and the learner's one-line reason (required: a prediction
        is an option *and* why); say only "now try it". ``reason`` fills the box's reason field
        (as typing it does). Returns the option's index, or None when the option or the reason
        is missing."""
        if self.record.vote1 is not None:
            return self.record.vote1
        line = self._reason_text(reason)
        if self.radio.value is None:
            self.feedback.value = CHOOSE_FIRST
            return None
        if not line:
            self.feedback.value = REASON_FIRST
            return None
        i = self.radio.value
        self.record.vote1 = i
        self.record.reason = line
        self.radio.disabled = self.button.disabled = self.reason.disabled = True
        self.button.description = "Committed"
        self.feedback.value = self._committed_text()
        sent = _report(self.prediction.id, "vote1", i)
        self._sent(sent, 1, i)
        _changed()
        return i

    def vote(self):
        """Lecture mode: record the room's first vote, then (after the discussion) its second.
        Returns the option recorded, or None."""
        r = self.record
        if r.vote2 is not None:
            return r.vote2
        if self.radio.value is None:
            self.feedback.value = MARK_FIRST
            return None
        i = self.radio.value
        line = self._reason_text(None)
        if line:  # optional in a lecture; kept in the kernel, never sent
            r.reason = line
        chosen = _option(self.prediction, i)
        if r.vote1 is None:
            r.vote1 = i
            self.radio.value = None
            self.button.description = "Record vote 2"
            self.button.tooltip = "Record the room's second vote, after the discussion"
            self.feedback.value = (f"<div><b>Vote 1:</b> {_md(chosen)}{_stop(chosen)} "
                                   f"<b>Discuss with your neighbour:</b> convince them of your "
                                   f"answer, then vote again.</div>")
            _report(self.prediction.id, "vote1", i)
        else:
            r.vote2 = i
            self.radio.disabled = self.button.disabled = self.reason.disabled = True
            self.button.description = "Votes recorded"
            self.feedback.value = (f"<div><b>Vote 1:</b> {_md(_option(self.prediction, r.vote1))}"
                                   f"; <b>vote 2:</b> {_md(chosen)}{_stop(chosen)} "
                                   f"{self._now_try()}</div>")
            _report(self.prediction.id, "vote2", i)
        _changed()
        return i

    def _static(self) -> tuple[str, str]:
        """(html, text) where no widget manager runs: the question and its options
        (the answer is not here: it is folded under the observation, after the explorer)."""
        p = self.prediction
        page = static_card("genviz-choice genviz-prediction", ("Predict", _md(p.prompt)),
                           "Choose one before you read on (run this notebook to commit to it in "
                           "a box); what happens, and why, is under the explorer.",
                           options=[html.escape(_option(p, i)) for i in range(len(p.options))])
        opts = "; ".join(_option(p, i) for i in range(len(p.options)))
        text = f"Predict: {p.prompt} Options: {opts}. Run this notebook to commit to one."
        return page, text


def prediction_box(prediction, *, lecture: bool | None = None, **kwargs) -> PredictionBox:
    """The box before an explorer: ``prediction_box(exercises.predict_peak_with_rho())``.

    ``lecture=None`` follows :func:`genviz.plots.style.is_lecture_mode` (on under
    ``make present``): the room votes, discusses and votes again instead of one commit."""
    return PredictionBox(prediction, lecture=lecture, **kwargs)


# --- at the end: which of your predictions failed, and why? ------------------------------

class PredictionReview(StaticFallback, widgets.VBox):
    """The learner's own predictions in this kernel: what they committed, what they saw,
    whether it held, and their why; re-drawn whenever a box records something.

    Attributes
    ----------
    prefix : str or None
        Only the ids starting with it (a notebook's ``"02"``), or every record.
    body : ipywidgets.HTMLMath
    """

    def __init__(self, prefix: str | None = None):
        if prefix is not None and not isinstance(prefix, str):
            raise TypeError(f"prefix must be a string such as '02' or None, got "
                            f"{type(prefix).__name__}")
        self.prefix = prefix
        self.body = widgets.HTMLMath("")
        super().__init__([self.body])
        self.add_class("genviz-review")
        _LISTENERS.append(self.refresh)
        self.refresh()

    def rows(self) -> list[dict]:
        """One dict per prediction (:func:`_row_of`: id, question, predicted, reason, saw, held,
        why). A prediction not committed in this kernel but kept from an earlier session (the
        file beside the notebook, :mod:`genviz.widgets.prediction_log`) is that session's row,
        with ``earlier`` its date; predictions kept for this notebook whose box has not been
        made in this kernel come last."""
        kept = {k: e for k, e in _log.read_log().items()
                if self.prefix is None or k.startswith(self.prefix)}
        out = []
        for r in prediction_records(self.prefix):
            if not r.committed and r.id in kept:
                out.append(self._earlier(kept.pop(r.id)))
            else:
                kept.pop(r.id, None)
                out.append(_row_of(r))
        return out + [self._earlier(e) for e in kept.values()]

    @staticmethod
    def _earlier(entry: dict) -> dict:
        row = {k: v for k, v in entry.items() if k != "saved"}
        return row | {"earlier": str(entry.get("saved") or "")[:10] or "an earlier session"}

    def refresh(self) -> None:
        rows = self.rows()
        if not rows:
            self.body.value = ("<p><b>Which of your predictions failed, and why?</b> This "
                               "notebook asked for no prediction yet.</p>")
            return
        failed = [r for r in rows if r["held"] is False]
        done = [r for r in rows if r["held"] is not None]
        head = (f"<p><b>Which of your predictions failed, and why?</b> "
                f"{len(done)} of {len(rows)} predictions committed and observed; "
                f"{len(failed)} did not hold.</p>")
        items = []
        # a failed prediction points to its cycle's analogous situation (issue #40 item 3)
        analogous = {r.id for r in _RECORDS.values()
                     if getattr(r.prediction, "transfer", None) is not None}
        for r in rows:
            mark = {True: "It held.", False: "<b>It failed.</b>", None: "Not finished yet."}[
                r["held"]]
            if r["held"] is False and r["id"] in analogous:
                mark += (" Then try the analogous situation under its observation box: the "
                         "same idea in another setting.")
            why = (html.escape(r["why"]) if r["why"] else
                   "<i>write one line in the box under its explorer</i>"
                   if r["held"] is False else "")
            predicted = (f"You predicted {_md(r['predicted'])}{_stop(r['predicted'])}"
                         if r["predicted"] else
                         "No prediction committed.")
            because = (f" Because: {html.escape(r['reason'])}{_stop(r['reason'])}"
                       if r["reason"] else "")
            if r.get("earlier"):
                predicted = f"In an earlier session ({html.escape(r['earlier'])}): {predicted}"
            saw = (f" The explorer showed {html.escape(r['saw'])}{_stop(r['saw'])}"
                   if r["saw"] else "")
            items.append(f"<li><b>{_md(r['question'])}</b><br>{predicted}{because}{saw} {mark}"
                         + (f"<br>Why: {why}" if why else "") + "</li>")
        self.body.value = head + "<ol>" + "".join(items) + "</ol>"

    def close(self) -> None:
        if self.refresh in _LISTENERS:
            _LISTENERS.remove(self.refresh)
        super().close()

    def _static(self) -> tuple[str, str]:
        """(html, text) where no widget manager runs: the questions, to review."""
        questions = "".join(f"<li>{_md(r.prediction.prompt)}</li>"
                            for r in prediction_records(self.prefix))
        page = ('<div class="genviz-exercise genviz-review tex2jax_process">'
                "<p><b>Which of your predictions failed, and why?</b> Run this notebook: this "
                "box then lists what you predicted, what you saw and your one-line why for "
                f"each question.</p><ol>{questions}</ol></div>")
        return page, ("Which of your predictions failed, and why? Run this notebook to see "
                      "your own predictions here.")


def prediction_review(prefix: str | None = None) -> PredictionReview:
    """The end of a notebook: ``prediction_review()`` lists this kernel's predictions (only
    the ids starting with ``prefix`` if given), updated as the learner records them."""
    return PredictionReview(prefix)

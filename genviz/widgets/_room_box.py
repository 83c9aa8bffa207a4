"""The room's vote inside a prediction box, on the course hub (issue #31; private).

:class:`genviz.widgets.predictions.PredictionBox` is made of these two parts and uses them
only on the hub (:func:`genviz.widgets.room.on_hub`); off the hub none of this runs.

* :class:`LearnerVote` -- a learner's box (JupyterLab): whether the commit counted in the
  room's vote, and *Vote again*, which asks the service which vote is open (one request, only
  when pressed: nothing polls) and unlocks the options to change the answer while the first
  vote is open, or for the second vote after the discussion. It never shows anybody's votes.
* :class:`LectureVote` -- lecture mode, for the hub's instructors: the box is the room's vote,
  the question, the lecturer's panel (:class:`genviz.widgets.room.LecturerPanel`) and what to
  do next; the most chosen option of each closed round is the record's vote 1 and vote 2 (the
  first of a tie: a record holds one option), so the observation box's Reveal and the review
  follow the room; every sentence names a tie as a tie (:func:`genviz.widgets.room.room_choice`).

The box gives them its parts (``prediction``, ``record``, ``radio``, ``button``, ``feedback``,
``question``) and four methods: ``_stage(stage, value)`` (its hook, ``report_stage``),
``_touched()`` (the record changed), ``_opt(i)`` (option ``i`` as HTML) and ``_now_try()``.
"""

from __future__ import annotations

import concurrent.futures
import html

import ipywidgets as widgets

from genviz.widgets import room

__all__ = ["LearnerVote", "LectureVote"]

#: the lecturer's panel of each prediction id (a re-run cell closes the old one)
_PANELS: dict = {}


class LearnerVote:
    """A learner's part of the room's vote (a mixin of ``PredictionBox``)."""

    def _learner_room(self, children) -> list:
        self.room_status = widgets.HTMLMath("")  # options may hold math, as the feedback
        self.room_status.add_class("genviz-room-vote")
        self.room_button = widgets.Button(
            description="Vote again", icon="refresh",
            tooltip="Ask the room which vote is open, then choose again",
            layout=widgets.Layout(width="auto", min_width="110px", display="none"))
        self.room_button.on_click(lambda _: self.vote_again())
        # the row that holds the box's button gains "Vote again" (found by what it holds, not
        # by its place: the reason field above it must stay)
        children = [widgets.HBox([self.button, self.room_button])
                    if isinstance(c, widgets.HBox) and self.button in c.children else c
                    for c in children]
        return [*children, self.room_status]

    def _sent(self, sent, rnd: int, i: int) -> None:
        """Show the outcome of a vote sent to the room (when the hook sent one)."""
        if self.room_status is None or not isinstance(sent, concurrent.futures.Future):
            return
        self.room_status.value = "<i>Sending your vote to the room…</i>"
        self.room_button.disabled = True
        self.pending = room._then(sent, lambda outcome: self._counted(outcome, rnd, i))

    def _room_line(self, text: str, button: str | None) -> None:
        self.room_status.value = f"<div>{text}</div>"
        self.room_button.disabled = False
        if button is None:
            self.room_button.layout.display = "none"
        else:
            self.room_button.description = button
            self.room_button.layout.display = None

    def _counted(self, outcome, rnd: int, i: int) -> None:
        p, r = self.prediction, self.record
        self.room_round = None
        if outcome.ok:
            if rnd == 1:
                r.vote1 = i
            else:
                r.vote2 = i
            self.radio.value, self.radio.disabled = i, True
            self.feedback.value = self._committed_text()
            which = "first" if rnd == 1 else "second"
            self._room_line(f"Counted in the room's {which} vote: {self._opt(i)}. You "
                            f"can change it until your lecturer closes the vote: press "
                            f"<b>Vote again</b>.", "Vote again")
            self._touched()
            return
        self.radio.value, self.radio.disabled = r.final, True
        self._refused(outcome)

    def _refused(self, outcome) -> None:
        later = "When your lecturer opens it, press <b>Vote in the room</b>."
        if outcome.status in (404, 409):  # the usual case outside a lecture: said quietly
            self._room_line(f'<span style="color:#555">Not counted in the room: no vote on this '
                            f"question is open now. Your prediction stays here. {later}</span>",
                            "Vote in the room")
        elif outcome.status == 429:
            self._room_line("Too many votes in a short time: wait a few seconds, then press "
                            "<b>Vote again</b>.", "Vote again")
        elif outcome.status in (401, 403):
            self._room_line(f"This hub login may not vote in the room "
                            f"({html.escape(outcome.message)}).", None)
        else:
            self._room_line(f"The room's vote could not be reached "
                            f"({html.escape(outcome.message)}). Your prediction stays here; "
                            f"press <b>Vote again</b> to try again.", "Vote again")

    def vote_again(self):
        """On the course hub, after the commit: ask the room which vote is open and unlock the
        options for it -- the first vote (change your answer while it is open; a commit made
        before it opened is sent now) or the second (vote again after the discussion). Pressed
        again (*Send vote*), send the option selected. Returns the Future of a send, or None.

        One request to the service when pressed, none otherwise: a room of 300 costs the hub
        nothing between votes. It never shows anybody else's vote."""
        r, p = self.record, self.prediction
        if self.room_status is None or not r.committed:
            return None
        if r.observed_done:
            self._room_line("You have recorded what the explorer showed: your votes in the room "
                            "stay as they are.", None)
            return None
        if self.room_round is not None:  # the options are unlocked: send the one selected
            i = self.radio.value
            if i is None:
                self._room_line("Choose an option, then press <b>Send vote</b>.", "Send vote")
                return None
            rnd = self.room_round
            self._sent(self._stage("vote1" if rnd == 1 else "vote2", i), rnd, i)
            return self.pending
        service = room.connect()
        if service is None:
            return None
        outcome = service.my_votes(p.id)
        if not outcome.ok:
            self._refused(outcome)
            return None
        open_, mine = outcome.data.get("open"), outcome.data.get("votes") or {}
        if open_ == 1 and mine.get("1") is None:  # the commit came before the vote opened
            self._sent(self._stage("vote1", r.vote1), 1, r.vote1)
            return self.pending
        if open_ in (1, 2):
            self.room_round = open_
            mine_now = mine.get(str(open_))
            self.radio.value = r.final if mine_now is None else mine_now
            self.radio.disabled = False
            self._room_line(
                "The first vote is still open: choose again if you changed your mind, then "
                "press <b>Send vote</b>." if open_ == 1 else
                "<b>Second vote</b>: after discussing with your neighbour, choose again (or "
                "keep your answer) and press <b>Send vote</b>.", "Send vote")
            return None
        done = " (the answer has been revealed)" if outcome.data.get("revealed") else ""
        self._room_line(f"No vote of the room is open on this question now{done}.",
                        "Vote again")
        return None


class LectureVote:
    """The instructors' lecture box: the room's vote (a mixin of ``PredictionBox``)."""

    def _lecturer_flow(self) -> list:
        p = self.prediction
        old = _PANELS.pop(p.id, None)
        if old is not None:  # a re-run cell: stop following the room from the old box
            old.close()
        self.panel = room.lecturer_panel(p, title="The room's answers")
        _PANELS[p.id] = self.panel
        self.panel.on_change(self._room_changed)
        self._room_changed(self.panel.state)
        return [self.question, self.panel, self.feedback]

    def _room_changed(self, state) -> None:
        """A new state of the room's vote (from the panel): the record's votes are the room's
        (the most chosen option of each closed round), and the box says what to do next."""
        with self._room_lock:
            key = None if state is None else state["version"]
            if key == self._room_seen:
                return
            self._room_seen = key
            r, p = self.record, self.prediction
            r.room = state
            if state is None:
                r.vote1 = r.vote2 = None
                self.feedback.value = (
                    "<div>Press <b>Open vote</b>: each student commits a prediction in their "
                    "notebook (on the course hub), and may change it until you close the vote. "
                    "The bars appear when you close it.</div>")
                self._touched()
                return
            open_, voters, counts = state["open"], state["voters"], state["counts"]
            vote1 = room.majority(counts["1"]) if open_ != 1 else None
            vote2 = room.majority(counts["2"]) if open_ not in (1, 2) else None
            if state["revealed"] and vote2 is None:
                vote2 = vote1  # revealed after one vote: the room's answer is its first
            for stage, old, new in (("vote1", r.vote1, vote1), ("vote2", r.vote2, vote2)):
                if new != old:
                    setattr(r, stage, new)
                    if new is not None:
                        self._stage(stage, new)

            def share(rnd):  # the round's choice, a tie named as one
                return room.room_choice(counts[rnd], voters[rnd], self._opt)

            def chose(rnd):
                text = share(rnd)
                return text if text.startswith("a tie") else f"most chose {text}"

            if open_ == 1:
                text = (f"<b>The room is voting</b> in their notebooks: {voters['1']} answered. "
                        f"Press <b>Close</b> when most have; the bars appear then.")
            elif open_ == 2:
                text = (f"<b>Second vote</b>: {voters['2']} answered (in their notebooks: "
                        f"<i>Vote again</i>). Press <b>Close</b> when most have.")
            elif vote1 is None:
                text = "No answers yet: press <b>Open vote</b> again when the room is ready."
            elif vote2 is None or (not state["revealed"] and not voters["2"]):
                text = (f"<b>Vote 1:</b> {chose('1')}. <b>Discuss with your "
                        f"neighbour:</b> convince them of your answer. Then press "
                        f"<b>Second vote</b>.")
            else:
                second = (f"<b>vote 2:</b> {share('2')}" if voters["2"] else
                          "no second vote")
                then_ = ("" if state["revealed"] else
                         "Press <b>Reveal</b> to show the first vote against the second. ")
                text = (f"<b>Vote 1:</b> {share('1')}; {second}. {then_}"
                        f"{self._now_try()}")
            self.feedback.value = f"<div>{text}</div>"
            self._touched()

    def close(self):
        """Close the box (and stop following the room, in lecture mode on the hub)."""
        panel = getattr(self, "panel", None)  # absent when __init__ refused its arguments
        if panel is not None:
            panel.close()
            if _PANELS.get(self.prediction.id) is panel:
                del _PANELS[self.prediction.id]
        super().close()

"""The room votes: a student's committed prediction counted on the course hub, and the
lecturer's live view of the room's answers (issue #31).

On the course hub a poll service (``deploy/poll/genviz_poll.py``) counts the class's answers.
A student's kernel finds it from its server's environment -- the hub's API token
``JUPYTERHUB_API_TOKEN`` (whose owner the service asks the hub about: nobody can vote for
someone else) and ``GENVIZ_POLL_URL``, set by the hub's configuration. Anywhere else (a laptop,
Binder, the course website, nbval) both are missing and nothing happens: no error, no thread,
no network call.

The prediction boxes are wired to it (:mod:`genviz.widgets.predictions`: their one hook,
``report_stage``, calls :func:`send_stage`): a learner's commit is their first vote, a second
vote after the discussion is round 2, a recorded observation is counted in the observation
round; the one-line "why" never leaves the kernel. A question is named by its
:class:`~genviz.exercises.Prediction`'s stable ``id`` (:func:`question_id_for`) and its options
are numbered in the order shown, which the id fixes: the same on every student's screen and on
the lecturer's.

On the hub a vote is sent from one background thread with a short timeout (``TIMEOUT`` s), so
a commit never waits for the network and never raises into the notebook; :func:`vote` returns
a ``concurrent.futures.Future`` of its :class:`Outcome` for whoever wants to know.

The lecturer (a member of the hub's group ``instructors``: :func:`is_lecturer`) sees
:class:`LecturerPanel` inside each prediction box in lecture mode (Voila with the
genviz-lecture template: :func:`voila_lecture`): the count of answers, live; Open vote / Close
/ Second vote / Reveal; the bars of a round once it is closed (so the projected chart never
shows the room's answers to someone who has not voted yet), and at the reveal the first vote
against the second. Only counts reach the lecturer: the service keeps no names.

>>> on_hub({})
False
>>> vote("02-peak-with-rho", 1, env={}) is None     # off the hub: nothing, silently
True
"""

from __future__ import annotations

import concurrent.futures
import html
import os
import threading
import time
from urllib.parse import parse_qs

import ipywidgets as widgets

from genviz.plots.style import PALETTE, is_lecture_mode, set_lecture_mode
from genviz.widgets._lecture_link import lecture_link_html, lecture_page_url
from genviz.widgets._room_client import (LETTERS, ROUNDS, TIMEOUT, Outcome, Room,
                                         check_option, check_options, check_question_id,
                                         check_round, connect, on_hub)

__all__ = ["Outcome", "Room", "on_hub", "connect", "vote", "observe", "send_stage",
           "question_id_for", "is_lecturer", "voila_lecture", "majority", "leaders", "room_choice",
           "room_chart_html",
           "LecturerPanel", "lecturer_panel", "TIMEOUT", "ROUNDS", "LECTURE_TEMPLATE"]

#: the Voila template of lecture mode (share/jupyter/voila/templates/genviz-lecture)
LECTURE_TEMPLATE = "genviz-lecture"

_sender: concurrent.futures.ThreadPoolExecutor | None = None
_sender_lock = threading.Lock()


def _send(fn, *args) -> concurrent.futures.Future:
    global _sender
    with _sender_lock:
        if _sender is None:  # one thread, made at the first vote on a hub: votes keep their order
            _sender = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="genviz-room")
    return _sender.submit(fn, *args)


def _then(future: concurrent.futures.Future, fn) -> concurrent.futures.Future:
    """Run ``fn(outcome)`` in the sending thread once ``future`` (a vote sent) is done; the
    Future returned completes after ``fn`` (so whoever waits on it sees what ``fn`` did)."""
    return _send(lambda: fn(future.result()))


def vote(question_id: str, option: int, round=1, *, env=None):  # noqa: A002
    """Send a committed answer to the room: ``option`` (0 for the first) of ``question_id``.

    ``round`` is 1 (the first vote), 2 (the second vote, after discussing) or
    ``"observation"`` (what the explorer showed). Returns None off the hub; on the hub a
    ``Future`` of the :class:`Outcome` (sent from a background thread; it never raises).

    Raises
    ------
    ValueError, TypeError
        ``question_id``, ``option`` or ``round`` is malformed (everywhere, so a caller's
        mistake shows off the hub too).
    """
    check_question_id(question_id)
    check_option(option)
    check_round(round)
    room = connect(env)
    if room is None:
        return None
    return _send(room.vote, question_id, option, round)


def observe(question_id: str, option: int, *, env=None):
    """Record what the explorer showed: :func:`vote` with ``round="observation"``."""
    return vote(question_id, option, "observation", env=env)


def send_stage(question_id: str, stage: str, value, *, observed=None, env=None):
    """What the prediction boxes' hook does on the hub with one stage of a learner's prediction.

    ``"vote1"`` and ``"vote2"`` send ``value`` (the option's index, in the order shown) as the
    first or second vote; ``"observation"`` sends ``observed`` (the option the explorer showed;
    nothing when None); ``"why"`` sends nothing (free text never leaves the kernel). Returns
    the ``Future`` of the send, or None (off the hub, or nothing to send).

    >>> send_stage("02-peak-with-rho", "why", "because", env={"GENVIZ_POLL_URL": "x"}) is None
    True
    """
    if stage not in ("vote1", "vote2", "observation", "why"):
        raise ValueError(f"stage must be one of vote1, vote2, observation, why; got {stage!r}")
    if stage == "why":
        return None
    if stage == "observation":
        return None if observed is None else observe(question_id, observed, env=env)
    return vote(question_id, value, 1 if stage == "vote1" else 2, env=env)


def question_id_for(prediction) -> str:
    """The poll's name for a prediction: its stable ``id`` (``"02-peak-with-rho"``). A student's
    box and the lecturer's panel, built from the same prediction, name the same question, and
    the id also fixes the order its options are shown in (so option 2 is the same text on every
    screen).

    >>> from genviz.exercises import Prediction
    >>> question_id_for(Prediction("Up or down?", ["up", "down"], "up", id="02-doctest",
    ...                            explanation="Because."))
    '02-doctest'
    """
    qid = getattr(prediction, "id", None)
    if not isinstance(qid, str) or not hasattr(prediction, "options"):
        raise TypeError(f"prediction must be a genviz.exercises.Prediction (with an id), got "
                        f"{type(prediction).__name__}")
    return check_question_id(qid)


# --- where this kernel runs ------------------------------------------------------------------------

_lecturer_cache: dict[tuple[str, str], bool] = {}


def is_lecturer(env=None) -> bool:
    """Whether this kernel's user runs the room's votes (the hub group ``instructors``).

    Off the hub False without a network call; on the hub the service is asked once per server
    token (``GET api/``; the answer is kept: a token's scopes are fixed when the server starts).
    A service that cannot be reached counts as False (and is asked again next time).
    """
    env_ = os.environ if env is None else env
    room = connect(env_)
    if room is None:
        return False
    key = (room.url, env_.get("JUPYTERHUB_API_TOKEN", ""))
    if key not in _lecturer_cache:
        outcome = room.whoami()
        if not outcome.ok:
            return False
        _lecturer_cache[key] = bool((outcome.data or {}).get("lecturer"))
    return _lecturer_cache[key]


def voila_lecture(env=None) -> bool:
    """Whether Voila runs this kernel for a page with the lecture template, asked for in the
    page's address (``.../voila/render/NB.ipynb?template=genviz-lecture``: how a lecturer opens
    lecture mode on the hub). Voila gives its kernels the request's ``QUERY_STRING`` and
    ``SERVER_SOFTWARE``.

    >>> voila_lecture({"SERVER_SOFTWARE": "voila/0.5.8", "QUERY_STRING": "template=genviz-lecture"})
    True
    >>> voila_lecture({"QUERY_STRING": "template=genviz-lecture"})   # not Voila
    False
    """
    env = os.environ if env is None else env
    if not str(env.get("SERVER_SOFTWARE", "")).startswith("voila/"):
        return False
    return parse_qs(str(env.get("QUERY_STRING", ""))).get("template") == [LECTURE_TEMPLATE]


def majority(counts) -> int | None:
    """The option most chosen (the first of a tie: a record holds one option), or None
    without answers. What is *said* about a round is :func:`room_choice`, which names a tie.

    >>> majority([3, 5, 5]), majority([0, 0])
    (1, None)
    """
    counts = list(counts)
    if not counts or max(counts) <= 0:
        return None
    return counts.index(max(counts))


def leaders(counts) -> list[int]:
    """Every option with the most answers (more than one: a tie), [] without answers.

    >>> leaders([3, 5, 5]), leaders([1, 0]), leaders([0, 0])
    ([1, 2], [0], [])
    """
    counts = list(counts)
    if not counts or max(counts) <= 0:
        return []
    return [i for i, n in enumerate(counts) if n == max(counts)]


def room_choice(counts, voters: int, option_html) -> str:
    """What a round's answers chose, as HTML: ``(b) (3 of 5)``, or for a tie every leading
    option, ``a tie between (a) and (b) (1 each of 2)``; ``no answers`` without any.
    ``option_html(i)`` is option ``i`` as HTML.

    >>> room_choice([1, 3, 1], 5, "({})".format)
    '(1) (3 of 5)'
    >>> room_choice([1, 1, 0], 2, "({})".format)
    'a tie between (0) and (1) (1 each of 2)'
    >>> room_choice([2, 2, 2], 6, "({})".format)
    'a tie between (0), (1) and (2) (2 each of 6)'
    """
    top = leaders(counts)
    if not top:
        return "no answers"
    names = [option_html(i) for i in top]
    n = list(counts)[top[0]]
    if len(top) == 1:
        return f"{names[0]} ({n} of {voters})"
    return f"a tie between {', '.join(names[:-1])} and {names[-1]} ({n} each of {voters})"


# --- the lecturer's view -------------------------------------------------------------------------

_ROUND_STYLE = {"1": ("first vote", PALETTE["blue"]), "2": ("second vote", PALETTE["vermillion"]),
                "observation": ("observed", PALETTE["green"])}


def _phase(state) -> str:
    if state is None:
        return "not opened"
    if state["revealed"]:
        return "revealed"
    if state["open"] in (1, 2):
        return f"round {state['open']} open"
    return "closed"


def _shown_rounds(state, show_open: bool) -> list[str]:
    """Whose bars the chart shows: none of an open round (unless asked), the latest closed
    round, and at the reveal every round with answers."""
    voters = state["voters"]
    if state["revealed"]:
        return [r for r in ("1", "2", "observation") if voters[r]] or ["1"]
    rounds = []
    if state["open"] == 2 or (state["open"] is None and not voters["2"]):
        rounds = ["1"]
    elif state["open"] is None:
        rounds = ["2"]
    if show_open and state["open"] in (1, 2) and str(state["open"]) not in rounds:
        rounds.append(str(state["open"]))
    return rounds


def room_chart_html(state, options, *, correct=(), show_open: bool = False,
                    width_px: int = 600) -> str:
    """The room's answers as bars, sized for a projector (HTML, no JavaScript).

    ``state`` is the poll service's answer for the question (None before it is opened). The
    number of answers of an open round is shown; its bars only once it is closed (or with
    ``show_open``, for a lecturer looking at a screen the room does not see).

    >>> s = {"open": None, "revealed": False, "voters": {"1": 4, "2": 0, "observation": 0},
    ...      "counts": {"1": [3, 1], "2": [0, 0], "observation": [0, 0]}}
    >>> "75%" in room_chart_html(s, ["up", "down"])
    True
    """
    options = check_options(options)
    font = "font-size:22px;line-height:1.3"
    if state is None:  # the question's options, projected before the vote opens
        listed = "".join(f'<div style="{font};margin-top:8px"><b>({LETTERS[i]})</b> '
                         f"{html.escape(text)}</div>" for i, text in enumerate(options))
        return (f'<div class="genviz-room" style="width:{width_px}px"><div style="{font}">'
                f"Not opened yet: press <b>Open vote</b> when the room is ready.</div>"
                f"{listed}</div>")
    voters = state["voters"]
    heads = []
    for r in ("1", "2", "observation"):
        if voters[r] or (r != "observation" and state["open"] == _round_value(r)):
            label = _ROUND_STYLE[r][0]
            live = " (open)" if state["open"] == _round_value(r) else ""
            heads.append(f"{label}{live}: <b>{voters[r]}</b> answered")
    lines = [f'<div style="{font}">{" &middot; ".join(heads) or "no answers yet"}</div>']
    shown = _shown_rounds(state, show_open)
    legend = len(shown) > 1
    bar_w = width_px - 330
    for i, text in enumerate(options):
        mark = " &#10003;" if state["revealed"] and i in correct else ""
        label = (f'<div style="{font};margin-top:8px"><b>({LETTERS[i]})</b> '
                 f"{html.escape(text)}{mark}</div>")
        bars = []
        for r in shown:
            n, total = state["counts"][r][i], voters[r]
            pct = round(100 * n / total) if total else 0
            name, colour = _ROUND_STYLE[r]
            bars.append(
                f'<div style="display:flex;align-items:center;gap:10px;font-size:20px">'
                f'<div style="width:{bar_w}px;background:#eee;height:26px" '
                f'role="img" aria-label="{name}: {n} of {total}">'
                f'<div style="width:{pct}%;background:{colour};height:26px"></div></div>'
                f"<span>{n} ({pct}%){' ' + name if legend else ''}</span></div>")
        lines.append(label + "".join(bars))
    hidden = [r for r in ("1", "2") if state["open"] == _round_value(r) and r not in shown]
    if hidden:
        lines.append(f'<div style="font-size:18px;color:#555;margin-top:8px">The answers of the '
                     f"open round appear when you close it.</div>")
    return (f'<div class="genviz-room" style="width:{width_px}px">' + "".join(lines) + "</div>")


def _round_value(r: str):
    return int(r) if r.isdigit() else r


class LecturerPanel(widgets.VBox):
    """The lecturer's view of one question: live count, bars, and the round's controls.

    Built by :func:`lecturer_panel` (or by a prediction box in lecture mode, for the hub's
    instructors). Off the hub it only says so (no network call). On the hub one background
    thread follows the question (a long poll: the service answers when a vote or the round's
    state changes) and redraws the bars; :meth:`on_change` functions hear each new state.
    """

    def __init__(self, question_id, options, *, room=None, correct=(), prompt=None,
                 wait: float = 20.0, title: str = "The room"):
        self.question_id = check_question_id(question_id)
        self.options = check_options(options)
        self.correct = tuple(correct)
        self.room = room
        self.state = None
        self.wait = wait
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._clear_armed = 0.0
        self._listeners: list = []
        self._heard = object()  # the last state the listeners heard (nothing yet)
        title = widgets.HTML(f'<div style="font-size:24px;font-weight:bold">{html.escape(title)}'
                             + (f": {html.escape(prompt)}" if prompt else "") + "</div>")
        self.chart = widgets.HTML(room_chart_html(None, self.options))
        self.status = widgets.HTML("")
        # projector-sized whatever the page's template (Voilà's default or genviz-lecture)
        layout, style = widgets.Layout(width="300px", height="44px"), {"font_size": "20px"}
        self.buttons = {name: widgets.Button(description=text, layout=layout, tooltip=tip,
                                             style=style)
                        for name, text, tip in [
                            ("open", "Open vote", "Open the first vote (students can change "
                                                  "their answer until you close it)"),
                            ("close", "Close", "Close the open round: its bars appear"),
                            ("second", "Second vote", "After discussing: open the second vote"),
                            ("reveal", "Reveal", "Show first vote against second vote"),
                            ("clear", "Clear votes", "Delete this question's votes")]}
        for name, button in self.buttons.items():
            button.on_click(lambda _b, name=name: self.press(name))
            button.add_class("genviz-room-button")
        self.show_open = widgets.ToggleButton(
            value=False, description="Show answers while open", icon="eye", style=style,
            layout=layout, tooltip="For a screen the room does not see: the bars of the open "
                                   "round, before you close it")
        self.show_open.observe(lambda _c: self._redraw(), names="value")
        # the controls in a column beside the chart, in the order of the flow (open, close,
        # second vote, reveal): the question, chart and the box's next step fit on one
        # 1280x720 screen; on a narrow screen the column wraps under the chart
        controls = widgets.VBox([*self.buttons.values(), self.show_open, self.status],
                                layout=widgets.Layout(width="310px"))
        body = widgets.HBox([self.chart, controls],
                            layout=widgets.Layout(flex_flow="row wrap", align_items="flex-start",
                                                  grid_gap="8px 24px"))
        # the lecture page for phones (issue #37): its address and QR code, on the hub only
        self.link = widgets.HTML(lecture_link_html(lecture_page_url()) if room is not None else "")
        super().__init__([title, self.link, body],
                         layout=widgets.Layout(width="auto", max_width="1220px"))
        self.add_class("genviz-room-panel")
        if room is None:
            self.status.value = ("<i>Off the course hub: the room's answers appear here when this "
                                 "notebook runs on the hub.</i>")
            for b in self.buttons.values():
                b.disabled = True
            self.show_open.disabled = True
            return
        self._redraw()
        self._watcher = threading.Thread(target=self._follow, name="genviz-room-panel",
                                         daemon=True)
        self._watcher.start()

    # -- state ------------------------------------------------------------------------------------
    def _redraw(self) -> None:
        with self._lock:
            state = self.state
            self.chart.value = room_chart_html(state, self.options, correct=self.correct,
                                               show_open=self.show_open.value)
            phase = _phase(state)
            opened = state is not None
            self.buttons["open"].disabled = opened and (state["open"] is not None or state["revealed"])
            self.buttons["close"].disabled = not opened or state["open"] not in (1, 2)
            self.buttons["second"].disabled = not opened or state["revealed"] or state["open"] == 2
            self.buttons["reveal"].disabled = not opened or state["revealed"]
            self.buttons["clear"].disabled = not opened

    def on_change(self, fn) -> None:
        """Call ``fn(state)`` with each new state of the question (None: not opened, or its
        votes deleted), from the thread that learnt it."""
        self._listeners.append(fn)

    def _notify(self) -> None:
        state = self.state
        key = None if state is None else state["version"]
        if key == self._heard:
            return
        self._heard = key
        for fn in list(self._listeners):
            fn(state)

    def _took(self, outcome: Outcome) -> bool:
        if outcome.ok and outcome.data and "voters" in outcome.data:
            old = self.state
            if old is not None and outcome.data["version"] < old["version"]:
                return True  # an answer overtaken by a newer one (a button press meanwhile)
            self.state = outcome.data
            self.status.value = f"<span style='font-size:20px'>{_phase(self.state)}</span>"
        elif outcome.status == 404:
            self.state = None
        elif outcome.status in (401, 403):
            self.status.value = (f"<b>{html.escape(outcome.message)}</b>. The room's answers are "
                                 f"for the hub's instructors (the group <code>instructors</code>; "
                                 f"restart your server after being added).")
            self._redraw()
            self.chart.value = ""  # not a lecturer: no chart, no control works for them
            for b in (*self.buttons.values(), self.show_open):
                b.disabled = True
            return False
        else:
            self.status.value = f"<i>{html.escape(outcome.message)}</i>"
        self._redraw()
        if outcome.ok or outcome.status == 404:
            self._notify()
        return outcome.ok

    def refresh(self) -> Outcome:
        """Ask the service for the question's state now."""
        outcome = self.room.question(self.question_id)
        self._took(outcome)
        return outcome

    def press(self, name: str) -> Outcome | None:
        """What a button does (also callable from code): open, close, second, reveal, clear."""
        if self.room is None:
            return None
        n = len(self.options)
        if name == "clear":
            if time.monotonic() - self._clear_armed > 5:  # a second click within 5 s deletes
                self._clear_armed = time.monotonic()
                self.buttons["clear"].description = "Click again to delete"
                return None
            self._clear_armed = 0.0
            self.buttons["clear"].description = "Clear votes"
            outcome = self.room.delete(self.question_id)
            self.state = None
            self._took(self.room.question(self.question_id))
            return outcome
        state = {"open": {"open": 1, "revealed": False}, "close": {"open": None},
                 "second": {"open": 2}, "reveal": {"open": "observation", "revealed": True}}
        if name not in state:
            raise ValueError(f"name must be one of open, close, second, reveal, clear; got {name!r}")
        outcome = self.room.set_state(self.question_id, options=n, **state[name])
        self._took(outcome)
        return outcome

    def _follow(self) -> None:
        while not self._stop.is_set():
            version = None if self.state is None else self.state["version"]
            if version is None:
                outcome = self.room.question(self.question_id)
            else:
                outcome = self.room.question(self.question_id, since=version, wait=self.wait)
            if self._stop.is_set():
                return
            ok = self._took(outcome)
            if outcome.status in (401, 403):
                return  # not a lecturer: nothing to follow
            if not ok or self.state is None:
                self._stop.wait(2.0)

    def close(self):
        """Stop following the room and close the widget."""
        stop = getattr(self, "_stop", None)  # absent when __init__ refused its arguments
        if stop is not None:
            stop.set()
        super().close()

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        """The live panel where a widget manager runs; elsewhere one line of text."""
        data = super()._repr_mimebundle_(include=include, exclude=exclude, **kwargs)
        if isinstance(data, tuple):
            data = data[0]
        text = "The room's answers (lecture mode on the course hub)."
        return {**data, "text/plain": text, "text/html": f"<p><i>{text}</i></p>"}


def lecturer_panel(question, options=None, *, correct=None, prompt=None, env=None,
                   wait: float = 20.0, title: str = "The room") -> LecturerPanel:
    """The lecturer's live view of the room's answers to one question, with its controls.

    ``question`` is a :class:`~genviz.exercises.Prediction` (its id, options in the order
    shown and right options are used), or a question id with ``options``. In lecture mode on
    the hub a prediction box shows this panel itself, for the hub's instructors; call it to
    put a panel anywhere else. ``correct`` (the right options' indices) are ticked at the
    reveal. Off the hub the panel says it needs the hub and makes no network call.
    """
    if isinstance(question, str):
        if options is None:
            raise TypeError("options must be given with a question id (or pass the Prediction)")
        qid = question
    else:
        qid = question_id_for(question)
        options = question.options if options is None else options
        correct = question.correct if correct is None else correct
    return LecturerPanel(qid, options, room=connect(env), correct=correct or (),
                         prompt=prompt, wait=wait, title=title)


# A kernel that Voila runs for a page with the lecture template is in lecture mode, as the
# kernels of `make present` are (its IPython start-up file): a lecturer on the hub opens
# .../voila/render/NB.ipynb?template=genviz-lecture. Every notebook imports genviz.widgets
# (which imports this module) before it builds a figure.
if voila_lecture() and not is_lecture_mode():
    set_lecture_mode(True)

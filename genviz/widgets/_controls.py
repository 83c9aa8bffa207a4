"""The explorers' controls: plain Python objects the browser draws (no ipywidgets).

A control holds a value, settable from Python (``explorer.controls["rho"].value = 0.5`` updates
the explorer, as with ipywidgets), and describes itself to the browser (:meth:`Control.spec`),
where ``genviz/widgets/static/explorer.js`` draws it natively: a slider is an
``<input type=range>`` over its *positions* (0..n, one per step) with ``aria-valuetext`` the
formatted value, options are a ``<select>`` or a group of radio buttons, free text a
``<textarea>``. The browser sends positions and option indices, never floats, so a state the
browser precomputed (a grid point) and the value the kernel computes are the same number.

``grid=True`` marks a control whose states the browser may precompute (a "gridded" control:
every position, at the current values of the other controls; see genviz.widgets.states).
"""

from __future__ import annotations

import math

__all__ = ["Control", "Slider", "SelectionSlider", "Choice", "TextArea", "normalise_text"]


class Control:
    """A named value with an explorer to notify. Subclasses define the value's domain."""

    kind = "control"

    def __init__(self, description: str, value, *, continuous_update: bool = True,
                 grid: bool = False):
        self.description = str(description)
        self.continuous_update = bool(continuous_update)
        self.grid = bool(grid)
        self._value = self.validate(value)
        self._listeners: list = []

    # the value ------------------------------------------------------------------------------
    @property
    def value(self):
        return self._value

    @value.setter
    def value(self, new) -> None:
        self.set(new)

    def set(self, new, *, notify: bool = True) -> bool:
        """Set the value (validated); tell the listeners if it changed. Returns whether it
        changed."""
        new = self.validate(new)
        if _same(new, self._value):
            return False
        self._value = new
        if notify:
            for fn in list(self._listeners):
                fn(self)
        return True

    def observe(self, fn) -> None:
        """Call ``fn(control)`` after every change of the value."""
        self._listeners.append(fn)

    def close(self) -> None:
        self._listeners.clear()

    # subclass interface ---------------------------------------------------------------------
    def validate(self, value):  # pragma: no cover - abstract
        raise NotImplementedError

    def spec(self) -> dict:
        """What the browser needs to draw the control (JSON)."""
        return {"kind": self.kind, "label": self.description,
                "continuous": self.continuous_update, "grid": self.grid}

    def to_front(self, value=None):
        """The browser's representation of a value (a position, an option index, text)."""
        return self._value if value is None else value

    def from_front(self, raw):
        """The value the browser's representation ``raw`` stands for."""
        return raw

    def grid_values(self) -> list:
        """Every value a grid over this control visits, in the browser's order."""
        raise TypeError(f"a {self.kind} control cannot be gridded")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.description!r}, value={self._value!r})"


def _same(a, b) -> bool:
    try:
        return bool(a == b) and type(a) is type(b)
    except (TypeError, ValueError):
        return a is b


class Slider(Control):
    """A slider over ``min + k * step`` (k = 0..n), or ``base ** (min + k * step)`` for a log
    slider; integer when ``integer``. A value set from Python is clamped into the range (as
    ipywidgets does) but kept as given between steps; the browser shows the nearest step."""

    kind = "slider"

    def __init__(self, description, value, min, max, step, *, integer=False, base=None,
                 readout_format=".2f", continuous_update=True, grid=False):
        for name, v in (("min", min), ("max", max), ("step", step)):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise TypeError(f"{description}: {name} must be a finite number, got {v!r}")
        if step <= 0:
            raise ValueError(f"{description}: step must be > 0, got {step!r}")
        if max < min:
            raise ValueError(f"{description}: max ({max!r}) must be >= min ({min!r})")
        self.integer = bool(integer)
        self.base = base
        self.readout_format = readout_format
        self._min, self._max, self._step = min, max, step
        super().__init__(description, value, continuous_update=continuous_update, grid=grid)

    # ipywidgets-like attributes (settable: the spec follows)
    min = property(lambda self: self._min, lambda self, v: self._set_range(min=v))
    max = property(lambda self: self._max, lambda self, v: self._set_range(max=v))
    step = property(lambda self: self._step, lambda self, v: self._set_range(step=v))

    def _set_range(self, **kw) -> None:
        self._min = kw.get("min", self._min)
        self._max = kw.get("max", self._max)
        self._step = kw.get("step", self._step)
        self.set(self._value)  # clamp into the new range

    @property
    def n(self) -> int:
        """The last position (positions are 0..n)."""
        return max(0, int(math.floor((self._max - self._min) / self._step + 1e-9)))

    def value_at(self, k: int):
        """The value at position ``k``."""
        x = self._min + int(k) * self._step
        if self.base is not None:
            return float(self.base ** x)
        return int(round(x)) if self.integer else float(x)

    def position(self, value) -> int:
        """The position nearest ``value``."""
        x = math.log(value, self.base) if self.base is not None else value
        return min(self.n, max(0, int(round((x - self._min) / self._step))))

    def validate(self, value):
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                and not hasattr(value, "__float__"):
            raise TypeError(f"{self.description}: value must be a number, got {value!r}")
        v = float(value)
        if not math.isfinite(v):
            raise ValueError(f"{self.description}: value must be finite, got {value!r}")
        lo, hi = self._min, self._max
        if self.base is not None:
            lo, hi = float(self.base ** lo), float(self.base ** hi)
        v = min(max(v, lo), max(hi, lo))
        return int(round(v)) if self.integer else v

    def label(self, value) -> str:
        """The value as the slider's readout shows it."""
        if self.integer:
            return f"{int(value):d}"
        return format(float(value), self.readout_format)

    def spec(self) -> dict:
        labels = [self.label(self.value_at(k)) for k in range(self.n + 1)]
        return {**super().spec(), "n": self.n, "labels": labels}

    def to_front(self, value=None):
        return self.position(self._value if value is None else value)

    def from_front(self, raw):
        k = int(raw)
        if not 0 <= k <= self.n:
            raise ValueError(f"{self.description}: position {raw!r} outside 0..{self.n}")
        return self.value_at(k)

    def grid_values(self) -> list:
        return [self.value_at(k) for k in range(self.n + 1)]


class _OneOfOptions:
    """``validate`` of a control whose value is one of its ``_option_values()`` (by ``_index``)."""

    def validate(self, value):
        i = self._index(value)
        if i is None:
            raise ValueError(f"{self.description}: {value!r} is not one of the options "
                             f"{self._option_values()}")
        return self._option_values()[i]


class SelectionSlider(_OneOfOptions, Slider):
    """A slider over a list of values (ipywidgets' SelectionSlider): position ``k`` is
    ``options[k]``, shown as ``str(options[k])``. A value not in ``options`` is refused (there
    is nothing between two options to clamp to)."""

    def __init__(self, description, options, value, *, continuous_update=True, grid=False):
        self.options = list(options)
        if not self.options:
            raise ValueError(f"{description}: options must not be empty")
        super().__init__(description, value, 0, len(self.options) - 1, 1, integer=True,
                         continuous_update=continuous_update, grid=grid)

    def _index(self, value):
        for i, v in enumerate(self.options):
            try:
                if v == value and not isinstance(value, bool):
                    return i
            except (TypeError, ValueError):
                continue
        return None

    def _option_values(self) -> list:
        return self.options

    def value_at(self, k: int):
        return self.options[min(max(int(k), 0), len(self.options) - 1)]

    def position(self, value) -> int:
        i = self._index(value)
        return 0 if i is None else i

    def label(self, value) -> str:
        return str(value)


class Choice(_OneOfOptions, Control):
    """One of a list of options, drawn as a drop-down (``style="dropdown"``) or a row of radio
    buttons (``style="toggle"``). ``options`` are values or ``(label, value)`` pairs."""

    kind = "choice"

    def __init__(self, description, options, value, *, style="dropdown", grid=False):
        pairs = [o if isinstance(o, tuple) and len(o) == 2 else (str(o), o) for o in options]
        if not pairs:
            raise ValueError(f"{description}: options must not be empty")
        self.options = pairs
        self.style = style
        # a choice is one discrete event (no drag): it never updates "continuously"
        super().__init__(description, value, continuous_update=False, grid=grid)

    def _index(self, value):
        for i, (_, v) in enumerate(self.options):
            if _same(v, value) or (v == value if isinstance(v, str) else False):
                return i
        return None

    def _option_values(self) -> list:
        return [v for _, v in self.options]

    def spec(self) -> dict:
        return {**super().spec(), "style": self.style,
                "options": [str(label) for label, _ in self.options]}

    def to_front(self, value=None):
        return self._index(self._value if value is None else value)

    def from_front(self, raw):
        i = int(raw)
        if not 0 <= i < len(self.options):
            raise ValueError(f"{self.description}: option {raw!r} outside 0..{len(self.options) - 1}")
        return self.options[i][1]

    def grid_values(self) -> list:
        return [v for _, v in self.options]


class TextArea(Control):
    """Free text. Gridded only over a fixed list of texts (``presets``: the edits a lesson asks
    for, ``grid=True``): the browser then finds a typed text among them by exact match after
    :func:`normalise_text` (case and runs of white space do not count) and draws its
    precomputed state; any other text needs the kernel."""

    kind = "text"

    def __init__(self, description, value="", *, placeholder="", rows=5,
                 continuous_update=False, presets=(), grid=False):
        self.placeholder = placeholder
        self.rows = rows
        if isinstance(presets, str) or not all(isinstance(t, str) for t in presets):
            raise TypeError(f"{description}: presets must be a sequence of str, got {presets!r}")
        seen, self.presets = set(), []
        for t in presets:  # one state per distinct normalised text, in the given order
            if normalise_text(t) not in seen:
                seen.add(normalise_text(t))
                self.presets.append(t)
        if grid and not self.presets:
            raise ValueError(f"{description}: a text control is gridded only over presets "
                             f"(the texts the lesson asks for); none given")
        super().__init__(description, value, continuous_update=continuous_update, grid=grid)

    def validate(self, value):
        if not isinstance(value, str):
            raise TypeError(f"{self.description}: value must be a str, got {value!r}")
        return value

    def spec(self) -> dict:
        return {**super().spec(), "placeholder": self.placeholder, "rows": self.rows,
                "presets": [normalise_text(t) for t in self.presets]}

    def from_front(self, raw):
        return self.validate(raw)

    def grid_values(self) -> list:
        if not self.presets:
            raise TypeError(f"{self.description}: a text control without presets cannot be "
                            f"gridded")
        return list(self.presets)


def normalise_text(text: str) -> str:
    """A text as the grid of a text control compares it: lower case, white space runs as one
    space, no leading or trailing space (explorer.js does the same)."""
    return " ".join(str(text).lower().split())

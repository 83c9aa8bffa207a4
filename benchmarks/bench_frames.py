"""Frames shipped to the browser: genviz's PNG writer against ipympl's default (Pillow).

Each case encodes the current frame of one explorer figure, as ipympl does after every slider
move (genviz.plots._frames.png_rgba: no row filter, zlib level 1; the baseline is what
matplotlib's webagg core does, ``Image.fromarray(rgba).save(png, format="png")``). The frame
size in kB is in the case name.
"""

import io

import numpy as np
from PIL import Image

from harness import TimingCase
from genviz.plots._frames import png_rgba


def _frame(make):
    e = make()
    canvas = e.view.fig.canvas
    canvas.draw()
    pixels = np.asarray(canvas.get_renderer().buffer_rgba()).copy()
    e.close()
    return pixels


def _pillow(pixels):
    with io.BytesIO() as png:
        Image.fromarray(pixels).save(png, format="png")
        return png.getvalue()


def _case(label, make):
    pixels = _frame(make)
    h, w = pixels.shape[:2]
    ours, base = len(png_rgba(pixels)) // 1000, len(_pillow(pixels)) // 1000
    return TimingCase(f"PNG frame, {label} ({w}x{h}; {ours} kB vs Pillow {base} kB)",
                      lambda: png_rgba(pixels), lambda: _pillow(pixels),
                      baseline_name="Pillow default (ipympl)", repeats=30)


def _gaussian():
    from genviz.widgets import gaussian_explorer
    return gaussian_explorer()


def _histogram():
    from genviz.kde import sample_claw
    from genviz.widgets.kde import histogram_explorer
    return histogram_explorer(sample_claw(200, 0), width=0.3, x_range=(-3, 3))


def _bandwidth():
    from genviz.widgets.kde import bandwidth_explorer
    return bandwidth_explorer()


CASES = [
    _case("3-D Gaussian explorer", _gaussian),
    _case("histogram explorer", _histogram),
    _case("bandwidth explorer", _bandwidth),
]

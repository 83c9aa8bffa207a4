"""Helpers the browser tests share: servers, page probes (JavaScript) and measurements.

Everything that knows about the DOM of JupyterLab, Voila, ipywidgets and ipympl lives here, so
the tests read as a list of claims. The page-side code is installed with ``add_init_script`` as
``window.__gv``:

* an *explorer* is the root element genviz's ES module draws (``.genviz-explorer
  .genviz-anywidget``; genviz/widgets/static/explorer.js): its sliders are native range inputs,
  its readout the ``.genviz-readout`` status region, its figure ``canvas.genviz-canvas``;
* a figure's pixels are read from that canvas with ``getImageData``;
* ``drawImage`` is wrapped to count paints per canvas (every paint starts by drawing the static
  background), which tells when a frame has been painted;
* ``WebSocket.send`` is wrapped to count the messages the page sends (a drag of a slider whose
  states are precomputed sends at most one).
"""

from __future__ import annotations

import base64
import json
import os
import pathlib
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from hub_testing import kernel_execute  # noqa: E402,F401  (run code in a live kernel)

NOTEBOOK_DIR = ROOT / "notebooks"
ARTIFACTS = ROOT / "artifacts" / "browser"
LAYOUT_ARTIFACTS = ARTIFACTS / "layout"  # one screenshot per viewport and explorer
CHROMIUM = os.environ.get("GENVIZ_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def token_api(url: str, token: str, method="GET"):
    """A Jupyter (server or hub) REST call with ``Authorization: token``; its JSON, or None."""
    req = urllib.request.Request(url, method=method, headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(req, timeout=30) as r:
        body = r.read()
    return json.loads(body) if body else None


def notebooks() -> list[pathlib.Path]:
    """Every notebook in notebooks/, discovered when the tests are collected."""
    return sorted(p for p in NOTEBOOK_DIR.glob("*.ipynb") if not p.name.startswith("."))


# -- servers ----------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A server process started in its own process group (stopped by that group's id)."""

    def __init__(self, argv, *, env, log_path, url_ready, cwd=ROOT, timeout=180):
        self.log_path = pathlib.Path(log_path)
        self._log = open(self.log_path, "w")
        self.proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=self._log,
                                     stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{argv[0]} exited with {self.proc.returncode}; log:\n"
                                   + self.log_path.read_text()[-3000:])
            try:
                with urllib.request.urlopen(url_ready, timeout=5):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"{argv[0]} not ready after {timeout} s; log:\n"
                                       + self.log_path.read_text()[-3000:])
                time.sleep(0.5)

    def stop(self):
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
                self.proc.wait(timeout=20)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        self._log.close()


def lab_settings(settings_dir: pathlib.Path) -> None:
    """JupyterLab user settings for a reproducible, side-effect-free session.

    All cells stay attached to the DOM (windowing off) so every output is found and the full
    notebook can be captured; no autosave (the tests must never write a notebook); no news or
    update checks (no network, no pop-up over the figures).
    """
    files = {
        "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
        "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
        "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
            {"fetchNews": "false", "checkForUpdates": False},
    }
    for rel, content in files.items():
        path = settings_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(content))


def lab_argv(port: int, token: str, root: pathlib.Path) -> tuple[list[str], str]:
    """The command line of JupyterLab on 127.0.0.1:``port`` with ``token``, serving ``root``
    (``--allow-root`` when run as root), and its base URL."""
    argv = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1",
            f"--port={port}", f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={root}", "--ServerApp.open_browser=False"]
    if os.geteuid() == 0:
        argv.append("--allow-root")
    return argv, f"http://127.0.0.1:{port}"


def start_lab(tmp: pathlib.Path, token: str) -> tuple[Server, str, pathlib.Path]:
    """JupyterLab on 127.0.0.1 with a token, serving a *copy* of notebooks/ (nothing the
    browser does can modify the work tree). Returns (server, base_url, runtime_dir)."""
    root = tmp / "notebooks"
    shutil.copytree(NOTEBOOK_DIR, root, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    lab_settings(tmp / "lab-settings")
    runtime = tmp / "runtime"
    env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(tmp / "lab-settings"),
               JUPYTERLAB_WORKSPACES_DIR=str(tmp / "lab-workspaces"),
               JUPYTER_RUNTIME_DIR=str(runtime))
    # As `make lab` does: the project's share/jupyter first (the genviz-a11y extension).
    env["JUPYTER_PATH"] = os.pathsep.join(
        [str(ROOT / "share" / "jupyter"), *filter(None, [os.environ.get("JUPYTER_PATH")])])
    # ... and its config directory (etc/jupyter: TCP_NODELAY on the server's websockets)
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(
        [str(ROOT / "etc" / "jupyter"), *filter(None, [os.environ.get("JUPYTER_CONFIG_PATH")])])
    env.pop("MPLBACKEND", None)  # the notebooks choose their backend themselves
    # explorers build their precomputed states here (in the background, once shown), never in
    # the user's cache
    env["GENVIZ_STATES_CACHE"] = str(tmp / "states")
    port = free_port()
    argv, base = lab_argv(port, token, root)
    server = Server(argv, env=env, log_path=ARTIFACTS / "jupyterlab.log",
                    url_ready=f"{base}/api/status?token={token}")
    return server, base, runtime


def start_voila(port: int) -> Server:
    """Voila through ``make present`` (the lecture-mode target itself), with tracebacks shown
    so a failing cell is visible to the test. ``GENVIZ_MAKE_ARGS`` adds make arguments, e.g.
    ``VENV=/path/.venv -o /path/.venv/.genviz-installed`` to use an existing environment."""
    env = dict(os.environ)
    env.pop("MPLBACKEND", None)
    env.setdefault("GENVIZ_STATES_CACHE", str(ARTIFACTS / "voila-states"))
    argv = ["make", "--no-print-directory", "present", f"PRESENT_PORT={port}",
            "VOILA_FLAGS=--show_tracebacks=True",
            *os.environ.get("GENVIZ_MAKE_ARGS", "").split()]
    return Server(argv, env=env, log_path=ARTIFACTS / "voila.log",
                  url_ready=f"http://127.0.0.1:{port}/voila/tree")


KERNEL_ERROR_MARKERS = ("Traceback (most recent call last)", "Exception in comm_msg",
                        "Exception in message handler")


def log_errors_since(path: pathlib.Path, offset: int) -> list[str]:
    """Tracebacks a server's log gained after ``offset``: kernels inherit the server's stderr,
    so an exception raised in a widget callback (which never reaches a cell's output) lands
    here."""
    text = path.read_text(errors="replace")[offset:]
    blocks = []
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if any(m in line for m in KERNEL_ERROR_MARKERS):
            blocks.append("\n".join(lines[k:k + 25]))
    return blocks


# The matplotlib rendering of an explorer's current state in the kernel (by its spec id), as a
# PNG in base64: what its canvas must show once the controls settle.
EXPLORER_PNG_CODE = """
import base64 as _gv_b64, gc as _gv_gc
from genviz.plots._base import figure_png as _gv_png
from genviz.widgets._base import Explorer as _gv_Explorer
_gv_e = [o for o in _gv_gc.get_objects() if isinstance(o, _gv_Explorer)
         and o.spec.get("id") == {id!r}]
print(_gv_b64.b64encode(_gv_png(_gv_e[0].view.fig)).decode() if _gv_e else "")
"""


# -- the page-side probes -----------------------------------------------------------------------
INIT_JS = r"""
(() => {
  if (window.__gv) return;
  const paints = new WeakMap();
  const drawImage = CanvasRenderingContext2D.prototype.drawImage;
  CanvasRenderingContext2D.prototype.drawImage = function (...args) {
    paints.set(this.canvas, (paints.get(this.canvas) || 0) + 1);
    return drawImage.apply(this, args);
  };
  // Arrival times of large websocket messages (> 4 kB: the frames the kernel records; state
  // messages are smaller), so a latency sample can be split into "frame received" and
  // "painted"; and the number of messages the page SENDS (a gridded drag: at most one).
  const frames = [];
  let sent = 0;
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (e) => {
        const d = e.data, n = d ? (d.byteLength || d.size || d.length || 0) : 0;
        if (n > 4096) { frames.push(performance.now()); if (frames.length > 64) frames.shift(); }
      });
    }
    send(data) { sent += 1; return super.send(data); }
  };
  const gv = {
    keyT0: null,
    frameMs: null,
    sent() { return sent; },
    // An explorer is the root element explorer.js draws (.genviz-explorer.genviz-anywidget).
    explorers() {
      const roots = [...document.querySelectorAll('.genviz-explorer.genviz-anywidget')];
      roots.forEach((r, i) => r.setAttribute('data-gv-explorer', String(i)));
      return roots;
    },
    root(i) { return document.querySelector(`[data-gv-explorer="${i}"]`) || gv.explorers()[i]; },
    view(i) { return gv.root(i).__genviz; },
    explorerId(i) { return gv.root(i).dataset.explorerId || ''; },
    gridReady(i) { const v = gv.view(i); return !!(v && v.grid); },
    // Put every control the grid does not cover back where the grid was built (as a reader
    // would, through explorer.js's own change handling): gridded moves draw locally again.
    toBase(i) {
      const v = gv.view(i);
      if (!v || !v.grid) return false;
      for (const [name, val] of Object.entries(v.grid.head.base)) {
        const e = v.inputs[name];
        if (!e || v.vals[name] === val) continue;
        e.set(val);
        v.changed(e.c, val, 'change');
      }
      // a text box gridded over the lesson's texts (07's e-mail): an earlier test typed
      // another text; the grid covers the first of the listed texts again
      for (const axis of v.grid.head.axes) {
        const e = v.inputs[axis.name];
        if (!e || e.c.kind !== 'text' || !(e.c.presets || []).length) continue;
        const t = (v.vals[axis.name] || '').toLowerCase().split(/\s+/).filter(Boolean).join(' ');
        if (e.c.presets.includes(t)) continue;
        e.set(e.c.presets[0]);
        v.changed(e.c, e.c.presets[0], 'change');
      }
      return v.gridCovers();
    },
    canvases(el) {
      return [...(el || document).querySelectorAll('canvas.genviz-canvas')].filter(c => !c.hidden);
    },
    pixels(c) {
      if (!c.width || !c.height) return null;
      return c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    },
    hashCanvas(c) {
      const d = gv.pixels(c);
      if (!d) return 0;
      const u = new Uint32Array(d.buffer);
      let h = 2166136261 ^ u.length;
      for (let k = 0; k < u.length; k++) { h = Math.imul(h ^ u[k], 16777619); }
      return h >>> 0;
    },
    hash(i) { return gv.canvases(gv.root(i)).map(gv.hashCanvas).join(':'); },
    paintCount(i) { return gv.canvases(gv.root(i)).reduce((s, c) => s + (paints.get(c) || 0), 0); },
    // Share of pixels that are neither transparent nor (near) white, per canvas.
    inked(c) {
      const d = gv.pixels(c);
      if (!d) return 0;
      let n = 0;
      for (let k = 0; k < d.length; k += 4) {
        if (d[k + 3] > 0 && (d[k] < 245 || d[k + 1] < 245 || d[k + 2] < 245)) n++;
      }
      return n / (d.length / 4);
    },
    // Figures shown twice in one cell (same pixels).
    duplicates() {
      const byCell = new Map();
      for (const c of gv.canvases(document)) {
        const cell = c.closest('.jp-Cell') || c.closest('.jp-OutputArea') || document.body;
        if (!byCell.has(cell)) byCell.set(cell, []);
        byCell.get(cell).push(gv.hashCanvas(c));
      }
      const out = [];
      [...byCell.values()].forEach((hs, k) => {
        const dup = hs.filter((h, j) => h !== 0 && hs.indexOf(h) !== j).length;
        if (dup) out.push({cell: k, figures: hs.length, repeated: dup});
      });
      return out;
    },
    figures() {
      return gv.canvases(document).map((c, k) => ({index: k, width: c.width, height: c.height,
        inked: gv.inked(c)}));
    },
    readout(i) {
      const r = gv.root(i).querySelector('.genviz-readout');
      return r ? r.innerText : '';
    },
    sliderIdx: {},
    ranges(i) { return [...gv.root(i).querySelectorAll('input[type=range]')]; },
    handle(i) { return gv.ranges(i)[gv.sliderIdx[i] || 0]; },
    nSliders(i) { return gv.ranges(i).length; },
    useSlider([i, k]) { gv.sliderIdx[i] = k; gv.dir = undefined; return true; },
    // Every slider of explorer i: its index, label, whether its states are precomputed.
    sliders(i) {
      return gv.ranges(i).map((h, k) => {
        const box = h.closest('.genviz-control');
        return {index: k, name: box.dataset.name, grid: box.dataset.grid === '1',
                label: (box.querySelector('.genviz-label') || {}).textContent || '',
                disabled: h.disabled};
      });
    },
    sliderLabel(i) {
      const box = gv.handle(i).closest('.genviz-control');
      const l = box ? box.querySelector('.genviz-label') : null;
      return l ? l.textContent.trim() : '';
    },
    // Resolve true as soon as the explorer's pixels differ from hash h0 (false on timeout).
    waitChange([i, h0, timeoutMs]) {
      return new Promise(resolve => {
        const start = performance.now();
        const tick = () => {
          if (gv.hash(i) !== h0) return resolve(true);
          if (performance.now() - start > timeoutMs) return resolve(false);
          setTimeout(tick, 30);
        };
        tick();
      });
    },
    focusHandle(i) { const h = gv.handle(i); h.scrollIntoView({block: 'center'}); h.focus(); return document.activeElement === h; },
    // Which arrow key moves the slider away from the end it sits on.
    nextKey(i) {
      const h = gv.handle(i);
      const v = +h.value, lo = +h.min, hi = +h.max;
      if (gv.dir === undefined) gv.dir = 1;
      if (v >= hi) gv.dir = -1; else if (v <= lo) gv.dir = 1;
      return gv.dir > 0 ? 'ArrowRight' : 'ArrowLeft';
    },
    sliderValue(i) {
      const h = gv.handle(i);
      return h.value + ' / ' + (h.getAttribute('aria-valuetext') || '');
    },
    // Resolve when the explorer's pixels differ from now, after the next keydown:
    // milliseconds from keydown to the first animation frame showing new pixels.
    // The pixels are hashed only in frames after a paint (drawImage on the explorer's canvas).
    arm(i, timeoutMs) {
      const h0 = gv.hash(i);
      let seen = gv.paintCount(i);
      gv.keyT0 = null;
      gv.frameMs = null;
      gv.wait = new Promise(resolve => {
        const start = performance.now();
        const tick = () => {
          const now = performance.now();
          const painted = gv.paintCount(i);
          if (gv.keyT0 !== null && painted !== seen) {
            seen = painted;
            if (gv.hash(i) !== h0) {
              const f = frames.find(t => t >= gv.keyT0);
              gv.frameMs = f === undefined ? null : f - gv.keyT0;
              return resolve(now - gv.keyT0);
            }
          }
          if (now - start > timeoutMs) return resolve(-1);
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      });
      return true;
    },
    // Resolve once the explorer's pixels have not changed for quietMs (false on timeout).
    settle(i, quietMs, timeoutMs) {
      return new Promise(resolve => {
        let last = gv.hash(i), since = performance.now();
        const start = since;
        const tick = () => {
          const now = performance.now(), h = gv.hash(i);
          if (h !== last) { last = h; since = now; }
          if (now - since >= quietMs) return resolve(true);
          if (now - start > timeoutMs) return resolve(false);
          setTimeout(tick, 50);
        };
        setTimeout(tick, 50);
      });
    },
    snapshotPng(i) { return gv.canvases(gv.root(i)).map(c => c.toDataURL('image/png')); },
    errors() {
      const out = [];
      for (const o of document.querySelectorAll('.jp-OutputArea-output')) {
        const mime = o.getAttribute('data-mime-type') || '';
        const text = o.innerText || '';
        if (mime === 'application/vnd.jupyter.stderr' && /Traceback|Error/.test(text)) out.push(text.slice(0, 2000));
        else if (/Error displaying widget|Failed to load model class|There was an error when executing cell/.test(text)) out.push(text.slice(0, 2000));
      }
      for (const e of document.querySelectorAll('.jp-RenderedText[data-mime-type="application/vnd.jupyter.stderr"]')) {
        const text = e.innerText || '';
        if (/Traceback/.test(text) && !out.includes(text.slice(0, 2000))) out.push(text.slice(0, 2000));
      }
      for (const n of document.querySelectorAll('.genviz-notice')) {
        if (!n.hidden && n.textContent.trim()) out.push('explorer notice: ' + n.textContent.trim());
      }
      return out;
    },
    stderr() {
      return [...document.querySelectorAll('[data-mime-type="application/vnd.jupyter.stderr"]')]
        .map(e => (e.innerText || '').slice(0, 500));
    },
    // Output areas anywhere on the page whose content is wider than their box.
    outputsOverflow() {
      return [...document.querySelectorAll('.jp-OutputArea-output')]
        .filter(o => o.getBoundingClientRect().width > 0 && o.scrollWidth > o.clientWidth + 1)
        .map(o => `output ${o.scrollWidth} px wide in ${o.clientWidth} px: ` + (o.innerText || '').trim().slice(0, 60));
    },
    explorerBox(i) { return gv.root(i); },
    // Widget labels and buttons anywhere on the page whose text is cut (ipywidgets ends a
    // label or a button that is too narrow with an ellipsis: "Your a…", "Show sol…").
    clippedWidgetText() {
      return [...document.querySelectorAll('.widget-label, .jupyter-button')]
        .filter(e => { const b = e.getBoundingClientRect();
                       return b.width > 0 && b.height > 0 && e.scrollWidth > e.clientWidth + 1; })
        .map(e => `"${(e.innerText || e.textContent || '').trim().slice(0, 40)}" needs ${e.scrollWidth} px, has ${e.clientWidth}`);
    },
    // Radio options anywhere on the page whose text does not fit the option's line box
    // (ipywidgets gives each option a fixed height and floats its button: a long option wrapped
    // under the next one and put its button on its second line, under the box's Check button).
    overflowingRadios() {
      return [...document.querySelectorAll('.widget-radio-box label')]
        .filter(e => { const b = e.getBoundingClientRect();
                       if (b.width === 0 || b.height === 0) return false;
                       const i = e.querySelector('input'), ib = i && i.getBoundingClientRect();
                       return e.scrollHeight > e.clientHeight + 1
                         || (ib && (ib.top < b.top - 1 || ib.bottom > b.bottom + 1)); })
        .map(e => `"${(e.innerText || e.textContent || '').trim().slice(0, 50)}" needs ${e.scrollHeight} px high, has ${e.clientHeight}`);
    },
    // Horizontal fit of explorer i: every element box inside the output area (and the
    // viewport), no element that scrolls or clips sideways; readouts never wider than their box.
    fit(i) {
      const ex = gv.explorerBox(i);
      const area = ex.closest('.jp-OutputArea-output') || ex.parentElement;
      const A = area.getBoundingClientRect();
      const right = Math.min(A.right, window.innerWidth), left = Math.max(A.left, 0);
      const problems = [];
      const name = e => (typeof e.className === 'string' ? e.className : e.tagName)
        .split(' ').filter(c => c.startsWith('genviz')).slice(0, 2).join('.') || e.tagName;
      const els = [ex, ...ex.querySelectorAll('.genviz-control, .genviz-readout, canvas, table, img, label, input, select, textarea, output')];
      for (const e of els) {
        const b = e.getBoundingClientRect();
        if (b.width === 0 || b.height === 0) continue;
        if (b.right > right + 1 || b.left < left - 1)
          problems.push(`${name(e)} spans x=${b.left.toFixed(0)}..${b.right.toFixed(0)}, outside the output area ${left.toFixed(0)}..${right.toFixed(0)}`);
      }
      for (const e of [ex, area, ...ex.querySelectorAll('.genviz-readout, .genviz-side, .genviz-body, .genviz-controls, .genviz-figure')]) {
        if (e.scrollWidth > e.clientWidth + 1)
          problems.push(`${name(e)} content ${e.scrollWidth} px wide in a ${e.clientWidth} px box (clipped or scrolls sideways)`);
      }
      const r = ex.getBoundingClientRect();
      return {problems: [...new Set(problems)].slice(0, 12), area: [Math.round(A.left), Math.round(A.right)],
              explorer: [Math.round(r.left), Math.round(r.right), Math.round(r.height)]};
    },
    // Vertical extent of controls + figure (the readout may sit below the controls).
    together(i) {
      const ex = gv.explorerBox(i);
      const parts = [...ex.querySelectorAll('.genviz-controls, .genviz-title')].concat(gv.canvases(ex));
      const bs = parts.map(e => e.getBoundingClientRect()).filter(b => b.height > 0);
      const top = Math.min(...bs.map(b => b.top)), bottom = Math.max(...bs.map(b => b.bottom));
      return {top: Math.round(top), bottom: Math.round(bottom), height: Math.round(bottom - top)};
    },
    // Control labels of explorer i with a word wider than the label's box (the browser then
    // breaks it inside the word: "Temper|ature"): [{label, word, word_px, box_px}].
    brokenLabels(i) {
      const ex = gv.explorerBox(i);
      const ctx = document.createElement('canvas').getContext('2d');
      const out = [];
      for (const l of ex.querySelectorAll('.genviz-label')) {
        const b = l.getBoundingClientRect();
        if (b.width === 0) continue;
        const cs = getComputedStyle(l);
        const box = b.width - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
        ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        for (const word of l.textContent.trim().split(/\s+/)) {
          const w = ctx.measureText(word).width;
          if (w > box + 0.5) out.push({label: l.textContent.trim(), word, word_px: Math.round(w), box_px: Math.round(box)});
        }
      }
      return out;
    },
    // Smallest computed font size (px) of text in explorer i's labels, slider readouts,
    // buttons and readout, and of the page's prose; with where it was found.
    fonts(i) {
      const ex = gv.explorerBox(i);
      const smallest = (els) => {
        let best = null;
        for (const e of els) {
          if (!e.innerText || !e.innerText.trim() || e.closest('sub, sup')) continue;
          const b = e.getBoundingClientRect();
          if (b.width === 0) continue;
          const px = parseFloat(getComputedStyle(e).fontSize);
          if (best === null || px < best.px) best = {px, text: e.innerText.trim().slice(0, 40)};
        }
        return best;
      };
      const readout = [...ex.querySelectorAll('.genviz-readout *')].filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()));
      return {
        labels: smallest(ex.querySelectorAll('.genviz-label')),
        slider_readouts: smallest(ex.querySelectorAll('output.genviz-value')),
        buttons: smallest(ex.querySelectorAll('select, textarea, .genviz-toggle label')),
        readout: smallest(readout),
        prose: smallest([...document.querySelectorAll('.jp-RenderedMarkdown p, .jp-RenderedMarkdown li')].slice(0, 40)),
      };
    },
  };
  window.addEventListener('keydown', () => { if (gv.keyT0 === null) gv.keyT0 = performance.now(); }, true);
  window.__gv = gv;
})();
"""


def gv(page, expr: str, arg=None):
    """Evaluate ``window.__gv.<expr>`` in the page (expr may use ``arg``)."""
    return page.evaluate(f"(arg) => window.__gv.{expr}", arg)


class LabNotebook:
    """A notebook open in JupyterLab (a lab of its own or a student's server on the hub): the
    one login-and-run sequence of tests/test_hub.py, test_hub_updates.py, test_votes.py and the
    ``lab_nb`` fixture (conftest.py).

    ``LabNotebook.login(page, hub_base, name)`` logs a student in at the hub's login form;
    ``LabNotebook(page).open(url)`` opens a notebook and waits for its kernel to be idle;
    ``run_all()`` clicks Run -> Run All (again, up to 3 times, while no prompt moves:
    JupyterLab may drop the first click) and returns the clicks that did nothing;
    ``wait_all_ran(timeout_s)`` waits until every code cell shows its execution count.
    """

    IDLE = ".jp-Notebook-ExecutionIndicator[data-status='idle']"
    PROMPTS_JS = ("() => [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')]"
                  ".map(e => e.innerText.trim())")

    def __init__(self, page):
        self.page = page

    @staticmethod
    def login(page, hub_base: str, name: str) -> None:
        """Log ``name`` in at the hub's login form (the trial hub takes any password)."""
        page.goto(f"{hub_base}/hub/login")
        page.fill("#username_input", name)
        page.click("#login_submit")

    def open(self, url: str, timeout_ms=180_000) -> "LabNotebook":
        self.page.goto(url)
        self.page.wait_for_selector(self.IDLE, timeout=timeout_ms)
        return self

    def prompts(self) -> list[str]:
        return self.page.evaluate(self.PROMPTS_JS)

    @staticmethod
    def all_ran(prompts) -> bool:
        """Every code cell shows an execution count (``[3]:``)."""
        return bool(prompts) and all(p.startswith("[") and p[1:-2].strip().isdigit()
                                     for p in prompts)

    def run_all(self, attempts=3) -> int:
        """Run -> Run All until a prompt leaves ``[ ]:``; the number of clicks that did not."""
        for attempt in range(attempts):
            self.page.click(".lm-MenuBar-itemLabel:text-is('Run')")
            self.page.click("li.lm-Menu-item[data-command='runmenu:run-all']")
            started = time.monotonic()
            while time.monotonic() - started < 20:
                if any(p != "[ ]:" for p in self.prompts()):
                    return attempt
                self.page.wait_for_timeout(250)
        return attempts

    def wait_all_ran(self, timeout_s=240, settled=None, strict=True) -> list[str]:
        """Poll the prompts until every cell ran (``settled(ran)``, if given, decides instead:
        the lab fixture also stops on an error once the kernel is idle); past ``timeout_s``
        raise (``strict``) or return the prompts as they are."""
        deadline = time.monotonic() + timeout_s
        while True:
            prompts = self.prompts()
            ran = self.all_ran(prompts)
            if (settled(ran) if settled is not None else ran):
                return prompts
            if time.monotonic() > deadline:
                if strict:
                    raise AssertionError(f"Run All did not finish in {timeout_s} s: {prompts}")
                return prompts
            self.page.wait_for_timeout(500)


def settle(page, i, quiet_ms=400, timeout_ms=30_000) -> bool:
    return page.evaluate("([i, q, t]) => window.__gv.settle(i, q, t)", [i, quiet_ms, timeout_ms])


def move_and_wait(page, i, n=3, delay_ms=150, timeout_ms=15_000) -> bool:
    """Press n arrow keys on explorer i's current slider, wait for new pixels (an expensive
    update may take seconds before any pixel changes), then for the canvas to settle."""
    h0 = gv(page, "hash(arg)", i)
    press(page, i, n=n, delay_ms=delay_ms)
    changed = page.evaluate("(a) => window.__gv.waitChange(a)", [i, h0, timeout_ms])
    settle(page, i, quiet_ms=600, timeout_ms=30_000)
    return changed


def press(page, i, n=1, delay_ms=0) -> list[str]:
    """Press the arrow key that moves explorer i's first slider, n times; returns the keys."""
    keys = []
    for _ in range(n):
        key = gv(page, "nextKey(arg)", i)
        page.keyboard.press(key)
        keys.append(key)
        if delay_ms:
            page.wait_for_timeout(delay_ms)
    return keys


def measure_latency(page, i, moves=20, timeout_ms=5_000, give_up_after=3,
                    frames: list | None = None) -> list[float]:
    """Slider change -> new pixels, in ms, for ``moves`` single key presses on explorer i.

    Each sample: hash the explorer's canvases, press one arrow key (a capture-phase keydown
    listener stamps t0), then a requestAnimationFrame loop watches the canvases: in each frame
    after one was painted (drawImage) it hashes them, until they differ; the sample is the time
    of that frame minus t0 (so it includes up to one frame, ~16 ms, of detection granularity). The canvas is left to settle between samples. A press
    that changes no pixel within ``timeout_ms`` gives -1; after ``give_up_after`` of those in a
    row the explorer is not sampled further (its first slider rarely changes the figure).
    ``frames``, if given, gets for each sample the time from t0 to the arrival of the first
    websocket message over 4 kB (the frame), or -1: what the kernel and server took; the rest
    of the sample is the browser decoding and painting it.
    """
    gv(page, "focusHandle(arg)", i)
    samples = []
    for _ in range(moves):
        settle(page, i, quiet_ms=200, timeout_ms=15_000)
        key = gv(page, "nextKey(arg)", i)
        page.evaluate("([i, t]) => window.__gv.arm(i, t)", [i, timeout_ms])
        page.keyboard.press(key)
        samples.append(page.evaluate("() => window.__gv.wait"))
        if frames is not None:
            f = page.evaluate("() => window.__gv.frameMs") if samples[-1] >= 0 else None
            frames.append(-1.0 if f is None else float(f))
        if len(samples) >= give_up_after and all(x < 0 for x in samples[-give_up_after:]):
            break
    return samples


def summarize(samples: list[float]) -> dict:
    ok = sorted(s for s in samples if s >= 0)
    if not ok:
        return {"n": 0, "missed": len(samples), "median": float("nan"), "p95": float("nan")}
    p95 = ok[min(len(ok) - 1, int(round(0.95 * (len(ok) - 1))))]
    return {"n": len(ok), "missed": len(samples) - len(ok),
            "median": statistics.median(ok), "p95": p95}


def save_data_urls(urls: list[str], stem: pathlib.Path) -> list[pathlib.Path]:
    paths = []
    for k, url in enumerate(urls):
        path = stem.with_name(f"{stem.name}_canvas{k}.png")
        path.write_bytes(base64.b64decode(url.split(",", 1)[1]))
        paths.append(path)
    return paths


def fit_problems(page, i) -> dict:
    """Explorer i's horizontal fit (``window.__gv.fit``): problems, output area, explorer box."""
    return gv(page, "fit(arg)", i)


def viewport_screenshot(page, i, path) -> None:
    """Scroll explorer i's top into view and capture the viewport as the user sees it."""
    page.evaluate("i => window.__gv.explorerBox(i).scrollIntoView({block: 'start'})", i)
    page.wait_for_timeout(400)
    page.screenshot(path=str(path))


def resize(page, viewport: dict, settle_ms=1200) -> None:
    """Resize the page (JupyterLab and Voila re-lay out; ipywidgets re-flow)."""
    page.set_viewport_size(viewport)
    page.wait_for_timeout(settle_ms)


def full_page_screenshot(page, path, scroller_selector: str, width: int,
                         max_height=16_000) -> None:
    """Capture a whole notebook: JupyterLab and Voila scroll inside an element, so grow the
    viewport to that element's content height, scroll it to the top, and capture."""
    old = page.viewport_size
    height = page.evaluate(
        "(sel) => { const e = document.querySelector(sel);"
        " return Math.max(e ? e.scrollHeight : 0, document.documentElement.scrollHeight); }",
        scroller_selector)
    page.set_viewport_size({"width": width, "height": int(min(max_height, height + 200))})
    page.wait_for_timeout(500)
    page.evaluate("(sel) => { const e = document.querySelector(sel); if (e) e.scrollTop = 0; }",
                  scroller_selector)
    page.wait_for_timeout(500)
    page.screenshot(path=str(path), full_page=True)
    page.set_viewport_size(old)
    page.wait_for_timeout(300)

// genviz explorers in the browser: one hand-written ES module (no build step) for JupyterLab
// and Voila (an anywidget: `export default {render}`) and for the course website (the same
// source inlined in the page, mounted by `mountStaticExplorers`).
//
// It draws the controls (native range inputs, selects, radio buttons, a textarea), the readout
// (role=status) and the figure: a <canvas> showing the view's static background PNG with the
// animated artists replayed over it from numbers matplotlib recorded (genviz/plots/_record.py
// documents the frame layout; genviz/widgets/states.py the grid of precomputed states). No
// model and no figure is computed here.
//
// Model attributes (traits of genviz.widgets._base.Explorer): spec, values_front,
// readout_html, alt, background (PNG), frame (recorded ops), stale, ack, grid, notice.
// Messages to the kernel: {type: "ready"} when a view is drawn; {type: "update", view, seq,
// values, frame} with the positions / option indices / text of the controls that changed.

const OP_CLIP = 1, OP_PATHS = 2, OP_MARKERS = 3, OP_IMAGE = 4, OP_SPRITE = 5;
const OP_SPRITE_POOL = 6, OP_IMAGE_POOL = 7;  // pixels in the grid's shared pool
const GRID_SYNC_MS = 300;   // a gridded control: the kernel hears its value after this pause
const FLIGHT_TIMEOUT_MS = 15000;

// -- bytes ---------------------------------------------------------------------------------------
function bytesOf(x) {
  if (!x) return new Uint8Array(0);
  if (x instanceof Uint8Array) return x;
  if (x instanceof ArrayBuffer) return new Uint8Array(x);
  if (ArrayBuffer.isView(x)) return new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
  return new Uint8Array(0);
}

function aligned(bytes) {
  // typed-array views need 4-byte-aligned offsets: copy when the buffer is not
  return bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
}

const utf8 = new TextDecoder();

export function decodeFrame(bytesIn) {
  const bytes = aligned(bytesOf(bytesIn));
  if (bytes.length < 20 || bytes[0] !== 71 || bytes[1] !== 86 || bytes[2] !== 70 || bytes[3] !== 49) {
    throw new Error('not a genviz frame');
  }
  const head = new Uint32Array(bytes.buffer, bytes.byteOffset + 4, 4);
  const [nHead, nI32, nF32, nU8] = head;
  let pos = bytes.byteOffset + 20;
  if (20 + nHead + 4 * nI32 + 4 * nF32 + nU8 > bytes.length) throw new Error('truncated frame');
  const meta = JSON.parse(utf8.decode(new Uint8Array(bytes.buffer, pos, nHead)));
  pos += nHead;
  const i32 = new Int32Array(bytes.buffer, pos, nI32); pos += 4 * nI32;
  const f32 = new Float32Array(bytes.buffer, pos, nF32); pos += 4 * nF32;
  const u8 = new Uint8Array(bytes.buffer, pos, nU8);
  return {meta, i32, f32, u8};
}

async function inflate(bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function decodeGrid(bytesIn) {
  const raw = await inflate(bytesOf(bytesIn));
  if (raw[0] !== 71 || raw[1] !== 86 || raw[2] !== 71 || raw[3] !== 49) throw new Error('not a genviz grid');
  const n = new DataView(raw.buffer, raw.byteOffset + 4, 4).getUint32(0, true);
  const head = JSON.parse(utf8.decode(raw.subarray(8, 8 + n)));
  const body = raw.slice(8 + n);  // own buffer, offset 0: frames are 4-aligned in it
  const strides = [];
  let s = 1;
  for (let a = head.axes.length - 1; a >= 0; a--) { strides[a] = s; s *= head.axes[a].n; }
  if (s !== head.states.length) throw new Error('grid has ' + head.states.length + ' states, axes say ' + s);
  const backgrounds = await Promise.all(head.backgrounds.map(([off, len]) =>
    bitmapOf(body.subarray(off, off + len))));
  const [poolOff, poolLen] = head.pool || [0, 0];
  const pool = body.subarray(poolOff, poolOff + poolLen);
  return {head, body, strides, backgrounds, pool, frames: new Map()};
}

// a text control gridded over its presets: the typed text's position among them (-1: none),
// compared as genviz.widgets._controls.normalise_text does
export function presetIndex(c, text) {
  const t = String(text ?? '').toLowerCase().split(/\s+/).filter(Boolean).join(' ');
  return (c.presets || []).indexOf(t);
}

function bitmapOf(png) {
  return createImageBitmap(new Blob([png], {type: 'image/png'}));
}

function gridFrame(grid, index) {
  let f = grid.frames.get(index);
  if (!f) {
    const [off, len] = grid.head.states[index];
    f = decodeFrame(grid.body.subarray(off, off + len));
    f.pool = grid.pool;
    grid.frames.set(index, f);
  }
  return f;
}

// -- painting ------------------------------------------------------------------------------------
const colourCache = new Map();

function colour(u8, o) {
  const key = u8[o] | (u8[o + 1] << 8) | (u8[o + 2] << 16) | (u8[o + 3] << 24);
  let c = colourCache.get(key);
  if (c === undefined) {
    c = `rgba(${u8[o]},${u8[o + 1]},${u8[o + 2]},${(u8[o + 3] / 255).toFixed(4)})`;
    if (colourCache.size > 4096) colourCache.clear();
    colourCache.set(key, c);
  }
  return c;
}

function trace(p, f32, v, u8, c, n) {
  // p: a CanvasRenderingContext2D or a Path2D; v: offset of the first x in f32, c: of the
  // first code in u8; n vertices
  let i = 0;
  while (i < n) {
    const code = u8[c + i], k = v + 2 * i;
    if (code === 1) { p.moveTo(f32[k], f32[k + 1]); i += 1; }
    else if (code === 2) { p.lineTo(f32[k], f32[k + 1]); i += 1; }
    else if (code === 3) { p.quadraticCurveTo(f32[k], f32[k + 1], f32[k + 2], f32[k + 3]); i += 2; }
    else if (code === 4) {
      p.bezierCurveTo(f32[k], f32[k + 1], f32[k + 2], f32[k + 3], f32[k + 4], f32[k + 5]); i += 3;
    } else if (code === 79) { p.closePath(); i += 1; }
    else i += 1;
  }
}

function lineStyle(ctx, style) {
  ctx.lineJoin = style.j || 'round';
  ctx.lineCap = style.c || 'butt';
  ctx.setLineDash(style.d || []);
  ctx.lineDashOffset = style.o || 0;
}

let scratch = null;
function scratchCanvas(w, h) {
  if (!scratch) scratch = document.createElement('canvas');
  if (scratch.width !== w || scratch.height !== h) { scratch.width = w; scratch.height = h; }
  return scratch;
}

function imageData(u8, off, w, h, nPal, palOff) {
  const img = new ImageData(w, h);
  if (nPal) {
    const pal = new Uint32Array(nPal);
    new Uint8Array(pal.buffer).set(u8.subarray(palOff, palOff + 4 * nPal));
    const out = new Uint32Array(img.data.buffer);
    const idx = u8.subarray(off, off + w * h);
    for (let i = 0; i < idx.length; i++) out[i] = pal[idx[i]];
  } else {
    img.data.set(u8.subarray(off, off + 4 * w * h));
  }
  return img;
}

function blit(ctx, img, x, y, w, h, smooth) {
  const s = scratchCanvas(img.width, img.height);
  s.getContext('2d').putImageData(img, 0, 0);
  ctx.imageSmoothingEnabled = smooth;
  if (smooth) ctx.imageSmoothingQuality = 'low';
  ctx.drawImage(s, 0, 0, img.width, img.height, x, y, w, h);
}

export function paint(ctx, background, frame) {
  const {meta, i32, f32, u8} = frame;
  const styles = meta.styles;
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha = 1;
  ctx.globalCompositeOperation = 'copy';
  ctx.drawImage(background, 0, 0);
  ctx.globalCompositeOperation = 'source-over';
  let clipped = false;
  let p = 0;
  while (p < i32.length) {
    const op = i32[p];
    if (op === OP_CLIP) {
      const kind = i32[p + 1], r = i32[p + 2];
      if (clipped) { ctx.restore(); clipped = false; }
      if (kind > 0) {
        ctx.save(); clipped = true;
        ctx.beginPath();
        ctx.rect(f32[r], f32[r + 1], f32[r + 2], f32[r + 3]);
        ctx.clip();
        if (kind === 2) { ctx.beginPath(); trace(ctx, f32, i32[p + 4], u8, i32[p + 5], i32[p + 3]); ctx.clip(); }
      }
      p += 6;
    } else if (op === OP_PATHS) {
      const n = i32[p + 2];
      let v = i32[p + 3], c = i32[p + 4];
      const col = i32[p + 5], wid = i32[p + 6];
      const style = styles[i32[p + 1]];
      lineStyle(ctx, style);
      const minWidth = style.aa === 0 ? 1 : 0;  // aliased in Agg: at least a whole pixel
      for (let k = 0; k < n; k++) {
        const nv = i32[p + 7 + k], o = col + 8 * k;
        ctx.beginPath();
        trace(ctx, f32, v, u8, c, nv);
        if (u8[o + 3]) { ctx.fillStyle = colour(u8, o); ctx.fill(); }
        const w = Math.max(f32[wid + k], f32[wid + k] > 0 ? minWidth : 0);
        if (u8[o + 7] && w > 0) {
          ctx.lineWidth = w; ctx.miterLimit = w; ctx.strokeStyle = colour(u8, o + 4); ctx.stroke();
        }
        v += 2 * nv; c += nv;
      }
      p += 7 + n;
    } else if (op === OP_MARKERS) {
      const nv = i32[p + 2], v = i32[p + 3], c = i32[p + 4];
      const np = i32[p + 5], pts = i32[p + 6], col = i32[p + 7], per = i32[p + 8];
      const w = f32[i32[p + 9]];
      lineStyle(ctx, styles[i32[p + 1]]);
      const marker = new Path2D();
      trace(marker, f32, v, u8, c, nv);
      ctx.lineWidth = w > 0 ? w : 1;
      ctx.miterLimit = w > 0 ? w : 1;  // as Agg: the limit is the width in pixels
      for (let k = 0; k < np; k++) {
        const o = col + (per ? 8 * k : 0);
        ctx.setTransform(1, 0, 0, 1, f32[pts + 2 * k], f32[pts + 2 * k + 1]);
        if (u8[o + 3]) { ctx.fillStyle = colour(u8, o); ctx.fill(marker); }
        if (u8[o + 7] && w > 0) { ctx.strokeStyle = colour(u8, o + 4); ctx.stroke(marker); }
      }
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      p += 10;
    } else if (op === OP_IMAGE || op === OP_IMAGE_POOL) {
      const w = i32[p + 1], h = i32[p + 2], r = i32[p + 6];
      const src = op === OP_IMAGE ? u8 : frame.pool;
      ctx.globalAlpha = i32[p + 8] / 1000;
      blit(ctx, imageData(src, i32[p + 3], w, h, i32[p + 4], i32[p + 5]),
           f32[r], f32[r + 1], f32[r + 2], f32[r + 3], i32[p + 7] === 1);
      ctx.globalAlpha = 1;
      p += 9;
    } else if (op === OP_SPRITE || op === OP_SPRITE_POOL) {
      const w = i32[p + 1], h = i32[p + 2];
      const src = op === OP_SPRITE ? u8 : frame.pool;
      blit(ctx, imageData(src, i32[p + 3], w, h, 0, 0), i32[p + 4], i32[p + 5], w, h, false);
      p += 6;
    } else {
      throw new Error('unknown drawing operation ' + op);
    }
  }
  if (clipped) ctx.restore();
  ctx.restore();
}

// -- the explorer --------------------------------------------------------------------------------
let uid = 0;

class ExplorerView {
  constructor(model, el, {live}) {
    this.model = model;
    this.el = el;
    this.live = live;                 // a kernel answers (false on the static site)
    this.id = Math.random().toString(36).slice(2, 10);
    this.seq = 0;
    this.inFlight = 0;                // seq of the kernel request awaited, 0 when none
    this.flightTimer = null;
    this.pending = false;
    this.dirty = new Set();           // controls changed locally, not yet sent
    this.gridDirty = new Set();
    this.gridTimer = null;
    this.lastGridSeq = 0;             // seq of the last state painted from the grid
    this.grid = null;
    this.gridError = null;
    this.bg = null;
    this.bgKey = null;
    this.onPaint = null;              // a test hook
    this.vals = {...(model.get('values_front') || {})};
    this.build();
    this.listen();
  }

  // -- DOM ----------------------------------------------------------------------------------
  build() {
    const spec = this.model.get('spec') || {controls: []};
    this.spec = spec;
    const root = document.createElement('div');
    root.className = 'genviz-explorer genviz-anywidget';
    root.__genviz = this;
    if (spec.id) root.dataset.explorerId = spec.id;
    // keys pressed in the explorer (arrows, PageUp/Down, Home/End, text) are the controls':
    // JupyterLab's command-mode shortcuts must not take them (Lumino honours this attribute;
    // ipywidgets stops the propagation of key events from its inputs too)
    root.setAttribute('data-lm-suppress-shortcuts', 'true');
    root.addEventListener('keydown', (e) => e.stopPropagation());
    const n = ++uid;
    if (spec.title) {
      const t = document.createElement('div');
      t.className = 'genviz-title';
      const b = document.createElement('b');
      b.textContent = spec.title;
      t.appendChild(b);
      root.appendChild(t);
    }
    const body = document.createElement('div');
    body.className = 'genviz-body';
    const side = document.createElement('div');
    side.className = 'genviz-side';
    const controls = document.createElement('div');
    controls.className = 'genviz-controls';
    this.inputs = {};
    // ids unique on the page: anywidget gives each explorer its own copy of this module (a
    // counter would restart at 1 in each), so the view's random id is part of them
    for (const c of spec.controls) controls.appendChild(this.control(c, `gv-${this.id}-${n}-${c.name}`));
    side.appendChild(controls);
    this.readout = document.createElement('div');
    this.readout.className = 'genviz-readout';
    this.readout.setAttribute('role', 'status');
    this.readout.setAttribute('aria-live', 'polite');
    this.readout.setAttribute('aria-atomic', 'true');
    side.appendChild(this.readout);
    const figure = document.createElement('div');
    figure.className = 'genviz-figure';
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'genviz-canvas';
    this.canvas.width = spec.width || 640;
    this.canvas.height = spec.height || 480;
    this.canvas.style.width = `${this.canvas.width}px`;
    this.canvas.setAttribute('role', 'img');
    figure.appendChild(this.canvas);
    this.ctx = this.canvas.getContext('2d');
    body.appendChild(side);
    body.appendChild(figure);
    root.appendChild(body);
    this.noticeEl = document.createElement('p');
    this.noticeEl.className = 'genviz-notice';
    this.noticeEl.hidden = true;
    root.appendChild(this.noticeEl);
    this.root = root;
    this.figure = figure;
    this.el.appendChild(root);
    this.setReadout(this.model.get('readout_html'), this.model.get('alt'));
  }

  control(c, id) {
    const box = document.createElement('div');
    box.className = `genviz-control genviz-${c.kind}`;
    box.dataset.name = c.name;
    box.dataset.grid = c.grid ? '1' : '0';
    const label = document.createElement(c.kind === 'choice' && c.style === 'toggle' ? 'span' : 'label');
    label.className = 'genviz-label';
    label.textContent = c.label;
    box.appendChild(label);
    const enabled = this.live || c.grid;
    if (c.kind === 'slider') {
      label.htmlFor = id;
      const input = document.createElement('input');
      input.type = 'range';
      input.id = id;
      input.min = '0';
      input.max = String(c.n);
      input.step = '1';
      const out = document.createElement('output');
      out.htmlFor = id;
      out.className = 'genviz-value';
      box.appendChild(input);
      box.appendChild(out);
      const show = () => {
        const text = c.labels[+input.value] ?? input.value;
        input.setAttribute('aria-valuetext', text);
        out.textContent = text;
      };
      input.addEventListener('input', () => { show(); this.changed(c, +input.value, 'input'); });
      input.addEventListener('change', () => this.changed(c, +input.value, 'change'));
      this.inputs[c.name] = {c, set: (k) => { input.value = String(k); show(); }, el: input};
    } else if (c.kind === 'choice' && c.style === 'toggle') {
      const group = document.createElement('div');
      group.className = 'genviz-toggle';
      group.setAttribute('role', 'radiogroup');
      label.id = `${id}-label`;
      group.setAttribute('aria-labelledby', label.id);
      const radios = c.options.map((text, i) => {
        const l = document.createElement('label');
        const r = document.createElement('input');
        r.type = 'radio';
        r.name = id;
        r.value = String(i);
        r.addEventListener('change', () => { if (r.checked) this.changed(c, i, 'change'); });
        l.appendChild(r);
        l.appendChild(document.createTextNode(text));
        group.appendChild(l);
        return r;
      });
      box.appendChild(group);
      this.inputs[c.name] = {c, set: (i) => radios.forEach((r, k) => { r.checked = k === i; }),
                             el: group, radios};
    } else if (c.kind === 'choice') {
      label.htmlFor = id;
      const select = document.createElement('select');
      select.id = id;
      c.options.forEach((text, i) => {
        const o = document.createElement('option');
        o.value = String(i);
        o.textContent = text;
        select.appendChild(o);
      });
      select.addEventListener('change', () => this.changed(c, +select.value, 'change'));
      box.appendChild(select);
      this.inputs[c.name] = {c, set: (i) => { select.value = String(i); }, el: select};
    } else if (c.kind === 'text') {
      label.htmlFor = id;
      const area = document.createElement('textarea');
      area.id = id;
      area.rows = c.rows || 5;
      area.placeholder = c.placeholder || '';
      area.addEventListener('change', () => this.changed(c, area.value, 'change'));
      // offline, a text of the lesson's list is drawn as it is typed (no kernel to wait for)
      if (c.grid && !this.live) area.addEventListener('input', () => this.changed(c, area.value, 'input'));
      box.appendChild(area);
      this.inputs[c.name] = {c, set: (t) => { area.value = t; }, el: area};
    }
    const entry = this.inputs[c.name];
    if (entry) {
      entry.set(this.vals[c.name]);
      if (!enabled) {
        for (const e of entry.radios || [entry.el]) e.disabled = true;
        const hint = document.createElement('span');
        hint.className = 'genviz-hint';
        hint.textContent = 'run the notebook to move this';
        box.appendChild(hint);
        box.classList.add('genviz-disabled');
      }
    }
    return box;
  }

  setReadout(html, alt) {
    if (html !== undefined && this.readoutHtml !== html) {
      this.readoutHtml = html;
      this.readout.innerHTML = html || '';
    }
    if (alt !== undefined) this.canvas.setAttribute('aria-label', alt || '');
  }

  notice(text) {
    this.noticeEl.textContent = text || '';
    this.noticeEl.hidden = !text;
  }

  // -- model --------------------------------------------------------------------------------
  listen() {
    const m = this.model;
    this.handlers = [
      ['change:frame', () => this.kernelFrame()],
      ['change:background', () => this.kernelFrame()],
      ['change:readout_html', () => this.kernelText()],
      ['change:alt', () => this.kernelText()],
      ['change:ack', () => this.acked()],
      ['change:values_front', () => this.kernelValues()],
      ['change:grid', () => this.loadGrid()],
      ['change:notice', () => this.notice(m.get('notice'))],
    ];
    for (const [ev, fn] of this.handlers) m.on(ev, fn);
    this.notice(m.get('notice'));
  }

  async start() {
    if (this.live) this.model.send({type: 'ready', view: this.id});
    await this.loadGrid();
    if (this.paintFromGrid()) return;
    if (this.live) { await this.kernelFrame(true); return; }
    if (!this.gridError) this.failed('This explorer has no precomputed states here');
  }

  destroy() {
    for (const [ev, fn] of this.handlers) this.model.off(ev, fn);
    clearTimeout(this.gridTimer);
    clearTimeout(this.flightTimer);
  }

  async loadGrid() {
    const bytes = bytesOf(this.model.get('grid'));
    if (!bytes.length) { this.grid = null; return; }
    try {
      this.grid = await decodeGrid(bytes);
      this.gridError = null;
    } catch (err) {
      this.grid = null;
      this.gridError = err;
      this.failed(`This explorer's precomputed states could not be read (${err.message})`);
    }
  }

  failed(why) {
    // the browser cannot decode what it was sent: the image of the current setting stays
    if (this.live) {
      this.notice(`${why}; moving a control asks the kernel instead.`);
    } else {
      this.notice(`${why}; showing an image of its initial setting instead.`);
      this.root.classList.add('genviz-failed');
      if (this.fallback) this.fallback.hidden = false;
      this.canvas.hidden = true;
    }
  }

  async kernelFrame(force) {
    // a frame the kernel recorded (or the initial state)
    const ack = String(this.model.get('ack') || '');
    if (!force && ack.startsWith(this.id + ':') && +ack.split(':')[1] < this.lastGridSeq) return;
    const raw = this.model.get('background');
    const png = bytesOf(raw);
    const bytes = bytesOf(this.model.get('frame'));
    if (!png.length || !bytes.length) return;
    try {
      if (this.bgKey !== raw) {
        const bitmap = await bitmapOf(png);
        this.bg = bitmap;
        this.bgKey = raw;
      }
      const frame = decodeFrame(bytes);
      this.draw(this.bg, frame);
      this.setReadout(this.model.get('readout_html'), this.model.get('alt'));
    } catch (err) {
      this.failed(`This explorer's figure could not be drawn (${err.message})`);
    }
  }

  kernelText() {
    const ack = String(this.model.get('ack') || '');
    if (ack.startsWith(this.id + ':') && +ack.split(':')[1] < this.lastGridSeq) return;
    this.setReadout(this.model.get('readout_html'), this.model.get('alt'));
  }

  kernelValues() {
    // values set from Python: follow them, except controls the reader is changing
    const vals = this.model.get('values_front') || {};
    for (const [name, v] of Object.entries(vals)) {
      if (this.dirty.has(name) || this.gridDirty.has(name)) continue;
      const entry = this.inputs[name];
      if (entry && document.activeElement === entry.el && this.inFlight) continue;
      this.vals[name] = v;
      if (entry) entry.set(v);
    }
  }

  acked() {
    const [view, seq] = String(this.model.get('ack') || '').split(':');
    if (view !== this.id || +seq < this.inFlight) return;
    this.inFlight = 0;
    clearTimeout(this.flightTimer);
    if (this.pending) { this.pending = false; this.send(true); }
  }

  // -- the reader moves a control -------------------------------------------------------------
  changed(c, value, how) {
    this.vals[c.name] = value;
    if (c.kind === 'text' && c.grid && !this.live) {
      this.notice(presetIndex(c, value) < 0
        ? 'This text needs a kernel: here only the texts the lesson asks for are precomputed.' : '');
    }
    if (c.grid && this.gridCovers()) {
      if (this.gridIndex() !== this.paintedIndex || how === 'input') this.paintFromGrid();
      if (this.live) {
        this.gridDirty.add(c.name);
        clearTimeout(this.gridTimer);
        // a drag ends with 'change'; each key press fires one too: debounce both
        if (how === 'change') this.gridTimer = setTimeout(() => this.syncGrid(), GRID_SYNC_MS);
      }
      return;
    }
    if (!this.live) return;
    if (how === 'input' && !c.continuous) return;
    this.dirty.add(c.name);
    this.send(true);
  }

  gridCovers() {
    const g = this.grid;
    if (!g) return false;
    for (const [name, v] of Object.entries(g.head.base)) {
      if (this.vals[name] !== v) return false;
    }
    for (const axis of g.head.axes) {
      const c = this.inputs[axis.name]?.c;
      if (c && c.kind === 'text' && presetIndex(c, this.vals[axis.name]) < 0) return false;
    }
    return true;
  }

  gridIndex() {
    const g = this.grid;
    let index = 0;
    g.head.axes.forEach((axis, a) => {
      const c = this.inputs[axis.name]?.c;
      const k = c && c.kind === 'text' ? presetIndex(c, this.vals[axis.name]) : this.vals[axis.name];
      const v = Math.max(0, Math.min(axis.n - 1, Math.round(k ?? 0)));
      index += v * g.strides[a];
    });
    return index;
  }

  paintFromGrid() {
    if (!this.grid || !this.gridCovers()) return false;
    try {
      const g = this.grid;
      const index = this.gridIndex();
      const [, , bg, r, a] = g.head.states[index];
      this.draw(g.backgrounds[bg], gridFrame(g, index));
      this.setReadout(g.head.readouts[r], g.head.alts[a]);
      this.paintedIndex = index;
      this.lastGridSeq = ++this.seq;
      return true;
    } catch (err) {
      this.grid = null;
      this.failed(`This explorer's precomputed states could not be drawn (${err.message})`);
      return false;
    }
  }

  draw(bg, frame) {
    if (!bg) return;
    if (this.canvas.width !== frame.meta.w || this.canvas.height !== frame.meta.h) {
      this.canvas.width = frame.meta.w;
      this.canvas.height = frame.meta.h;
      this.canvas.style.width = `${frame.meta.w}px`;
    }
    if (frame !== this.lastFrame) this.paintedIndex = -1;
    paint(this.ctx, bg, frame);
    this.lastFrame = frame;
    if (this.onPaint) this.onPaint();
  }

  // -- to the kernel --------------------------------------------------------------------------
  pick(names) {
    const out = {};
    for (const name of names) out[name] = this.vals[name];
    return out;
  }

  syncGrid() {
    if (!this.gridDirty.size) return;
    const values = this.pick(this.gridDirty);
    this.gridDirty.clear();
    this.model.send({type: 'update', view: this.id, seq: ++this.seq, values, frame: false});
  }

  send(frame) {
    if (this.inFlight) { this.pending = true; return; }
    // gridded values the kernel has not heard yet go first, in the same message
    for (const name of this.gridDirty) this.dirty.add(name);
    this.gridDirty.clear();
    clearTimeout(this.gridTimer);
    const values = this.pick(this.dirty);
    this.dirty.clear();
    this.inFlight = ++this.seq;
    this.model.send({type: 'update', view: this.id, seq: this.inFlight, values, frame});
    clearTimeout(this.flightTimer);
    this.flightTimer = setTimeout(() => { this.inFlight = 0; if (this.pending) { this.pending = false; this.send(true); } },
                                  FLIGHT_TIMEOUT_MS);
  }
}

// -- anywidget: JupyterLab and Voila --------------------------------------------------------------
function render({model, el}) {
  const view = new ExplorerView(model, el, {live: true});
  el.__genviz = view;
  view.start();
  return () => view.destroy();
}

export default {render};

// -- the course website: the same module, no kernel -------------------------------------------------
function base64Bytes(text) {
  if (!text) return new Uint8Array(0);
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

class StaticModel {
  // the part of a widget model explorer.js uses, over the payload the site embedded
  constructor(payload) {
    this.state = {...payload};
    for (const key of ['background', 'frame', 'grid']) this.state[key] = base64Bytes(payload[key]);
    this.state.ack = '';
    this.state.notice = '';
  }
  get(name) { return this.state[name]; }
  set(name, value) { this.state[name] = value; }
  on() {}
  off() {}
  send() {}
  save_changes() {}
}

// the site's caption, from the controls' specs: what moves here and what needs a kernel
export function offlineCaption(controls) {
  const name = (c) => (c.kind === 'text' && c.grid ? `${c.label} (the lesson's ${c.presets.length} texts)` : c.label);
  const list = (cs) => cs.map(name).join(', ');
  const moving = controls.filter((c) => c.grid);
  const kernel = controls.filter((c) => !c.grid);
  if (!moving.length) return 'Run this notebook in JupyterLab, Voilà or Binder to move this explorer.';
  if (!kernel.length) return `Move ${list(moving)} here, or run this notebook in JupyterLab, Voilà or Binder.`;
  return `Move ${list(moving)} here. Needs a kernel (run this notebook in JupyterLab, Voilà or ` +
    `Binder): ${list(kernel)}.`;
}

// the narrow layout (issue #37): where the page is narrower than this, the phone's figure (the
// payload's "narrow" grid, genviz.widgets.payload: the same painter, panels stacked, drawn
// 340 px wide and shown 1:1, so its text keeps 11 CSS px); the wide figure otherwise
export const NARROW_BELOW = 600;
export function chooseLayout(payload, width) {
  // a server that sends one layout at a time and names those it has (the lecture page): the one
  // the width asks for, fetched on demand (mountStaticExplorers' fetchLayout)
  if (payload.layouts) return payload.layouts.includes('narrow') && width < NARROW_BELOW ? 'narrow' : 'wide';
  if (payload.layout) return payload.layout;  // a server that sent one layout only
  return payload.narrow && width < NARROW_BELOW ? 'narrow' : 'wide';
}

async function layoutGrid(view, layout) {
  if (view.fetchLayout) return (await view.fetchLayout(layout)).grid;
  return layout === 'narrow' ? view.payload.narrow : view.payload.grid;
}

// the layout follows the page: a phone turned sideways (844 px) or a window narrowed past
// NARROW_BELOW swaps the grid the view paints from; the controls keep their values
export async function relayout(view, width) {
  const payload = view.payload;
  const layout = chooseLayout(payload, width);
  if (!payload || layout === view.layout) return false;
  const before = view.layout;
  view.layout = layout;
  view.grids = view.grids || {};
  let grid = view.grids[layout];
  if (!grid) {
    let source;
    try {
      source = await layoutGrid(view, layout);
    } catch (err) {  // the other layout could not be fetched: keep drawing this one
      if (view.layout === layout) view.layout = before;
      return false;
    }
    if (view.layout !== layout) return false;  // the width changed again while fetching
    try {
      grid = await decodeGrid(base64Bytes(source));
    } catch (err) {
      view.failed(`This explorer's precomputed states could not be read (${err.message})`);
      return false;
    }
    view.grids[layout] = grid;
    if (view.layout !== layout) return false;  // the width changed again while decoding
  }
  view.grid = grid;
  view.root.dataset.layout = layout;
  view.root.classList.toggle('genviz-narrow', layout === 'narrow');
  view.paintedIndex = -1;
  view.paintFromGrid();
  return true;
}

function boxWidth(view) {
  const box = view.el.parentElement;
  return (box && box.clientWidth) || window.innerWidth;
}

let relayoutTimer = null;
const mounted = new Set();
function followTheWidth() {
  clearTimeout(relayoutTimer);
  relayoutTimer = setTimeout(() => {
    for (const view of mounted) {
      if (!view.el.isConnected) { mounted.delete(view); continue; }
      if (!view.root.classList.contains('genviz-failed')) relayout(view, boxWidth(view));
    }
  }, 150);
}

// a site page's states: one file per layout (docs/conf.py split_grids), loaded by a <script>
// element (it works from file://, where fetch() is refused) that files the base64 text under
// self.genvizGrids[name]; each file once per page
const gridFiles = new Map();
export function loadGridFile(url) {
  if (!gridFiles.has(url)) {
    gridFiles.set(url, new Promise((resolve, reject) => {
      const name = url.slice(url.lastIndexOf('/') + 1);
      const script = document.createElement('script');
      script.src = url;
      script.onload = () => {
        const grids = self.genvizGrids || {};
        const grid = grids[name];
        delete grids[name];  // the promise keeps it: one copy in memory
        if (typeof grid === 'string') resolve(grid);
        else reject(new Error(`${name} holds no states`));
      };
      script.onerror = () => { gridFiles.delete(url); reject(new Error(`${name} could not be loaded`)); };
      document.head.appendChild(script);
    }));
  }
  return gridFiles.get(url);
}

export async function mountStaticExplorers(root = document, {fetchLayout, gridBase} = {}) {
  // fetchLayout(layout) -> Promise of the payload in that layout, for a server that sends one
  // layout at a time (payload.layouts: the lecture page); without it the view keeps its layout.
  // gridBase: the URL of a site page's state files (payload.files: each layout's file name)
  // a figure of class genviz-static-explorer holds the image (the no-JavaScript fallback) and a
  // <script type="application/json"> with the payload (docs/conf.py writes both)
  const views = [];
  for (const box of root.querySelectorAll('.genviz-static-explorer:not([data-genviz-mounted])')) {
    box.setAttribute('data-genviz-mounted', '1');
    const img = box.querySelector('img');
    let view;
    try {
      const payload = JSON.parse(box.querySelector('script.genviz-explorer-data').textContent);
      const host = document.createElement('div');
      host.className = 'genviz-static-host';
      box.insertBefore(host, box.firstChild);
      // the grid a one-layout payload carries is the layout it is drawn in
      const layout = payload.layout || chooseLayout(payload, box.clientWidth || window.innerWidth);
      const fromFiles = payload.files && gridBase !== undefined
        ? async (name) => ({grid: await loadGridFile(gridBase + payload.files[name])}) : null;
      const first = fromFiles ? {...payload, grid: (await fromFiles(layout)).grid}
        : layout === 'narrow' && payload.narrow ? {...payload, grid: payload.narrow} : payload;
      const model = new StaticModel(first);
      view = new ExplorerView(model, host, {live: false});
      view.payload = payload;
      view.layout = layout;
      view.root.dataset.layout = layout;
      view.root.classList.toggle('genviz-narrow', layout === 'narrow');
      box.__genviz = view;
      if (img) { view.fallback = img; img.hidden = true; view.figure.appendChild(img); }
      await view.start();
      view.grids = {[layout]: view.grid};
      if (!view.root.classList.contains('genviz-failed')) {
        const caption = box.querySelector('figcaption');
        const controls = payload.spec.controls || [];
        if (caption) caption.textContent = offlineCaption(controls);
      }
      views.push(view);
      if (payload.layouts && (fromFiles || fetchLayout)) view.fetchLayout = fromFiles || fetchLayout;
      if ((payload.narrow && !payload.layout) || view.fetchLayout) {
        if (!mounted.size) window.addEventListener('resize', followTheWidth);
        mounted.add(view);
      }
    } catch (err) {
      if (img) img.hidden = false;
      const p = document.createElement('p');
      p.className = 'genviz-notice';
      p.textContent = `This explorer could not be started here (${err.message}); showing an image of its initial setting instead.`;
      box.appendChild(p);
      if (view) view.root.classList.add('genviz-failed');
    }
  }
  return views;
}

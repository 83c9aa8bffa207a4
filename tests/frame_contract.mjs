// The browser's side of the frame contract (tests/test_frame_contract.py), without a browser.
//
// usage: node tests/frame_contract.mjs EXPLORER_JS FRAMES_JSON
//
// FRAMES_JSON is {"frames": [{"frame": base64, "pool": base64}, ...]}, written by the Python
// recorder (genviz/plots/_record.py). Each frame is decoded by explorer.js's own
// `decodeFrame` and painted by its own `paint` on a recording 2-D context: every drawing call
// and the context state it used are printed as JSON, one list of items per frame, for the
// Python test to check field by field against the matplotlib artists that were recorded.
import {copyFileSync, mkdtempSync, readFileSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';

const [explorerJs, framesJson] = process.argv.slice(2);
if (!explorerJs || !framesJson) {
  console.error('usage: node frame_contract.mjs EXPLORER_JS FRAMES_JSON');
  process.exit(2);
}

// -- what paint() needs of a browser, recorded ---------------------------------------------------
class Path2D {
  constructor() { this.segments = []; }
  moveTo(x, y) { this.segments.push(['M', x, y]); }
  lineTo(x, y) { this.segments.push(['L', x, y]); }
  quadraticCurveTo(...a) { this.segments.push(['Q', ...a]); }
  bezierCurveTo(...a) { this.segments.push(['C', ...a]); }
  closePath() { this.segments.push(['Z']); }
  rect(x, y, w, h) { this.segments.push(['R', x, y, w, h]); }
}

class ImageData {
  constructor(w, h) { this.width = w; this.height = h; this.data = new Uint8ClampedArray(4 * w * h); }
}

class RecordingContext extends Path2D {
  constructor(log) {
    super();
    this.log = log;
    this.stack = [];
    this.state = {fillStyle: null, strokeStyle: null, lineWidth: 1, miterLimit: 10,
                  lineJoin: 'miter', lineCap: 'butt', dash: [], lineDashOffset: 0,
                  globalAlpha: 1, globalCompositeOperation: 'source-over',
                  imageSmoothingEnabled: true, transform: [1, 0, 0, 1, 0, 0]};
    for (const key of Object.keys(this.state)) {
      if (key === 'dash' || key === 'transform') continue;
      Object.defineProperty(this, key, {get: () => this.state[key],
                                        set: (v) => { this.state[key] = v; }});
    }
    this.image = null;  // what putImageData last put on a scratch canvas
  }
  save() { this.stack.push(structuredClone(this.state)); }
  restore() { this.state = this.stack.pop(); this.log.push({call: 'restore'}); }
  setTransform(a, b, c, d, e, f) { this.state.transform = [a, b, c, d, e, f]; }
  setLineDash(d) { this.state.dash = [...d]; }
  beginPath() { this.segments = []; }
  clip() { this.log.push({call: 'clip', path: this.segments.slice()}); }
  fill(path) {
    this.log.push({call: 'fill', path: (path || this).segments.slice(),
                   fillStyle: this.state.fillStyle, transform: this.state.transform.slice()});
  }
  stroke(path) {
    const s = this.state;
    this.log.push({call: 'stroke', path: (path || this).segments.slice(),
                   strokeStyle: s.strokeStyle, lineWidth: s.lineWidth, miterLimit: s.miterLimit,
                   lineJoin: s.lineJoin, lineCap: s.lineCap, dash: s.dash.slice(),
                   dashOffset: s.lineDashOffset, transform: s.transform.slice()});
  }
  putImageData(img) { this.image = img; }
  drawImage(src, ...args) {
    if (src && src.isBackground) { this.log.push({call: 'background'}); return; }
    const img = src.ctx.image;
    this.log.push({call: 'image', args, alpha: this.state.globalAlpha,
                   smooth: this.state.imageSmoothingEnabled, width: img.width,
                   height: img.height, pixels: Buffer.from(img.data).toString('base64')});
  }
}

globalThis.Path2D = Path2D;
globalThis.ImageData = ImageData;
globalThis.document = {
  createElement(tag) {
    if (tag !== 'canvas') throw new Error('paint() made a <' + tag + '>');
    const canvas = {width: 0, height: 0};
    canvas.ctx = new RecordingContext([]);
    canvas.getContext = () => canvas.ctx;
    return canvas;
  },
};

// explorer.js is an ES module served as .js (no package.json says so): import a .mjs copy
const dir = mkdtempSync(join(tmpdir(), 'genviz-frame-contract-'));
let explorer;
try {
  const copy = join(dir, 'explorer.mjs');
  copyFileSync(explorerJs, copy);
  explorer = await import(pathToFileURL(copy).href);
} finally {
  rmSync(dir, {recursive: true, force: true});
}

const input = JSON.parse(readFileSync(framesJson, 'utf8'));
const out = input.frames.map(({frame, pool}) => {
  const decoded = explorer.decodeFrame(new Uint8Array(Buffer.from(frame, 'base64')));
  decoded.pool = new Uint8Array(Buffer.from(pool || '', 'base64'));
  const log = [];
  explorer.paint(new RecordingContext(log), {isBackground: true}, decoded);
  return {meta: decoded.meta, n: [decoded.i32.length, decoded.f32.length, decoded.u8.length],
          items: log};
});
process.stdout.write(JSON.stringify(out));

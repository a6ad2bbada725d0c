// Shared helpers of the chapter's widgets (not a widget itself: build.mjs skips files starting with "_").
// Drawing and orchestration only: every number a widget shows comes from tp in the worker (ctx.compute).
import { h } from '../src/dom.js';

export { h };

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * s('line', { x1, y1 }, ...children) → an SVG element. A value var(--name, fallback) (a theme colour, see C)
 * becomes a style property, since presentation attributes do not accept var(); the fallback, the light
 * value, is also written as the attribute, for whatever reads the SVG without the page's CSS.
 */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'text') el.textContent = v;
    else if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (typeof v === 'string' && v.startsWith('var(')) {
      el.style.setProperty(k, v);
      const fallback = /^var\(--[\w-]+,\s*([^()]+)\)$/.exec(v)?.[1];
      if (fallback) el.setAttribute(k, fallback);
    } else el.setAttribute(k, String(v));
  }
  for (const c of children.flat()) if (c) el.append(c);
  return el;
}

/** The widget's own strings: pick(ctx, { en: '…', zh: '…' }). */
export const pick = (ctx, strings) => strings[ctx.lang] ?? strings.en;

/** A number for reading: a real minus sign (U+2212), no "-0", fixed digits. */
export function fmt(x, digits = 3) {
  if (x === null || x === undefined || Number.isNaN(x)) return '—';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '−∞';
  let t = x.toFixed(digits);
  if (/^-0(\.0*)?$/.test(t)) t = t.slice(1);
  return t.replace(/^-/, '−');
}
export const pct = (x, digits = 1) => `${fmt(100 * x, digits)}%`;

/**
 * The figures' colours: the page's theme variables (web/src/style.css), or the widgets' own (STYLE below),
 * each with its light value as fallback. For SVG through s(), for HTML in a style attribute.
 */
export const C = {
  blue: 'var(--c-blue, #0072b2)', vermillion: 'var(--c-vermillion, #d55e00)', green: 'var(--c-green, #009e73)',
  pink: 'var(--c-pink, #cc79a7)', orange: 'var(--c-orange, #e69f00)', amber: 'var(--c-amber, #b06f00)',
  sky: 'var(--c-sky, #56b4e9)', red: 'var(--c-red, #c5221f)', greenDark: 'var(--c-green-dark, #188038)',
  grey: 'var(--c-grey, #80868b)', moved: 'var(--c-moved, #2a5cae)',
  grid: 'var(--grid, #e3e5e8)', gridFaint: 'var(--tpw-grid-faint, #eceef1)', gridStrong: 'var(--grid-strong, #80868b)',
  axis: 'var(--axis, #555)', highlight: 'var(--info-bg, #e8f0fe)',
  // The widgets' own (STYLE): σ bars not kept (rank-image); attention-flow's bar tracks and masked cells, their
  // edges, the value cells' edges and the mixed vector's.
  barOff: 'var(--tpw-bar-off, #80868b)', track: 'var(--tpw-track, #f1f3f4)', trackEdge: 'var(--tpw-track-edge, #dadce0)',
  cellEdge: 'var(--tpw-cell-edge, #80868b)', cEdge: 'var(--tpw-c-edge, #333)',
};

/** The series colours (Okabe-Ito: distinguishable with the common colour-vision deficiencies). */
export const COLORS = [C.blue, C.vermillion, C.green, C.pink, C.orange, C.sky];

let colorParser = null;
/**
 * The colour of the CSS variable `name` as computed on `el`, as [r, g, b] (0–255): for colours computed in
 * JS, which do not follow the theme by themselves (redraw them in onThemeChange). A 2-D canvas context
 * reads any CSS colour syntax and gives it back as #rrggbb.
 */
export function themeRGB(el, name) {
  colorParser ??= document.createElement('canvas').getContext('2d');
  colorParser.fillStyle = '#000';
  colorParser.fillStyle = getComputedStyle(el).getPropertyValue(name).trim();
  const hex = colorParser.fillStyle;
  return [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
}

/**
 * Calls redraw() after each change of the page's theme (<html data-theme>, announced by the event
 * tensorpad-themechange), until the widget is unmounted (ctx.signal). Only what is drawn with resolved
 * colours needs it: var() colours follow by themselves.
 */
export function onThemeChange(ctx, redraw) {
  addEventListener('tensorpad-themechange', () => redraw(), { signal: ctx.signal });
}

/**
 * Records one finished update of the widget whose root is given, begun at t0 (performance.now() time):
 * root's data-update-ms and data-updates, and globalThis.__tpwTimings[root's test id, or key] for the
 * browser tests' report. Returns the time in ms.
 */
export function recordUpdate(root, t0, key = root.dataset.testid) {
  const ms = performance.now() - t0;
  ((globalThis.__tpwTimings ??= {})[key] ??= []).push(ms);
  root.dataset.updateMs = ms.toFixed(1);
  root.dataset.updates = String(Number(root.dataset.updates ?? 0) + 1);
  return ms;
}

/**
 * Runs update(state) for the latest request only: while one update is in flight, newer requests
 * replace each other and the last one runs next, so dragging never builds a queue in the worker.
 * Each finished update records its time from the interaction to the end of drawing (recordUpdate, and
 * in the returned function's timings), and marks root data-state busy/ready.
 */
export function latest(root, update, onError) {
  let running = false;
  let pending = null;
  let retried = false;
  const timings = [];
  root.dataset.state = 'busy';
  async function pump() {
    running = true;
    while (pending) {
      const { state, t0 } = pending;
      pending = null;
      try {
        await update(state);
        retried = false;
        timings.push(recordUpdate(root, t0));
      } catch (e) {
        // A restarted worker (Interrupt, Restart) rejects what was in flight: ask the fresh one once more.
        if (/worker was restarted/.test(e?.message) && !pending && !retried) {
          retried = true;
          pending = { state, t0 };
          continue;
        }
        onError?.(e);
      }
    }
    running = false;
    root.dataset.state = 'ready';
  }
  const request = (state, t0 = performance.now()) => {
    pending = { state, t0 };
    root.dataset.state = 'busy';
    if (!running) pump();
  };
  request.timings = timings;
  return request;
}

/** A visible error line inside the widget (the worker's message, e.g. an unavailable op). */
export function errorLine() {
  const el = h('p', { class: 'widget-error', role: 'alert', hidden: true });
  return {
    el,
    show(e) { el.hidden = false; el.textContent = String(e?.message ?? e); },
    clear() { el.hidden = true; el.textContent = ''; },
  };
}

/** Pointer dragging on an SVG: onMove(x, y) in the SVG's user units (viewBox), with capture. */
export function draggable(svg, handle, onMove, onEnd) {
  const toUser = (e) => {
    const pt = svg.createSVGPoint();
    pt.x = e.clientX;
    pt.y = e.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    return [p.x, p.y];
  };
  handle.addEventListener('pointerdown', (e) => {
    e.preventDefault();
    handle.setPointerCapture(e.pointerId);
    handle.focus?.({ preventScroll: true });
    const move = (ev) => onMove(...toUser(ev));
    const up = (ev) => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      handle.removeEventListener('pointercancel', up);
      handle.releasePointerCapture?.(ev.pointerId);
      onEnd?.();
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
    handle.addEventListener('pointercancel', up);
  });
}

/** Arrow keys on a focusable element: onStep(dx, dy) with dx, dy in {-1, 0, 1} (×10 with Shift). */
export function arrowKeys(el, onStep) {
  el.addEventListener('keydown', (e) => {
    const k = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[e.key];
    if (!k) return;
    e.preventDefault();
    const m = e.shiftKey ? 10 : 1;
    onStep(k[0] * m, k[1] * m);
  });
}

/** A labelled range input with an <output>. */
export function rangeControl({ id, label, min, max, step = 1, value, format = String, testid }) {
  const input = h('input', { type: 'range', id, min, max, step, value, 'data-testid': testid });
  const out = h('output', { for: id, text: format(Number(value)) });
  const row = h('div', { class: 'tpw-row' }, h('label', { for: id, text: label }), input, out);
  return { row, input, out, set: (v) => { input.value = String(v); out.textContent = format(Number(v)); } };
}

/** Axis ticks for a linear range: about n round numbers. */
export function ticks(lo, hi, n = 5) {
  const span = hi - lo;
  if (!(span > 0)) return [lo];
  const raw = span / n;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((st) => span / st <= n) ?? 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9 * span; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

const STYLE = `
.tpw { font-size: .92rem; }
/* The widgets' own figure colours (the page's are in web/src/style.css): light on .tpw, dark below. σ bars not
   kept and value-cell edges 3.4:1 on the light panel (#f5f6f8), 3.1:1 on the dark one (#212429), the mixed
   vector's edges 7.0:1 in dark; flows opaque enough that the thinnest is 3.4:1 (light) and 3.7:1 (dark); heat
   cells light (or dark) enough for the numbers on them to read at 5.2:1 or more; grid, tracks and their edges
   faint in both (tests/browser/widgets-colours.test.mjs lists what may be faint, and why). */
.tpw { --tpw-grid-faint: #eceef1; --tpw-bar-off: #80868b; --tpw-track: #f1f3f4; --tpw-track-edge: #dadce0;
  --tpw-cell-edge: #80868b; --tpw-c-edge: #333; --tpw-flow-opacity: .8;
  --tpw-heat-0: #ffffff; --tpw-heat-pos: #5b8fd3; --tpw-heat-neg: #ff6937; }
@media not print {
:root[data-theme=dark] .tpw { --tpw-grid-faint: var(--grid); --tpw-bar-off: #6b7078; --tpw-track: #2a2e34; --tpw-track-edge: #454b54;
  --tpw-cell-edge: #6b7078; --tpw-c-edge: #a9aeb6; --tpw-flow-opacity: .7;
  --tpw-heat-0: #2a2e34; --tpw-heat-pos: #1d5fa8; --tpw-heat-neg: #a3401f; }
}
/* A finger on a figure still scrolls the page up and down; only a handle being dragged keeps the touch. */
.tpw svg { display: block; max-width: 100%; height: auto; touch-action: pan-y; user-select: none; }
.tpw .tpw-handle { touch-action: none; }
/* A wide figure with text in it shrinks only so far on a phone (its 12px labels to about 10px), then scrolls. */
.tpw .tpw-scroll { overflow-x: auto; }
@media (max-width: 540px) { .tpw .tpw-scroll > svg { min-width: 500px; touch-action: pan-x pan-y; } .tpw .tpw-scroll > svg.tpw-fit { min-width: 0; touch-action: pan-y; } }
/* Every label of a figure is in the text colour: this rule wins over a text's fill attribute. */
.tpw svg text { font-family: inherit; fill: var(--fg, #1a1a1a); }
.tpw .tpw-row { display: flex; flex-wrap: wrap; align-items: center; gap: .5rem; margin: .35rem 0; }
.tpw .tpw-row[hidden] { display: none; }
.tpw .tpw-row input[type=range] { flex: 1 1 12rem; min-width: 8rem; }
.tpw .tpw-cols { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; }
.tpw .tpw-side { flex: 1 1 16rem; min-width: 14rem; }
.tpw .tpw-swatch { display: inline-block; width: 1.4em; height: 3px; vertical-align: middle; margin-right: .3em; }
.tpw .tpw-readout { font-variant-numeric: tabular-nums; margin: .35rem 0; }
.tpw .tpw-readout b { font-weight: 600; }
.tpw .tpw-note { color: var(--muted, #555); font-size: .85rem; margin: .25rem 0; }
.tpw .tpw-matrix { display: inline-grid; grid-template-columns: repeat(2, 4.6rem); gap: .3rem; padding: 0 .5rem;
  border-left: 2px solid var(--fg, #1a1a1a); border-right: 2px solid var(--fg, #1a1a1a); }
.tpw .tpw-matrix input { width: 4.6rem; font: inherit; padding: .1rem .25rem; text-align: right; }
.tpw input[aria-invalid=true] { outline: 2px solid var(--error, #c5221f); outline-offset: 0; background: var(--error-bg, #fdecea); }
.tpw .tpw-invalid { color: var(--error, #c5221f); font-size: .85rem; margin: .25rem 0; }
.tpw .tpw-handle { cursor: grab; }
/* The ring around a handle's dot: a rule, not a style attribute, so that the focus ring below wins. */
.tpw .tpw-handle .tpw-ring { stroke: var(--handle-ring, #fff); stroke-width: 2; }
.tpw .tpw-handle:focus { outline: none; }
.tpw .tpw-handle:focus-visible circle, .tpw .tpw-handle:focus circle { stroke: var(--focus, #b35900); stroke-width: 4; }
.tpw .tpw-plot:focus-visible { outline: 3px solid var(--focus, #b35900); }
/* Busy (the worker is computing): greyed and lightly faded; its text stays above 4.5:1 on the panel. */
.tpw .tpw-busy { opacity: .7; filter: grayscale(1); transition: opacity .15s; }
.tpw .tpw-tokens { display: flex; flex-wrap: wrap; gap: .3rem; margin: .3rem 0; }
.tpw .tpw-token { font: inherit; padding: .15rem .5rem; border: 1px solid var(--border, #c9ced6); border-radius: 4px;
  background: var(--bg, #fff); color: var(--fg, #1a1a1a); cursor: pointer; }
.tpw .tpw-token[aria-checked=true] { background: var(--accent, #0b57d0); color: var(--accent-fg, #fff); border-color: var(--accent, #0b57d0); }
/* Masked (future) tokens: dimmed by a dashed border and italics, their text still 4.5:1 or more. */
.tpw .tpw-token.tpw-future { color: var(--muted, #555); border-style: dashed; font-style: italic; }
.tpw .tpw-token.tpw-future[aria-checked=true] { color: var(--accent-fg, #fff); }
.tpw canvas { image-rendering: pixelated; border: 1px solid var(--border, #c9ced6); }
.tpw figure { margin: 0; }
.tpw figcaption { font-size: .85rem; color: var(--muted, #555); text-align: center; }
.tpw table { border-collapse: collapse; font-variant-numeric: tabular-nums; margin: .4rem 0;
  display: block; max-width: 100%; overflow-x: auto; } /* a wide table scrolls on its own, never the page */
.tpw th, .tpw td { border-bottom: 1px solid var(--border, #c9ced6); padding: .15rem .6rem; text-align: right; }
.tpw th:first-child, .tpw td:first-child { text-align: left; }
.tpw tr.tpw-current td { font-weight: 600; }
.tpw fieldset { border: 0; padding: 0; margin: .3rem 0; display: flex; flex-wrap: wrap; gap: .75rem; }
.tpw legend { padding: 0; margin-bottom: .2rem; float: left; margin-right: .75rem; }
`;

/** Adds the widgets' stylesheet to the page once. */
export function useStyle() {
  if (document.getElementById('tpw-style')) return;
  document.head.append(h('style', { id: 'tpw-style', text: STYLE }));
}

/**
 * The widget's root element inside the container given by the notebook. The notebook labels the
 * widget's group with the directive's name unless the author gave label=…; a title reads better.
 */
export function root(container, name, ctx, title) {
  useStyle();
  container.innerHTML = '';
  const group = container.closest?.('[data-testid=widget]');
  if (group && title && !ctx?.props?.label) group.setAttribute('aria-label', title);
  const el = h('div', { class: `tpw tpw-${name}`, 'data-testid': `widget-${name}` });
  container.append(el);
  return el;
}

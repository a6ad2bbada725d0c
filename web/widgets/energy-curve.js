// :::widget energy-curve [size=3072x1024] [source=weights]
// The cumulative energy e_k = Σ_{i≤k} σ_i² / Σ σ_i² of a matrix: the share of ‖A‖_F² a rank-k
// approximation keeps. The matrix is a random Gaussian one (by default 3072×1024 with seed 0: the
// chapter's table and its energy-random cell), or a 2-D tensor a reader loaded from a model file (the
// weights feature binds it in the cells' scope under `source`, default `weights`: a tensor, or an object
// of tensors such as weights.W). A loaded tensor is drawn next to a random matrix of the same shape and
// standard deviation, as the chapter compares them. The 90% point is marked and ranks 32/128/512 are read
// out; a rank slider (or hovering the plot) reads any rank. The SVD, the cumulative sum and the 90% count
// run in the worker (tp.linalg.svdvals, cumsum, sign), once per matrix: moving the slider only redraws.
import { h, s, pick, pct, latest, recordUpdate, errorLine, rangeControl, ticks, C, COLORS, root as widgetRoot } from './_common.js';

// The keys a :::widget directive may set (web/build.mjs refuses others).
export const props = ['source', 'size'];

// The chapter's matrix (Qwen3-0.6B gate_proj's shape) first, then a smaller one that computes quickly.
const SIZES = [[3072, 1024], [768, 256]];
const [REF_M, REF_N] = SIZES[0];
const MARKS = [32, 128, 512];
// The source chapter's measurement on Qwen3-0.6B, layer 12 gate_proj (3072×1024): cited, not recomputed.
const SOURCE_QWEN = { 32: 0.127, 128: 0.361, 512: 0.824 };

// Runs in the worker: the 2-D tensors the weights feature (or a cell) bound under the given names.
export function findTensors(tp, { names }, scope) {
  const out = [];
  const add = (path, t) => { if (t instanceof tp.Tensor && t.ndim === 2 && t.numel > 1) out.push({ path, shape: t.shape }); };
  for (const name of names) {
    const v = scope[name];
    if (!v || typeof v !== 'object') continue;
    if (v instanceof tp.Tensor) { add(name, v); continue; }
    for (const [k, t] of Object.entries(v)) add(`${name}.${k}`, t);
  }
  return out.slice(0, 50);
}

// Runs in the worker: the energy curve(s) of the chosen matrix, cached by key between calls.
export function energy(tp, { key, random, path, seed }, scope) {
  const cache = ((globalThis.__tpWidgets ??= {}).energy ??= new Map());
  // A loaded tensor is cached by identity, not by its path: binding another tensor as weights.W redraws.
  const byTensor = (globalThis.__tpWidgets.energyOf ??= new WeakMap());
  if (random && cache.has(key)) return cache.get(key);
  const curve = (A) => tp.tidy(() => {
    const sq = tp.linalg.svdvals(A).square();
    const e = sq.cumsum(0).div(sq.sum());
    // The smallest k with e_k ≥ 0.9 is one more than the number of e_k below 0.9.
    const k90 = e.mul(-1).add(0.9).sign().relu().sum().item() + 1;
    return { e: e.data(), k90 };
  });
  let result;
  if (random) {
    result = { main: tp.tidy(() => curve(tp.randn(random, { seed }))), shape: random };
  } else {
    const A = path.split('.').reduce((o, k) => o?.[k], scope);
    if (!(A instanceof tp.Tensor) || A.ndim !== 2) throw new Error(`${path} is not a 2-d tensor any more`);
    if (byTensor.get(A)?.seed === seed) return byTensor.get(A).result;
    const main = curve(A);
    // A random matrix of the same shape and standard deviation, for comparison.
    const compare = tp.tidy(() => {
      const std = A.sub(A.mean()).square().mean().sqrt().item();
      return curve(tp.randn(A.shape, { seed }).mul(std));
    });
    result = { main, compare, shape: A.shape };
    byTensor.set(A, { seed, result });
    return result;
  }
  cache.set(key, result);
  return result;
}

const TEXT = {
  en: {
    title: 'Energy curve: the share of ‖A‖_F² kept by the best rank-k approximation',
    source: 'Matrix', loaded: (p, sh) => `loaded tensor ${p} (${sh.join('×')})`,
    random: (m, n) => `random Gaussian ${m}×${n}${m === REF_M && n === REF_N ? ' (the chapter\'s table)' : m * n < REF_M * REF_N ? ' (smaller, quicker; not the table\'s)' : ''}`,
    refresh: 'Look for loaded tensors', none: 'No model tensor is loaded; load a model file to analyse a real weight.',
    x: 'rank k', y: 'energy kept', main: 'this matrix', compare: 'random matrix, same shape and std',
    qwen: 'Qwen3-0.6B layer 12 gate_proj (the source chapter\'s measurement)',
    k90: (k) => `90% of the energy needs rank ${k}`, at: (k) => `rank ${k}`,
    slider: 'Rank k (read the energy kept)',
    plot: 'Energy curve of the chosen matrix; the rank slider reads the energy at one rank',
    computing: (sh) => `Computing the singular values${sh.length ? ` of the ${sh.join('×')} matrix` : ''}…${sh[0] * sh[1] >= REF_M * REF_N ? ' (a moment)' : ''}`,
  },
  zh: {
    title: '能量曲线：最佳秩 k 近似保留的 ‖A‖_F² 比例',
    source: '矩阵', loaded: (p, sh) => `已加载的张量 ${p}（${sh.join('×')}）`,
    random: (m, n) => `随机高斯矩阵 ${m}×${n}${m === REF_M && n === REF_N ? '（本章表格所用）' : m * n < REF_M * REF_N ? '（较小、算得快；不是表格所用的）' : ''}`,
    refresh: '查找已加载的张量', none: '还没有加载模型张量；加载模型文件后可以分析真实权重。',
    x: '秩 k', y: '保留的能量', main: '这个矩阵', compare: '同形状、同标准差的随机矩阵',
    qwen: 'Qwen3-0.6B 第 12 层 gate_proj（原文的测量值）',
    k90: (k) => `保留 90% 的能量需要秩 ${k}`, at: (k) => `秩 ${k}`,
    slider: '秩 k（读取保留的能量）',
    plot: '所选矩阵的能量曲线；用秩滑块读取某个秩处的能量',
    computing: (sh) => `正在计算${sh.length ? ` ${sh.join('×')} 矩阵` : ''}的奇异值…${sh[0] * sh[1] >= REF_M * REF_N ? '（需要片刻）' : ''}`,
  },
};

// Two decimals, as the chapter's energy-random cell prints them (its 25.76% is the table's 25.7%, rounded
// from another draw).
const share = (x) => pct(x, 2);

const parseSize = (raw) => {
  const m = /^(\d+)\s*[x×]\s*(\d+)$/.exec(String(raw ?? ''));
  return m ? [Number(m[1]), Number(m[2])] : null;
};

export function mount(container, ctx) {
  const T = pick(ctx, TEXT);
  const el = widgetRoot(container, 'energy-curve', ctx, T.title);
  const err = errorLine();
  const names = String(ctx.props.source ?? 'weights').split(',').map((x) => x.trim()).filter(Boolean);
  const sizes = SIZES.slice();
  const asked = parseSize(ctx.props.size);
  if (asked && !sizes.some(([m, n]) => m === asked[0] && n === asked[1])) sizes.push(asked);
  let choice = `random:${(asked ?? SIZES[0]).join('x')}`;
  let loaded = [];
  let data = null;
  let k = 128; // the rank read out; kept across matrices (clamped to each one's rank)
  // The curves of the random matrices, by choice: switching back to one draws it without the worker.
  const curves = new Map();
  let compareLegend = null;
  const qwenLegend = h('span', { 'data-legend': 'source', hidden: true }, h('span', { 'aria-hidden': 'true', style: `color:${C.axis};margin-right:.3em` }, '◆'), T.qwen);

  const select = h('select', { id: `${ctx.id}-src`, 'data-testid': 'energy-curve-source' });
  const refresh = h('button', { type: 'button', class: 'btn btn-small', 'data-testid': 'energy-curve-refresh' }, T.refresh);
  const note = h('div', { class: 'tpw-note', 'data-testid': 'energy-curve-note' }); // no model tensor loaded
  const status = h('div', { class: 'tpw-note', 'aria-live': 'polite', 'data-testid': 'energy-curve-status' }); // computing…
  const slider = rangeControl({ id: `${ctx.id}-k`, label: T.slider, min: 1, max: REF_N, value: k, format: (v) => `k = ${v}`, testid: 'energy-curve-k' });
  slider.input.disabled = true; // until the first curve arrives
  const W = 560, H = 280, L = 48, R = 14, TOP = 12, B = 40;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: 'tpw-plot', role: 'img', 'aria-label': T.plot, 'data-testid': 'energy-curve-plot' });
  // Three layers: the curves (drawn once per matrix), the rank cursor (per move), the pointer's target.
  const curvesLayer = s('g');
  const cursorLayer = s('g', { 'data-testid': 'energy-curve-cursor' });
  const hit = s('rect', { x: L, y: TOP, width: W - L - R, height: H - TOP - B, fill: 'transparent' });
  svg.append(curvesLayer, cursorLayer, hit);
  const readout = h('div', { class: 'tpw-readout', 'aria-live': 'polite', 'data-testid': 'energy-curve-readout' });
  const table = h('table', { 'data-testid': 'energy-curve-table' });

  function fillSelect() {
    select.replaceChildren(...sizes.map(([m, n]) => h('option', { value: `random:${m}x${n}` }, T.random(m, n))),
      ...loaded.map((t) => h('option', { value: `tensor:${t.path}` }, T.loaded(t.path, t.shape))));
    if (![...select.options].some((o) => o.value === choice)) choice = select.options[0].value;
    select.value = choice;
  }

  async function lookForTensors() {
    let found;
    try {
      found = await ctx.compute(findTensors, { names });
    } catch {
      found = [];
    }
    const changed = JSON.stringify(found) !== JSON.stringify(loaded);
    loaded = found;
    if (changed || !select.options.length) fillSelect(); // an unchanged list is left alone (it may be open)
    note.textContent = loaded.length ? '' : T.none;
  }

  const kmax = () => Math.min(...data.shape);
  const qwenShape = () => Math.min(...data.shape) === REF_N && Math.max(...data.shape) === REF_M;
  const series = () => [[data.main, COLORS[0]], ...(data.compare ? [[data.compare, COLORS[1]]] : [])];
  const xOf = (kk) => L + ((W - L - R) * (kk - 1)) / Math.max(1, kmax() - 1);
  const yOf = (v) => TOP + (H - TOP - B) * (1 - v);

  function drawCurves() {
    const g = curvesLayer;
    g.replaceChildren();
    for (const v of [0, 0.25, 0.5, 0.75, 0.9, 1]) {
      g.append(s('line', { x1: L, x2: W - R, y1: yOf(v), y2: yOf(v), stroke: v === 0.9 ? C.red : C.grid, 'stroke-dasharray': v === 0.9 ? '5 4' : undefined }),
        s('text', { x: L - 6, y: yOf(v) + 4, 'text-anchor': 'end', 'font-size': 11, text: v === 0.9 ? '90%' : pct(v, 0) }));
    }
    g.append(s('line', { x1: L, x2: W - R, y1: H - B, y2: H - B, stroke: C.axis }), s('line', { x1: L, x2: L, y1: TOP, y2: H - B, stroke: C.axis }),
      s('text', { x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle', 'font-size': 12, text: T.x }));
    if (!data) return;
    for (const t of ticks(1, kmax(), 6)) {
      g.append(s('line', { x1: xOf(t), x2: xOf(t), y1: H - B, y2: H - B + 4, stroke: C.axis }),
        s('text', { x: xOf(t), y: H - B + 16, 'text-anchor': 'middle', 'font-size': 11, text: String(t) }));
    }
    for (const [c, color] of series().reverse()) { // this matrix drawn last, on top
      let d = '';
      const e = c.e;
      const stride = Math.max(1, Math.floor(e.length / 600));
      for (let i = 0; i < e.length; i += stride) d += `${i ? 'L' : 'M'}${xOf(i + 1).toFixed(1)},${yOf(e[i]).toFixed(1)}`;
      d += `L${xOf(e.length).toFixed(1)},${yOf(e[e.length - 1]).toFixed(1)}`;
      g.append(s('path', { d, fill: 'none', stroke: color, 'stroke-width': 2 }));
      g.append(s('line', { x1: xOf(c.k90), x2: xOf(c.k90), y1: yOf(0.9), y2: H - B, stroke: color, 'stroke-dasharray': '3 3' }),
        s('circle', { cx: xOf(c.k90), cy: yOf(0.9), r: 4, fill: color }));
    }
    g.append(s('text', { x: Math.min(xOf(data.main.k90) + 6, W - 150), y: yOf(0.9) + 16, 'font-size': 11, text: `k = ${data.main.k90}` }));
    if (qwenShape()) {
      for (const m of MARKS) {
        const x = xOf(m), y = yOf(SOURCE_QWEN[m]);
        g.append(s('path', { d: `M${x},${y - 5} L${x + 5},${y} L${x},${y + 5} L${x - 5},${y} z`, fill: C.axis }, s('title', { text: `${T.qwen}: ${pct(SOURCE_QWEN[m])}` })));
      }
    }
  }

  function drawCursor() {
    cursorLayer.replaceChildren();
    if (!data) return;
    cursorLayer.append(s('line', { x1: xOf(k), x2: xOf(k), y1: TOP, y2: H - B, stroke: C.axis, 'stroke-dasharray': '2 3' }));
    for (const [c, color] of series()) cursorLayer.append(s('circle', { cx: xOf(k), cy: yOf(c.e[k - 1]), r: 4, fill: color }));
  }

  function showText() {
    if (compareLegend) compareLegend.hidden = !data.compare;
    const qwen = qwenShape();
    qwenLegend.hidden = !qwen;
    const marks = MARKS.filter((m) => m <= kmax());
    const head = [h('th', { text: T.x }), h('th', { text: T.main }), data.compare ? h('th', { text: T.compare }) : null, qwen ? h('th', { text: T.qwen }) : null];
    table.replaceChildren(h('tr', {}, ...head),
      ...marks.map((m) => h('tr', { 'data-rank': m }, h('td', { text: String(m) }), h('td', { text: share(data.main.e[m - 1]) }),
        data.compare ? h('td', { text: share(data.compare.e[m - 1]) }) : null, qwen ? h('td', { text: pct(SOURCE_QWEN[m]) }) : null)),
      h('tr', {}, h('td', { text: '90%' }), h('td', { text: `k = ${data.main.k90}` }), data.compare ? h('td', { text: `k = ${data.compare.k90}` }) : null, qwen ? h('td', { text: '' }) : null));
    el.dataset.k90 = String(data.main.k90);
    el.dataset.energy = JSON.stringify(Object.fromEntries(marks.map((m) => [m, data.main.e[m - 1]])));
    ctx.describe(`${T.title}. ${select.selectedOptions[0]?.textContent ?? ''}. ${T.k90(data.main.k90)} (${T.x} ≤ ${kmax()}). ${marks.map((m) => `${T.at(m)}: ${share(data.main.e[m - 1])}`).join(', ')}.`);
  }

  function showReadout() {
    const at = `${T.at(k)}: ${share(data.main.e[k - 1])}${data.compare ? ` (${T.compare}: ${share(data.compare.e[k - 1])})` : ''}`;
    readout.replaceChildren(h('b', { text: T.k90(data.main.k90) }), `; ${at}`);
    el.dataset.k = String(k);
    slider.set(k);
    slider.input.setAttribute('aria-valuetext', at);
  }

  /** Moves the rank read out: no worker call, only the cursor and the text are redrawn. */
  function setRank(next, t0 = performance.now()) {
    if (!data) return;
    k = Math.max(1, Math.min(kmax(), Math.round(next)));
    drawCursor();
    showReadout();
    recordUpdate(el, t0);
  }
  slider.input.addEventListener('input', (e) => setRank(Number(slider.input.value), e.timeStamp));
  hit.addEventListener('pointermove', (e) => {
    if (!data) return;
    const p = svg.createSVGPoint();
    p.x = e.clientX; p.y = e.clientY;
    const u = p.matrixTransform(svg.getScreenCTM().inverse());
    const next = Math.max(1, Math.min(kmax(), Math.round(1 + ((u.x - L) * (kmax() - 1)) / (W - L - R))));
    if (next !== k) setRank(next, e.timeStamp);
  });

  function show(r) {
    data = r;
    slider.input.max = String(kmax());
    slider.input.disabled = false;
    k = Math.min(k, kmax());
    err.clear();
    drawCurves();
    drawCursor();
    showText();
    showReadout();
  }

  // A matrix's curve: computed in the worker the first time, then drawn from `curves`. While the worker
  // computes, the previous curve stays (dimmed) and the slider still reads it.
  const update = latest(el, async (value) => {
    const [kind, rest] = value.split(/:(.*)/s);
    const cached = kind === 'random' && curves.get(value);
    let r = cached;
    if (!cached) {
      const shape = kind === 'random' ? rest.split('x').map(Number) : loaded.find((t) => t.path === rest)?.shape ?? [];
      busy(T.computing(shape));
      const args = kind === 'random' ? { key: value, random: shape, seed: 0 } : { key: value, path: rest, seed: 0 };
      try {
        r = await ctx.compute(energy, args);
      } finally {
        busy(null);
      }
      el.dataset.computations = String(Number(el.dataset.computations ?? 0) + 1); // what the tests count
      if (kind === 'random') curves.set(value, r);
    }
    if (value !== choice) return;
    show(r);
  }, (e) => err.show(e));

  /** Says what is being computed (text, or null when done) and dims the plot meanwhile. */
  function busy(text) {
    status.textContent = text ?? '';
    svg.classList.toggle('tpw-busy', !!text);
    if (text) svg.setAttribute('aria-busy', 'true');
    else svg.removeAttribute('aria-busy');
  }

  select.addEventListener('change', () => { choice = select.value; update(choice); });
  refresh.addEventListener('click', async () => { await lookForTensors(); });
  // The weights feature may bind a tensor without running a cell: look again when the reader opens the list.
  select.addEventListener('focus', () => lookForTensors());
  // A shown tensor may have been replaced or removed: draw again (from the cache if it is the same tensor).
  for (const n of names) {
    ctx.watch(n, async () => {
      const before = choice;
      await lookForTensors();
      if (choice !== before || choice.startsWith('tensor:')) update(choice);
    });
  }

  el.append(h('p', { class: 'tpw-note', text: T.title }),
    h('div', { class: 'tpw-row' }, h('label', { for: select.id, text: T.source }), select, refresh),
    note, status, svg, slider.row,
    h('div', { class: 'tpw-row' }, ...[[T.main, COLORS[0]], [T.compare, COLORS[1]]].map(([label, c], i) => {
      const item = h('span', { 'data-legend': i ? 'compare' : 'main' }, h('span', { class: 'tpw-swatch', 'aria-hidden': 'true', style: `background:${c}` }), label);
      if (i) compareLegend = item;
      return item;
    }), qwenLegend),
    readout, table, err.el);
  fillSelect();
  drawCurves();
  busy(T.computing(choice.slice('random:'.length).split('x').map(Number)));
  lookForTensors().then(() => update(choice));
  return { destroy() { container.innerHTML = ''; } };
}

// :::widget sv-decay [size=128]
// How fast singular values fall for three classes of n×n matrices, on one log-scale plot (each divided
// by its largest): low rank plus noise (a cliff after the rank), a random Gaussian matrix (a slow,
// quarter-circle fall) and a smooth kernel matrix exp(−(x_i − x_j)² / 2ℓ²) (faster than exponential, down
// to float32 precision). A control sets n; hovering or the arrow keys read σ_i/σ_1 at one index.
// The matrices are built and decomposed in the worker (tp.randn, broadcasting ops, tp.linalg.svdvals).
import { h, s, pick, fmt, latest, errorLine, ticks, C, COLORS, root as widgetRoot } from './_common.js';

// The keys a :::widget directive may set (web/build.mjs refuses others).
export const props = ['size'];

const SIZES = [64, 128, 256, 512];
const FLOOR = 1e-8; // float32 SVD cannot resolve σ_i/σ_1 much below ~1e-7; the axis stops here

// Runs in the worker: the three matrices and their singular values divided by σ_1.
export function spectra(tp, { n, rank, noise, ell, seed }) {
  return tp.tidy(() => {
    const U = tp.randn([n, rank], { seed });
    const V = tp.randn([rank, n], { seed: seed + 1 });
    const lowRank = U.matmul(V).div(Math.sqrt(rank)).add(tp.randn([n, n], { seed: seed + 2 }).mul(noise));
    const gauss = tp.randn([n, n], { seed: seed + 3 });
    const x = tp.arange(0, n).div(n);
    const d = x.unsqueeze(1).sub(x.unsqueeze(0)); // (n,1) − (1,n) broadcasts to the (n,n) differences
    const kernel = d.square().mul(-1 / (2 * ell * ell)).exp();
    const norm = (A) => {
      const sv = tp.linalg.svdvals(A);
      return sv.div(sv.narrow(0, 0, 1)).data();
    };
    return { lowRank: norm(lowRank), gauss: norm(gauss), kernel: norm(kernel) };
  });
}

const TEXT = {
  en: {
    title: 'Singular-value decay of three classes of n×n matrices (each σ_i divided by σ_1, log scale)',
    size: 'Matrix size n', classes: ['low rank (r = 8) + noise', 'random Gaussian', 'smooth kernel exp(−(x_i−x_j)²/2ℓ²)'],
    x: 'index i', y: 'σ_i / σ_1',
    plot: 'Line plot of the three spectra; use the left and right arrow keys to read the values at one index',
    at: (i) => `at i = ${i}:`, loading: 'Computing…',
    floor: 'values below 10⁻⁸ are drawn at the bottom edge (float32 precision)',
    below: (i) => `, below 1% from i = ${i}`,
    none: 'no index chosen yet; the arrow keys move along the index',
  },
  zh: {
    title: '三类 n×n 矩阵的奇异值衰减（σ_i 除以 σ_1，对数坐标）',
    size: '矩阵大小 n', classes: ['低秩（r = 8）+ 噪声', '随机高斯矩阵', '光滑核矩阵 exp(−(x_i−x_j)²/2ℓ²)'],
    x: '序号 i', y: 'σ_i / σ_1',
    plot: '三条奇异值曲线；用左右方向键读取某个序号处的数值',
    at: (i) => `i = ${i} 处：`, loading: '计算中…',
    floor: '低于 10⁻⁸ 的值画在底边（float32 精度）',
    below: (i) => `，从 i = ${i} 起低于 1%`,
    none: '尚未选择序号；用方向键沿序号移动',
  },
};

export function mount(container, ctx) {
  const T = pick(ctx, TEXT);
  const el = widgetRoot(container, 'sv-decay', ctx, T.title);
  const err = errorLine();
  let n = SIZES.includes(Number(ctx.props.size)) ? Number(ctx.props.size) : 128;
  let data = null;
  let cursor = null;

  const select = h('select', { id: `${ctx.id}-n`, 'data-testid': 'sv-decay-size' }, ...SIZES.map((v) => h('option', { value: v, selected: v === n }, `${v} × ${v}`)));
  const W = 560, H = 300, L = 56, R = 14, TOP = 12, B = 40;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: 'tpw-plot', tabindex: 0, role: 'slider', 'aria-valuemin': 1, 'aria-valuemax': n, 'aria-valuenow': 1, 'aria-valuetext': T.none, 'aria-label': T.plot, 'data-testid': 'sv-decay-plot' });
  const readout = h('div', { class: 'tpw-readout', 'aria-live': 'polite', 'data-testid': 'sv-decay-readout' });
  const legend = h('div', { class: 'tpw-row' }, ...T.classes.map((c, i) => h('span', {},
    h('span', { class: 'tpw-swatch', 'aria-hidden': 'true', style: `background:${COLORS[i]}` }), c)));

  const keys = ['lowRank', 'gauss', 'kernel'];
  const xOf = (i) => L + ((W - L - R) * (i - 1)) / Math.max(1, n - 1);
  const yOf = (v) => TOP + ((H - TOP - B) * -Math.log10(Math.max(v, FLOOR))) / -Math.log10(FLOOR);

  function draw() {
    svg.replaceChildren();
    for (let e = 0; e >= Math.log10(FLOOR); e -= 2) {
      const y = yOf(10 ** e);
      svg.append(s('line', { x1: L, x2: W - R, y1: y, y2: y, stroke: C.grid }),
        s('text', { x: L - 6, y: y + 4, 'text-anchor': 'end', 'font-size': 11, text: e === 0 ? '1' : `1e${e}` }));
    }
    for (const t of ticks(1, n, 6)) {
      const x = xOf(t);
      svg.append(s('line', { x1: x, x2: x, y1: H - B, y2: H - B + 4, stroke: C.axis }),
        s('text', { x, y: H - B + 16, 'text-anchor': 'middle', 'font-size': 11, text: String(t) }));
    }
    svg.append(s('line', { x1: L, x2: W - R, y1: H - B, y2: H - B, stroke: C.axis }), s('line', { x1: L, x2: L, y1: TOP, y2: H - B, stroke: C.axis }),
      s('text', { x: (L + W - R) / 2, y: H - 6, 'text-anchor': 'middle', 'font-size': 12, text: T.x }),
      s('text', { x: 14, y: (TOP + H - B) / 2, 'text-anchor': 'middle', 'font-size': 12, transform: `rotate(-90 14 ${(TOP + H - B) / 2})`, text: T.y }));
    if (!data) return;
    keys.forEach((k, c) => {
      const sv = data[k];
      let d = '';
      for (let i = 0; i < sv.length; i++) d += `${i ? 'L' : 'M'}${xOf(i + 1).toFixed(1)},${yOf(sv[i]).toFixed(1)}`;
      svg.append(s('path', { d, fill: 'none', stroke: COLORS[c], 'stroke-width': 2, 'data-series': k }));
    });
    if (cursor) {
      const x = xOf(cursor);
      svg.append(s('line', { x1: x, x2: x, y1: TOP, y2: H - B, stroke: C.axis, 'stroke-dasharray': '3 3' }));
      keys.forEach((k, c) => svg.append(s('circle', { cx: x, cy: yOf(data[k][cursor - 1]), r: 4, fill: COLORS[c] })));
    }
    const hit = s('rect', { x: L, y: TOP, width: W - L - R, height: H - TOP - B, fill: 'transparent' });
    hit.addEventListener('pointermove', (e) => {
      const p = svg.createSVGPoint();
      p.x = e.clientX; p.y = e.clientY;
      const u = p.matrixTransform(svg.getScreenCTM().inverse());
      setCursor(Math.round(1 + ((u.x - L) * (n - 1)) / (W - L - R)));
    });
    svg.append(hit);
  }

  // The plot's cursor is a slider over the index (1 before any is chosen): a screen reader hears the values at it.
  function showReadout() {
    svg.setAttribute('aria-valuemax', n);
    svg.setAttribute('aria-valuenow', cursor ?? 1);
    if (!data || !cursor) {
      readout.textContent = T.floor;
      svg.setAttribute('aria-valuetext', T.none);
      return;
    }
    readout.replaceChildren(h('b', { text: T.at(cursor) }), ' ',
      keys.map((k, c) => `${T.classes[c]}: ${data[k][cursor - 1].toExponential(2).replace('-', '−')}`).join('; '));
    svg.setAttribute('aria-valuetext', readout.textContent);
  }
  function setCursor(i) {
    const next = Math.max(1, Math.min(n, i));
    if (next === cursor) return;
    cursor = next;
    draw();
    showReadout();
  }
  svg.addEventListener('keydown', (e) => {
    const step = { ArrowLeft: -1, ArrowRight: 1, PageDown: -10, PageUp: 10 }[e.key];
    if (e.key === 'Home') { e.preventDefault(); setCursor(1); return; }
    if (e.key === 'End') { e.preventDefault(); setCursor(n); return; }
    if (!step) return;
    e.preventDefault();
    setCursor((cursor ?? 0) + step * (e.shiftKey ? 10 : 1));
  });

  const update = latest(el, async (size) => {
    readout.textContent = T.loading;
    const r = await ctx.compute(spectra, { n: size, rank: 8, noise: 0.5, ell: 0.1, seed: 7 });
    if (size !== n) return;
    data = r;
    cursor = cursor ? Math.min(cursor, n) : null;
    el.dataset.n = String(n);
    // What a test or a screen reader needs: where each class falls below 1% of σ_1.
    const below = (sv, t) => { const i = sv.findIndex((v) => v < t); return i < 0 ? null : i + 1; };
    for (const k of keys) el.dataset[`${k}Last`] = String(data[k][n - 1]);
    draw();
    showReadout();
    err.clear();
    const summary = keys.map((k, c) => `${T.classes[c]}: σ_n/σ_1 = ${data[k][n - 1].toExponential(1)}${below(data[k], 0.01) ? T.below(below(data[k], 0.01)) : ''}`).join('; ');
    ctx.describe(`${T.title}, n = ${n}. ${summary}.`);
  }, (e) => err.show(e));

  select.addEventListener('change', () => { n = Number(select.value); update(n); });
  el.append(h('p', { class: 'tpw-note', text: T.title }),
    h('div', { class: 'tpw-row' }, h('label', { for: select.id, text: T.size }), select),
    svg, legend, readout, err.el);
  draw();
  update(n);
  return { destroy() { container.innerHTML = ''; } };
}

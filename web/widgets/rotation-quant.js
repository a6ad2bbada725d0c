// :::widget rotation-quant [dim=512] [rotation=none]
// Rotating before quantizing: activations X (tokens × d) with a few huge outlier channels
// (tp.synth.activations — synthetic, LLM-like) and a weight W. For an orthogonal Q, XWᵀ = (XQ)(WQ)ᵀ, but
// XQ spreads the outliers over all channels. The widget draws the channel magnitudes max_t |x_tc| before
// and after the chosen rotation (none, random orthogonal, block Hadamard with 128-wide blocks), with
// max|x| / median|x| and the W8A8 and W4A4 relative errors of the product. Rotations, fake quantization,
// products and errors run in the worker (tp.linalg.randomOrthogonal/fwht, tp.quant.fakeQuant/relError).
import { h, s, pick, fmt, latest, errorLine, C, COLORS, root as widgetRoot } from './_common.js';

// The keys a :::widget directive may set (web/build.mjs refuses others).
export const props = ['dim', 'rotation'];

const ROTATIONS = ['none', 'random', 'hadamard'];
const DIMS = [256, 512, 1024];
const TOKENS = 256;
const OUT = 256;
const BLOCK = 128;
const GREY = C.grey; // the "before" bars and their swatch: 3.4:1 on the widget's panel (5.0:1 in dark)

// Runs in the worker; X, W, XWᵀ and each rotation's result are kept between calls.
export function rotate(tp, { rotation, tokens, dim, out, block, seed }) {
  const cache = (globalThis.__tpWidgets ??= {});
  const key = `${tokens}x${dim}x${out}:${seed}`;
  let c = cache.rotationQuant;
  if (!c || c.key !== key) {
    if (c) tp.dispose([c.X, c.W, c.Y]);
    const X = tp.synth.activations({ tokens, dim, outliers: 6, outlierScale: 50, seed });
    const W = tp.tidy(() => tp.randn([out, dim], { seed: seed + 1 }).div(Math.sqrt(dim)));
    c = cache.rotationQuant = { key, X, W, Y: X.matmul(W.T), results: {} };
  }
  if (c.results[rotation]) return c.results[rotation];
  const result = tp.tidy(() => {
    let Xr = c.X, Wr = c.W;
    if (rotation === 'random') {
      const Q = tp.linalg.randomOrthogonal(dim, { seed: seed + 2 });
      Xr = c.X.matmul(Q);
      Wr = c.W.matmul(Q);
    } else if (rotation === 'hadamard') {
      // x @ blockdiag(H_128, …): the fast transform, O(d log 128) per row.
      Xr = tp.linalg.fwht(c.X, { block });
      Wr = tp.linalg.fwht(c.W, { block });
    }
    const invariance = tp.quant.relError(Xr.matmul(Wr.T), c.Y);
    const absX = Xr.abs();
    const channels = absX.amax(0).data();
    const max = absX.amax().item();
    const median = absX.median().item();
    const fq = (t, bits, perRow) => tp.quant.fakeQuant(t, { bits, perRow });
    const w8a8 = tp.quant.relError(fq(Xr, 8, false).matmul(fq(Wr, 8, true).T), c.Y);
    const w4a4 = tp.quant.relError(fq(Xr, 4, true).matmul(fq(Wr, 4, true).T), c.Y);
    return { rotation, channels, max, median, peak: max / median, w8a8, w4a4, invariance };
  });
  c.results[rotation] = result;
  return result;
}

const TEXT = {
  en: {
    title: 'Rotate, then quantize: XWᵀ = (XQ)(WQ)ᵀ for any orthogonal Q, but XQ has smaller outliers',
    rotation: 'Rotation Q', names: { none: 'none', random: 'random orthogonal', hadamard: 'block Hadamard (128)' },
    dim: 'Channels d', synthetic: (t, d) => `Activations: synthetic, LLM-like (${t} tokens × ${d} channels, 6 outlier channels; tp.synth.activations), W: random ${OUT}×${d}.`,
    before: 'before (no rotation)', after: 'after', channel: 'channel', mag: 'max |x| over tokens',
    peak: 'max / median', w8a8: 'W8A8 error', w4a4: 'W4A4 error', inv: (e) => `(XQ)(WQ)ᵀ vs XWᵀ: relative difference ${e}`,
    svg: (r) => `Channel magnitudes before (grey) and after the ${r} rotation (blue)`,
    svgNone: 'Channel magnitudes with no rotation (grey)',
    computing: 'Computing… (the first random orthogonal 1024×1024 takes a moment)',
    computingRest: 'Computing the other rotations for the table…',
  },
  zh: {
    title: '先旋转再量化：对任意正交矩阵 Q 有 XWᵀ = (XQ)(WQ)ᵀ，但 XQ 的离群值更小',
    rotation: '旋转 Q', names: { none: '不旋转', random: '随机正交矩阵', hadamard: '分块 Hadamard（128）' },
    dim: '通道数 d', synthetic: (t, d) => `激活：合成的、类似大模型的数据（${t} 个 token × ${d} 个通道，6 个离群通道；tp.synth.activations），W：随机 ${OUT}×${d}。`,
    before: '旋转前', after: '旋转后', channel: '通道', mag: '各 token 上的 max |x|',
    peak: '最大值/中位数', w8a8: 'W8A8 误差', w4a4: 'W4A4 误差', inv: (e) => `(XQ)(WQ)ᵀ 与 XWᵀ 的相对差 ${e}`,
    svg: (r) => `各通道幅度：旋转前（灰）与「${r}」旋转后（蓝）`,
    svgNone: '各通道幅度：不旋转（灰）',
    computing: '计算中…（第一次生成 1024×1024 随机正交矩阵需要片刻）',
    computingRest: '正在为表格计算其他旋转…',
  },
};

export function mount(container, ctx) {
  const T = pick(ctx, TEXT);
  const el = widgetRoot(container, 'rotation-quant', ctx, T.title);
  const err = errorLine();
  let dim = DIMS.includes(Number(ctx.props.dim)) ? Number(ctx.props.dim) : 512;
  let rotation = ROTATIONS.includes(ctx.props.rotation) ? ctx.props.rotation : 'none';
  let results = {};

  const fieldset = h('fieldset', { 'data-testid': 'rotation-quant-rotation' }, h('legend', { text: T.rotation }),
    ...ROTATIONS.map((r) => h('label', {}, h('input', { type: 'radio', name: `${ctx.id}-rot`, value: r, checked: r === rotation, 'data-testid': `rotation-quant-${r}` }), ` ${T.names[r]}`)));
  const dimSelect = h('select', { id: `${ctx.id}-dim`, 'data-testid': 'rotation-quant-dim' }, ...DIMS.map((d) => h('option', { value: d, selected: d === dim }, String(d))));
  const note = h('p', { class: 'tpw-note', 'data-testid': 'rotation-quant-synthetic' });
  const status = h('div', { class: 'tpw-note', 'aria-live': 'polite' });
  const W = 600, H = 220, L = 44, R = 10, TOP = 10, B = 34;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'data-testid': 'rotation-quant-plot' });
  const table = h('table', { 'data-testid': 'rotation-quant-table' });
  const inv = h('div', { class: 'tpw-note' });

  function draw() {
    svg.replaceChildren();
    const base = results.none, cur = results[rotation];
    svg.setAttribute('aria-label', rotation === 'none' ? T.svgNone : T.svg(T.names[rotation]));
    if (!base) return;
    const top = Math.max(...base.channels) * 1.05;
    const yOf = (v) => TOP + (H - TOP - B) * (1 - v / top);
    const bw = (W - L - R) / dim;
    for (let v = 0; v <= top; v += top > 40 ? 10 : 5) {
      svg.append(s('line', { x1: L, x2: W - R, y1: yOf(v), y2: yOf(v), stroke: C.gridFaint }), s('text', { x: L - 5, y: yOf(v) + 4, 'text-anchor': 'end', 'font-size': 10, text: String(v) }));
    }
    const path = (vals) => {
      let d = '';
      for (let i = 0; i < vals.length; i++) d += `M${(L + i * bw + bw / 2).toFixed(2)},${yOf(0).toFixed(1)}V${yOf(vals[i]).toFixed(1)}`;
      return d;
    };
    const rotated = cur && rotation !== 'none';
    svg.append(s('path', { d: path(base.channels), stroke: GREY, 'stroke-width': Math.max(0.6, bw * 0.9), fill: 'none' }));
    if (rotated) svg.append(s('path', { d: path(cur.channels), stroke: COLORS[0], 'stroke-width': Math.max(0.6, bw * 0.9), fill: 'none', 'stroke-opacity': 0.9 }));
    // The legend: a swatch in each series' own colour before its name.
    const swatch = (fill, label) => [s('tspan', { fill, text: ' ▮ ' }), s('tspan', { text: label })];
    svg.append(s('line', { x1: L, x2: W - R, y1: H - B, y2: H - B, stroke: C.axis }),
      s('text', { x: (L + W - R) / 2, y: H - 8, 'text-anchor': 'middle', 'font-size': 11, text: `${T.channel} (0 … ${dim - 1})` }),
      s('text', { x: W - R, y: TOP + 12, 'text-anchor': 'end', 'font-size': 11, 'data-testid': 'rotation-quant-legend' },
        s('tspan', { text: `${T.mag}:` }), ...swatch(GREY, T.before), ...(rotated ? [s('tspan', { text: ',' }), ...swatch(COLORS[0], T.after)] : [])));
  }

  function showTable() {
    table.replaceChildren(h('tr', {}, h('th', { text: T.rotation }), h('th', { text: T.peak }), h('th', { text: T.w8a8 }), h('th', { text: T.w4a4 })),
      ...ROTATIONS.map((r) => {
        const x = results[r];
        return h('tr', { class: r === rotation ? 'tpw-current' : '', 'data-rotation': r, 'data-peak': x?.peak ?? '', 'data-w8a8': x?.w8a8 ?? '', 'data-w4a4': x?.w4a4 ?? '' },
          h('td', { text: T.names[r] }), h('td', { text: x ? fmt(x.peak, 1) : '…' }), h('td', { text: x ? fmt(x.w8a8, 4) : '…' }), h('td', { text: x ? fmt(x.w4a4, 4) : '…' }));
      }));
    const cur = results[rotation];
    if (cur) {
      inv.textContent = T.inv(cur.invariance.toExponential(1));
      el.dataset.peak = String(cur.peak);
      ctx.describe(`${T.title}. ${T.names[rotation]}: ${T.peak} ${fmt(cur.peak, 1)}, ${T.w8a8} ${fmt(cur.w8a8, 4)}, ${T.w4a4} ${fmt(cur.w4a4, 4)}` +
        (rotation !== 'none' && results.none ? ` (${T.before}: ${fmt(results.none.peak, 1)}, ${fmt(results.none.w8a8, 4)}, ${fmt(results.none.w4a4, 4)}).` : '.'));
    }
  }

  const args = (r, d) => ({ rotation: r, tokens: TOKENS, dim: d, out: OUT, block: Math.min(BLOCK, d), seed: 0 });
  // The rotation asked for first (and "none", the picture's baseline), drawn as soon as they arrive;
  // then the other rows of the table, so the comparison is complete without choosing each rotation.
  // A choice made meanwhile waits for at most the row in flight; the rows stay cached here and in the worker.
  const update = latest(el, async ({ r, d }) => {
    const ensure = async (x) => {
      if (d === dim && !results[x]) {
        const res = await ctx.compute(rotate, args(x, d));
        if (d === dim) results[x] = res;
      }
    };
    status.textContent = T.computing;
    await ensure('none');
    await ensure(r);
    if (d !== dim) return;
    el.dataset.rotation = rotation;
    err.clear();
    draw();
    showTable();
    const rest = ROTATIONS.filter((x) => !results[x]);
    if (rest.length) status.textContent = T.computingRest;
    for (const x of rest) {
      if (rotation !== r) return; // the reader chose another rotation: its update runs next, then fills the rest
      await ensure(x);
      if (d !== dim) return;
      showTable();
    }
    status.textContent = '';
  }, (e) => { status.textContent = ''; err.show(e); });

  function choose(r) {
    rotation = r;
    el.dataset.rotation = r;
    update({ r, d: dim });
  }
  fieldset.addEventListener('change', (e) => choose(e.target.value));
  dimSelect.addEventListener('change', () => {
    dim = Number(dimSelect.value);
    results = {};
    note.textContent = T.synthetic(TOKENS, dim);
    choose(rotation);
  });
  note.textContent = T.synthetic(TOKENS, dim);
  el.append(h('p', { class: 'tpw-note', text: T.title }), note,
    h('div', { class: 'tpw-row' }, fieldset, h('label', { for: dimSelect.id, text: T.dim }), dimSelect),
    status, h('div', { class: 'tpw-scroll' }, svg), table, inv, err.el);
  choose(rotation);
  return { destroy() { container.innerHTML = ''; } };
}

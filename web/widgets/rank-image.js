// :::widget rank-image [name=rank] [value=4] [max=32]
// The best rank-k approximation of a built-in grayscale picture (generated here, no download): a slider
// keeps the k largest singular values; shows the approximation, its relative error ‖A − A_k‖_F / ‖A‖_F and
// the numbers stored, k(m + n + 1) against m·n. A bar chart shows σ_1 … σ_max, the slider's whole range
// (a click on a bar chooses its k). The SVD, the product U_k diag(S_k) V_kᵀ and the norms
// run in the worker (tp.linalg.svd once, then one small product per move). The rank is written to the
// cells' scope as `name` (default rank).
import { h, s, pick, fmt, pct, latest, errorLine, rangeControl, C, root as widgetRoot } from './_common.js';

// The keys a :::widget directive may set (web/build.mjs refuses others).
export const props = ['name', 'max', 'value'];

const ROWS = 96;
const COLS = 128;
const ZOOM = 2;
const subscript = (n) => String(n).replace(/\d/g, (d) => '₀₁₂₃₄₅₆₇₈₉'[d]);

// Runs in the worker. The picture (a house, a tree, a sun over hills) is drawn once, decomposed once and
// kept in the worker between calls; each call multiplies out the first k singular triplets.
export function approximate(tp, { k, rows, cols, withOriginal }) {
  const cache = (globalThis.__tpWidgets ??= {});
  let c = cache.rankImage;
  if (!c || c.rows !== rows || c.cols !== cols) {
    const px = new Float32Array(rows * cols);
    const disc = (y, x, cy, cx, r) => (y - cy) ** 2 + (x - cx) ** 2 <= r * r;
    for (let y = 0; y < rows; y++) {
      for (let x = 0; x < cols; x++) {
        let v = 0.82 - 0.35 * (y / rows); // sky, lighter at the top
        const hill = 70 + 6 * Math.sin(x / 11) + 3 * Math.sin(x / 4.3 + 1);
        if (y > hill) v = 0.32 + 0.05 * Math.sin(x * 0.9 + y * 0.7); // grass with texture
        if (disc(y, x, 20, 100, 11)) v = 0.98; // sun
        const roofTop = 30, roofBase = 48, left = 14, right = 62, mid = (left + right) / 2;
        if (y >= roofTop && y < roofBase && Math.abs(x - mid) <= ((y - roofTop) / (roofBase - roofTop)) * ((right - left) / 2 + 4)) v = 0.18; // roof
        if (y >= roofBase && y < 82 && x >= left && x < right) {
          v = 0.62; // wall
          if (x >= 22 && x < 34 && y >= 55 && y < 67) v = (Math.floor((x - 22) / 6) + Math.floor((y - 55) / 6)) % 2 ? 0.95 : 0.75; // window panes
          if (x >= 42 && x < 54 && y >= 60) v = 0.25; // door
        }
        if (x >= 86 && x < 91 && y >= 56 && y < 84) v = 0.3; // trunk
        if (disc(y, x, 48, 88, 13) || disc(y, x, 56, 80, 9) || disc(y, x, 56, 97, 9)) v = 0.12 + 0.08 * ((x * 7 + y * 13) % 5) / 4; // crown
        px[y * cols + x] = v;
      }
    }
    for (const t of ['A', 'U', 'S', 'Vh', 'normA']) c?.[t]?.dispose?.();
    const A = tp.tensor(px, { shape: [rows, cols] });
    const { U, S, Vh } = tp.linalg.svd(A);
    c = cache.rankImage = { rows, cols, A, U, S, Vh, normA: tp.linalg.norm(A), rank: tp.linalg.matrixRank(A), pixels: px };
  }
  return tp.tidy(() => {
    // A_k = U[:, :k] diag(S[:k]) Vh[:k, :]: scaling U's columns by S is a broadcast multiply.
    const Ak = c.U.narrow(1, 0, k).mul(c.S.narrow(0, 0, k)).matmul(c.Vh.narrow(0, 0, k));
    const error = tp.linalg.norm(Ak.sub(c.A)).div(c.normA).item();
    return {
      k,
      approx: Ak.data(),
      error,
      original: withOriginal ? c.pixels : undefined,
      sigma: withOriginal ? Array.from(c.S.data()) : undefined,
      rank: c.rank,
    };
  });
}

const TEXT = {
  en: {
    title: 'Rank-k approximation of a picture: keep the k largest singular values',
    slider: 'Singular values kept (k)', original: (r) => (r ? `original (rank ${r})` : 'original'), approx: (k) => `rank ${k} approximation`,
    error: 'relative error ‖A − A_k‖_F / ‖A‖_F', stored: 'numbers stored',
    of: (a, b, p) => `k(m + n + 1) = ${a} vs m·n = ${b} (${p})`,
    sigma: 'Singular values σ_i on a log scale (kept ones in blue); click a bar to choose k',
    canvasOrig: (m, n) => `The built-in ${m}×${n} grayscale picture: a house with a window and a door, a tree, the sun and hills`,
    canvasApprox: (k, e) => `The picture rebuilt from ${k} singular values, relative error ${e}`,
    bars: (n) => `σ₁ … σ${subscript(n)} (log scale)`,
    loading: 'Decomposing the picture…',
  },
  zh: {
    title: '图片的秩 k 近似：只保留最大的 k 个奇异值',
    slider: '保留的奇异值个数 k', original: (r) => (r ? `原图（秩 ${r}）` : '原图'), approx: (k) => `秩 ${k} 近似`,
    error: '相对误差 ‖A − A_k‖_F / ‖A‖_F', stored: '需要存的数',
    of: (a, b, p) => `k(m + n + 1) = ${a}，原图 m·n = ${b}（${p}）`,
    sigma: '奇异值 σ_i，对数坐标（蓝色为保留的）；点击某一条可选择 k',
    canvasOrig: (m, n) => `内置的 ${m}×${n} 灰度图：一座有窗和门的房子、一棵树、太阳和山坡`,
    canvasApprox: (k, e) => `用 ${k} 个奇异值重建的图片，相对误差 ${e}`,
    bars: (n) => `σ₁ … σ${subscript(n)}（对数坐标）`,
    loading: '正在分解图片…',
  },
};

function paint(canvas, pixels, rows, cols) {
  const g = canvas.getContext('2d');
  const img = g.createImageData(cols, rows);
  for (let i = 0; i < rows * cols; i++) {
    const v = Math.round(255 * Math.min(1, Math.max(0, pixels[i]))); // the approximation may leave [0, 1]
    img.data[4 * i] = img.data[4 * i + 1] = img.data[4 * i + 2] = v;
    img.data[4 * i + 3] = 255;
  }
  g.putImageData(img, 0, 0);
}

export function mount(container, ctx) {
  const T = pick(ctx, TEXT);
  const name = ctx.props.name ?? 'rank';
  const max = Math.max(1, Math.min(Number(ctx.props.max ?? 32), Math.min(ROWS, COLS)));
  let k = Math.max(1, Math.min(max, Number(ctx.props.value ?? 4)));
  const el = widgetRoot(container, 'rank-image', ctx, T.title);
  const err = errorLine();
  const slider = rangeControl({ id: `${ctx.id}-k`, label: T.slider, min: 1, max, value: k, format: (v) => `k = ${v}`, testid: 'rank-image-k' });
  const canvas = (label) => h('canvas', { width: COLS, height: ROWS, style: `width:${COLS * ZOOM}px;height:${ROWS * ZOOM}px`, role: 'img', 'aria-label': label });
  const cOrig = canvas(T.canvasOrig(ROWS, COLS));
  const cApprox = canvas(T.loading);
  cApprox.dataset.testid = 'rank-image-approx';
  const capOrig = h('figcaption', { text: T.original() });
  const capApprox = h('figcaption', { text: T.loading });
  const errorOut = h('div', { class: 'tpw-readout', 'data-testid': 'rank-image-error' });
  const storedOut = h('div', { class: 'tpw-readout', 'data-testid': 'rank-image-stored' });
  const W = 2 * COLS * ZOOM + 16, H = 90, PAD = 6;
  const bars = s('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': T.sigma, 'data-testid': 'rank-image-sigma' });
  let sigma = null;

  function drawBars() {
    if (!sigma) return;
    bars.replaceChildren();
    const n = Math.min(sigma.length, max); // the slider's range: every bar is a k it can choose
    const bw = (W - 2 * PAD) / n;
    // Log scale: σ_1 (the mean brightness) would otherwise flatten all the others.
    const hi = Math.log10(sigma[0] || 1), lo = Math.log10(Math.max(sigma[n - 1], 1e-6 * (sigma[0] || 1))) - 0.3;
    for (let i = 0; i < n; i++) {
      const bh = Math.max(1, ((H - 2 * PAD - 12) * (Math.log10(Math.max(sigma[i], 1e-30)) - lo)) / (hi - lo));
      const r = s('rect', { x: PAD + i * bw + 1, y: H - PAD - bh, width: Math.max(1, bw - 2), height: bh, fill: i < k ? C.blue : C.barOff });
      r.style.cursor = 'pointer';
      r.dataset.k = String(i + 1);
      r.addEventListener('click', () => setK(i + 1));
      r.append(s('title', { text: `σ${subscript(i + 1)} = ${fmt(sigma[i], 3)}` }));
      bars.append(r);
    }
    bars.append(s('text', { x: PAD, y: 11, 'font-size': 11, text: T.bars(n) }));
  }

  const update = latest(el, async (kk) => {
    const r = await ctx.compute(approximate, { k: kk, rows: ROWS, cols: COLS, withOriginal: !sigma });
    if (r.original) {
      paint(cOrig, r.original, ROWS, COLS);
      capOrig.textContent = T.original(r.rank);
      capOrig.dataset.rank = String(r.rank);
    }
    if (r.sigma) sigma = r.sigma;
    paint(cApprox, r.approx, ROWS, COLS);
    const stored = kk * (ROWS + COLS + 1), full = ROWS * COLS;
    capApprox.textContent = T.approx(kk);
    cApprox.setAttribute('aria-label', T.canvasApprox(kk, fmt(r.error, 4)));
    errorOut.dataset.value = String(r.error);
    errorOut.dataset.k = String(kk);
    errorOut.replaceChildren(h('b', { text: `${T.error}: ` }), fmt(r.error, 4));
    storedOut.dataset.stored = String(stored);
    storedOut.replaceChildren(h('b', { text: `${T.stored}: ` }), T.of(stored, full, pct(stored / full)));
    drawBars();
    err.clear();
    ctx.describe(`${T.title}. k = ${kk}. ${T.error}: ${fmt(r.error, 4)}. ${T.stored}: ${T.of(stored, full, pct(stored / full))}.`);
  }, (e) => err.show(e));

  function setK(v, { rerun = true } = {}) {
    k = v;
    slider.set(v);
    el.dataset.k = String(v);
    ctx.set(name, v, { rerun });
    update(v);
  }
  slider.input.addEventListener('input', () => setK(Number(slider.input.value)));
  ctx.watch(name, (v) => { if (Number.isInteger(v) && v >= 1 && v <= max && v !== k) setK(v, { rerun: false }); });

  el.append(
    h('p', { class: 'tpw-note', text: T.title }),
    slider.row,
    h('div', { class: 'tpw-cols' }, h('figure', {}, cOrig, capOrig), h('figure', {}, cApprox, capApprox)),
    errorOut, storedOut, bars, err.el);
  setK(k, { rerun: false });
  return { destroy() { container.innerHTML = ''; } };
}

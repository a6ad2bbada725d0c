// :::widget grid2x2 [name=M] [matrix="a,b,c,d"]
// A 2x2 matrix acting on the plane: four numbers (typed, or dragged as the tips of the basis vectors
// î → (a, c) and ĵ → (b, d)), the transformed grid and unit square, Play animating from the identity,
// the determinant and the real eigenvectors. det, trace and the eigenvectors come from tp in the worker
// (tp.linalg.det, and the null space of M − λI from tp.linalg.svd). The matrix is written to the cells'
// scope as `name` (default M), a nested array [[a, b], [c, d]].
import { h, s, pick, fmt, latest, errorLine, draggable, arrowKeys, C, root as widgetRoot } from './_common.js';

// The keys a :::widget directive may set (web/build.mjs refuses others).
export const props = ['name', 'matrix', 'value'];

const UNIT = 36; // pixels per unit; the view shows about ±5 units
const HALF = 190;
const RANGE = 6; // grid lines −6..6, long enough to cross the view under moderate stretching

// Runs in the worker: everything a reader sees as a number about M.
export function analyse(tp, m) {
  return tp.tidy(() => {
    const M = tp.tensor(m);
    const I = tp.eye(2);
    const detT = tp.linalg.det(M);
    const halfTrace = M.mul(I).sum().div(2);
    const det = detT.item();
    const trace = 2 * halfTrace.item();
    const scale = Math.max(1, M.abs().amax().item());
    // Eigenvalues are the roots of λ² − tr·λ + det = 0, λ = tr/2 ± √((tr/2)² − det): real when the
    // discriminant is not negative (up to rounding).
    const discT = halfTrace.square().sub(detT);
    const disc = discT.item();
    const tol = 1e-5 * scale * scale;
    const eig = [];
    if (disc >= -tol) {
      const r = discT.relu().sqrt();
      const lambdas = disc > tol ? [halfTrace.add(r).item(), halfTrace.sub(r).item()] : [halfTrace.item()];
      for (const lambda of lambdas) {
        // The eigenvectors of λ span the null space of M − λI: the right singular vectors with σ ≈ 0.
        const { S, Vh } = tp.linalg.svd(M.sub(I.mul(lambda)));
        const sv = Array.from(S.data());
        const rows = Vh.toArray();
        const zero = 1e-3 * scale;
        const vectors = sv.map((x, i) => [x, rows[i]]).filter(([x]) => x <= zero).map(([, v]) => v);
        eig.push({ lambda, vectors: vectors.length ? vectors : [rows[1]], every: vectors.length === 2 });
      }
    }
    return { det, trace, disc, eig };
  });
}

const TEXT = {
  en: {
    title: 'Grid transform: a 2×2 matrix moves î to its first column and ĵ to its second',
    matrix: 'Matrix entries', a: 'a (row 1, column 1)', b: 'b (row 1, column 2)', c: 'c (row 2, column 1)', d: 'd (row 2, column 2)',
    play: 'Play from the identity', stop: 'Stop', reset: 'Identity',
    handleI: 'Tip of î = (a, c); drag it or use the arrow keys (Shift for steps of 1)',
    handleJ: 'Tip of ĵ = (b, d); drag it or use the arrow keys (Shift for steps of 1)',
    det: 'determinant', area: (x) => `areas scale by ${x}`,
    zero: 'the plane collapses onto a line (or a point); the matrix is not invertible',
    flip: 'negative: the orientation flips (î and ĵ swap handedness)',
    keep: 'positive: the orientation is kept',
    eig: 'real eigenvectors', none: 'none: no real eigenvalues, the map contains a rotation',
    every: 'every vector (M = λI)',
    lam: 'λ',
    invalid: (k, v) => `${k} is not a number: M keeps ${k} = ${v}`,
    svg: 'The plane before (grey grid) and after the transformation (blue grid), the image of the unit square (orange), î (red), ĵ (green) and eigenvector directions (dashed)',
  },
  zh: {
    title: '网格变换：2×2 矩阵把 î 搬到第一列、把 ĵ 搬到第二列',
    matrix: '矩阵元素', a: 'a（第 1 行第 1 列）', b: 'b（第 1 行第 2 列）', c: 'c（第 2 行第 1 列）', d: 'd（第 2 行第 2 列）',
    play: '从单位阵播放', stop: '停止', reset: '单位阵',
    handleI: 'î 的终点 = (a, c)；可拖动，或用方向键（按住 Shift 步长为 1）',
    handleJ: 'ĵ 的终点 = (b, d)；可拖动，或用方向键（按住 Shift 步长为 1）',
    det: '行列式', area: (x) => `面积缩放 ${x} 倍`,
    zero: '平面被压到一条线（或一个点）上，矩阵不可逆',
    flip: '为负：空间被翻折（左右手性反过来）',
    keep: '为正：保持定向',
    eig: '实特征向量', none: '没有：没有实特征值，这个变换含旋转',
    every: '所有向量（M = λI）',
    lam: 'λ',
    invalid: (k, v) => `${k} 不是数字：M 仍保持 ${k} = ${v}`,
    svg: '变换前的平面（灰色网格）与变换后（蓝色网格）、单位正方形的像（橙色）、î（红）、ĵ（绿）与特征向量方向（虚线）',
  },
};

function parseMatrix(props) {
  const raw = props.matrix ?? props.value;
  const nums = raw ? String(raw).match(/-?\d*\.?\d+(e-?\d+)?/gi)?.map(Number) : null;
  return nums?.length === 4 ? [[nums[0], nums[1]], [nums[2], nums[3]]] : [[1, 0.5], [0.25, 1.25]];
}

const round1 = (x) => Math.round(x * 100) / 100;

export function mount(container, ctx) {
  const T = pick(ctx, TEXT);
  const name = ctx.props.name ?? 'M';
  const el = widgetRoot(container, 'grid2x2', ctx, T.title);
  let M = parseMatrix(ctx.props);
  let shown = M; // what the picture draws (differs from M while Play runs)
  let info = null;
  let anim = 0;

  // ---- controls
  const inputs = {};
  const grid = h('div', { class: 'tpw-matrix', role: 'group', 'aria-label': T.matrix });
  // An emptied or unreadable box is marked invalid and said so; M keeps its last valid entry, which the
  // box shows again when it loses focus.
  const invalidOut = h('p', { class: 'tpw-invalid', id: `${ctx.id}-invalid`, role: 'status', 'data-testid': 'grid2x2-invalid', hidden: true });
  const markInvalid = (inp, key, bad) => {
    if (bad) {
      inp.setAttribute('aria-invalid', 'true');
      inp.setAttribute('aria-describedby', invalidOut.id);
      invalidOut.textContent = T.invalid(key, fmt(M[inputs[key].i][inputs[key].j], 2));
    } else if (inp.hasAttribute('aria-invalid')) {
      inp.removeAttribute('aria-invalid');
      inp.removeAttribute('aria-describedby');
    }
    invalidOut.hidden = !grid.querySelector('[aria-invalid=true]');
  };
  for (const [key, i, j] of [['a', 0, 0], ['b', 0, 1], ['c', 1, 0], ['d', 1, 1]]) {
    const inp = h('input', { type: 'number', step: '0.1', value: M[i][j], 'aria-label': T[key], 'data-testid': `grid2x2-${key}`, inputmode: 'decimal' });
    inputs[key] = { inp, i, j, key };
    inp.addEventListener('input', () => {
      const v = Number(inp.value);
      const bad = inp.value.trim() === '' || !Number.isFinite(v); // "" also for unparsable text ("1e")
      markInvalid(inp, key, bad);
      if (bad) return;
      const next = M.map((r) => r.slice());
      next[i][j] = v;
      setMatrix(next, { fromInput: true });
    });
    inp.addEventListener('blur', () => {
      if (inp.getAttribute('aria-invalid') !== 'true') return;
      inp.value = String(M[i][j]);
      markInvalid(inp, key, false);
    });
    grid.append(inp);
  }
  const playBtn = h('button', { type: 'button', class: 'btn', 'data-testid': 'grid2x2-play' }, T.play);
  const resetBtn = h('button', { type: 'button', class: 'btn', 'data-testid': 'grid2x2-identity' }, T.reset);
  const detOut = h('div', { class: 'tpw-readout', 'data-testid': 'grid2x2-det', 'aria-live': 'polite' });
  const eigOut = h('div', { class: 'tpw-readout', 'data-testid': 'grid2x2-eig' });
  const err = errorLine();

  // ---- picture
  const svg = s('svg', { viewBox: `${-HALF} ${-HALF} ${2 * HALF} ${2 * HALF}`, width: 2 * HALF, height: 2 * HALF, role: 'img', 'aria-label': T.svg, 'data-testid': 'grid2x2-svg' });
  const clipId = `${ctx.id}-clip`;
  svg.append(s('defs', {}, s('clipPath', { id: clipId }, s('rect', { x: -HALF, y: -HALF, width: 2 * HALF, height: 2 * HALF })),
    ...[['red', C.red], ['green', C.greenDark], ['orange', C.amber]].map(([c, fill]) => s('marker', { id: `${ctx.id}-arrow-${c}`, viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto-start-reverse' },
      s('path', { d: 'M0,0 L10,5 L0,10 z', fill })))));
  const base = s('g', { 'clip-path': `url(#${clipId})` });
  for (let k = -RANGE; k <= RANGE; k++) {
    base.append(s('line', { x1: k * UNIT, y1: -HALF, x2: k * UNIT, y2: HALF, stroke: C.grid, 'stroke-width': 1 }),
      s('line', { x1: -HALF, y1: k * UNIT, x2: HALF, y2: k * UNIT, stroke: C.grid, 'stroke-width': 1 }));
  }
  base.append(s('line', { x1: -HALF, y1: 0, x2: HALF, y2: 0, stroke: C.gridStrong }), s('line', { x1: 0, y1: -HALF, x2: 0, y2: HALF, stroke: C.gridStrong }));
  const moved = s('g', { 'clip-path': `url(#${clipId})` });
  const eigLayer = s('g', { 'clip-path': `url(#${clipId})` });
  const square = s('polygon', { fill: C.orange, 'fill-opacity': 0.35, stroke: C.amber, 'stroke-width': 1.5 });
  // A turn arrow from î towards ĵ: it turns the other way when the orientation flips (det < 0).
  const turn = s('path', { fill: 'none', stroke: C.amber, 'stroke-width': 1.5, 'marker-end': `url(#${ctx.id}-arrow-orange)` });
  const vecI = s('line', { stroke: C.red, 'stroke-width': 3, 'marker-end': `url(#${ctx.id}-arrow-red)` });
  const vecJ = s('line', { stroke: C.greenDark, 'stroke-width': 3, 'marker-end': `url(#${ctx.id}-arrow-green)` });
  const handle = (label, color, testid) => {
    const g = s('g', { class: 'tpw-handle', tabindex: 0, role: 'slider', 'aria-label': label, 'aria-valuemin': -5, 'aria-valuemax': 5, 'data-testid': testid },
      s('circle', { r: 14, fill: 'transparent' }), s('circle', { r: 7, fill: color, class: 'tpw-ring' }));
    return g;
  };
  const hI = handle(T.handleI, C.red, 'grid2x2-handle-i');
  const hJ = handle(T.handleJ, C.greenDark, 'grid2x2-handle-j');
  const labI = s('text', { 'font-size': 14, 'font-weight': 600, text: 'î' });
  const labJ = s('text', { 'font-size': 14, 'font-weight': 600, text: 'ĵ' });
  svg.append(base, moved, square, turn, eigLayer, vecI, vecJ, labI, labJ, hI, hJ);

  // Screen coordinates of the point (x, y) under the drawn matrix (y up on the page).
  const px = (m, x, y) => [(m[0][0] * x + m[0][1] * y) * UNIT, -(m[1][0] * x + m[1][1] * y) * UNIT];

  function draw() {
    const m = shown;
    moved.replaceChildren();
    for (let k = -RANGE; k <= RANGE; k++) {
      const w = k === 0 ? 1.6 : 0.9;
      const [x1, y1] = px(m, k, -RANGE), [x2, y2] = px(m, k, RANGE);
      const [x3, y3] = px(m, -RANGE, k), [x4, y4] = px(m, RANGE, k);
      moved.append(s('line', { x1, y1, x2, y2, stroke: C.moved, 'stroke-width': w, 'stroke-opacity': 0.7 }),
        s('line', { x1: x3, y1: y3, x2: x4, y2: y4, stroke: C.moved, 'stroke-width': w, 'stroke-opacity': 0.7 }));
    }
    square.setAttribute('points', [[0, 0], [1, 0], [1, 1], [0, 1]].map(([x, y]) => px(m, x, y).join(',')).join(' '));
    const [ax, ay] = px(m, 0.45, 0), [bx, by] = px(m, 0.45, 0.45), [qx, qy] = px(m, 0, 0.45);
    turn.setAttribute('d', `M${ax},${ay} Q${bx},${by} ${qx},${qy}`);
    const [ix, iy] = px(m, 1, 0), [jx, jy] = px(m, 0, 1);
    for (const [line, x, y] of [[vecI, ix, iy], [vecJ, jx, jy]]) {
      line.setAttribute('x1', 0); line.setAttribute('y1', 0); line.setAttribute('x2', x); line.setAttribute('y2', y);
    }
    hI.setAttribute('transform', `translate(${ix},${iy})`);
    hJ.setAttribute('transform', `translate(${jx},${jy})`);
    labI.setAttribute('x', ix + 10); labI.setAttribute('y', iy - 10);
    labJ.setAttribute('x', jx + 10); labJ.setAttribute('y', jy - 10);
    // A 2-D point has no ARIA role of its own: a slider whose value is the x coordinate, the text says both.
    hI.setAttribute('aria-valuenow', m[0][0]);
    hJ.setAttribute('aria-valuenow', m[0][1]);
    hI.setAttribute('aria-valuetext', `î = (${fmt(m[0][0], 2)}, ${fmt(m[1][0], 2)})`);
    hJ.setAttribute('aria-valuetext', `ĵ = (${fmt(m[0][1], 2)}, ${fmt(m[1][1], 2)})`);
    drawEigen();
  }

  function drawEigen() {
    eigLayer.replaceChildren();
    if (!info || shown !== M) return;
    const L = 2 * HALF;
    for (const e of info.eig) {
      const vs = e.every ? [] : e.vectors;
      for (const [x, y] of vs) {
        eigLayer.append(s('line', { x1: -x * L, y1: y * L, x2: x * L, y2: -y * L, stroke: C.green, 'stroke-width': 2, 'stroke-dasharray': '6 4' }));
        const t = 3.2 * UNIT;
        eigLayer.append(s('text', { x: x * t + 6, y: -y * t - 6, 'font-size': 12, text: `λ=${fmt(e.lambda, 2)}` }));
      }
    }
  }

  function describeText() {
    const mtext = `M = [[${fmt(M[0][0], 2)}, ${fmt(M[0][1], 2)}], [${fmt(M[1][0], 2)}, ${fmt(M[1][1], 2)}]]`;
    if (!info) return mtext;
    return `${T.title}. ${mtext}. ${detOut.textContent} ${eigOut.textContent}`;
  }

  function showInfo() {
    const d = info.det;
    detOut.dataset.value = String(d);
    const sign = d === 0 ? T.zero : d < 0 ? `${T.area(fmt(Math.abs(d), 3))}; ${T.flip}` : `${T.area(fmt(d, 3))}; ${T.keep}`;
    detOut.replaceChildren(h('b', { text: `${T.det}: det M = ${fmt(d, 3)}` }), ` — ${sign}`);
    let eigText;
    if (!info.eig.length) eigText = T.none;
    else eigText = info.eig.map((e) => `${T.lam} = ${fmt(e.lambda, 3)}: ${e.every ? T.every : e.vectors.map(([x, y]) => `(${fmt(x, 3)}, ${fmt(y, 3)})`).join(', ')}`).join('; ');
    eigOut.dataset.count = String(info.eig.length);
    eigOut.replaceChildren(h('b', { text: `${T.eig}: ` }), eigText);
    drawEigen();
    ctx.describe(describeText());
  }

  const update = latest(el, async (m) => {
    const r = await ctx.compute(analyse, m);
    if (m !== M) return; // a newer matrix is already on its way
    info = r;
    err.clear();
    showInfo();
  }, (e) => err.show(e));

  function setMatrix(next, { fromInput = false, rerun = true } = {}) {
    const t0 = performance.now();
    M = next.map((r) => r.map((v) => (Object.is(v, -0) ? 0 : v)));
    for (const { inp, i, j, key } of Object.values(inputs)) {
      if (fromInput && document.activeElement === inp) continue;
      inp.value = String(M[i][j]);
      markInvalid(inp, key, false);
    }
    stop();
    shown = M;
    draw();
    el.dataset.matrix = JSON.stringify(M);
    ctx.set(name, M, { rerun });
    update(M, t0);
  }

  // ---- dragging and keys
  const snap = (v) => Math.max(-5, Math.min(5, Math.round(v / UNIT * 10) / 10));
  draggable(svg, hI, (x, y) => setMatrix([[snap(x), M[0][1]], [snap(-y), M[1][1]]]));
  draggable(svg, hJ, (x, y) => setMatrix([[M[0][0], snap(x)], [M[1][0], snap(-y)]]));
  arrowKeys(hI, (dx, dy) => setMatrix([[round1(M[0][0] + dx / 10), M[0][1]], [round1(M[1][0] + dy / 10), M[1][1]]]));
  arrowKeys(hJ, (dx, dy) => setMatrix([[M[0][0], round1(M[0][1] + dx / 10)], [M[1][0], round1(M[1][1] + dy / 10)]]));

  // ---- Play: the drawn matrix goes from I to M; the readouts stay those of M.
  function stop() {
    if (!anim) return;
    cancelAnimationFrame(anim);
    anim = 0;
    playBtn.textContent = T.play;
  }
  playBtn.addEventListener('click', () => {
    if (anim) { stop(); shown = M; draw(); return; }
    const target = M;
    const start = performance.now();
    const dur = matchMedia?.('(prefers-reduced-motion: reduce)').matches ? 300 : 1500;
    playBtn.textContent = T.stop;
    const frame = (now) => {
      const t = Math.min(1, (now - start) / dur);
      const e = t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2; // ease in-out
      shown = target.map((r, i) => r.map((v, j) => (1 - e) * (i === j ? 1 : 0) + e * v));
      draw();
      if (t < 1 && anim) anim = requestAnimationFrame(frame);
      else { anim = 0; shown = M; draw(); playBtn.textContent = T.play; }
    };
    anim = requestAnimationFrame(frame);
  });
  resetBtn.addEventListener('click', () => setMatrix([[1, 0], [0, 1]]));

  el.append(
    h('p', { class: 'tpw-note', text: T.title }),
    h('div', { class: 'tpw-cols' },
      svg,
      h('div', { class: 'tpw-side' },
        h('div', { class: 'tpw-row' }, h('span', { text: 'M =' }), grid),
        invalidOut,
        h('div', { class: 'tpw-row' }, playBtn, resetBtn),
        detOut, eigOut, err.el)));

  ctx.watch(name, (v) => {
    const arr = Array.isArray(v) ? v : v?.data;
    if (Array.isArray(arr) && arr.length === 2 && arr.every((r) => Array.isArray(r) && r.length === 2 && r.every(Number.isFinite))) {
      if (JSON.stringify(arr) !== JSON.stringify(M)) setMatrix(arr, { rerun: false });
    }
  });
  setMatrix(M, { rerun: false });
  return { destroy() { stop(); container.innerHTML = ''; } };
}

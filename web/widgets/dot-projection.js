// :::widget dot-projection [a="2,1"] [b="1,2"] [name=]
// The dot product as a projection: drag two 2-D vectors (or move them with the arrow keys); the widget
// shows the projection of a onto the direction of b, its signed length a·b/‖b‖, the cosine of the angle
// and the score a·b = (projection length)·‖b‖. Every number (and the foot of the projection) comes from
// tp in the worker. With name=…, the pair is written to the cells' scope as { a, b }.
import { h, s, pick, fmt, latest, errorLine, draggable, arrowKeys, C, root as widgetRoot } from './_common.js';

// The keys a :::widget directive may set (web/build.mjs refuses others).
export const props = ['a', 'b', 'name'];

const UNIT = 40;
const HALF = 180;

// Runs in the worker.
export function project(tp, { a, b }) {
  return tp.tidy(() => {
    const va = tp.tensor(a), vb = tp.tensor(b);
    const dotT = va.mul(vb).sum();
    const naT = tp.linalg.norm(va), nbT = tp.linalg.norm(vb);
    const na = naT.item(), nb = nbT.item();
    const length = nb > 0 ? dotT.div(nbT).item() : NaN; // a·b / ‖b‖
    const cosine = na > 0 && nb > 0 ? dotT.div(naT.mul(nbT)).item() : NaN; // a·b / (‖a‖ ‖b‖)
    const foot = nb > 0 ? Array.from(vb.mul(dotT.div(nbT.square())).data()) : [0, 0]; // (a·b / ‖b‖²) b
    return { dot: dotT.item(), na, nb, length, cosine, foot };
  });
}

const TEXT = {
  en: {
    title: 'The dot product is a projection: a·b = (length of a projected on b) × ‖b‖',
    handleA: 'Tip of vector a; drag it or use the arrow keys (Shift for steps of 1)',
    handleB: 'Tip of vector b; drag it or use the arrow keys (Shift for steps of 1)',
    svg: 'Vectors a (blue) and b (orange), the projection of a onto the line of b (green) and the dropped perpendicular (dashed)',
    legend: [['a', C.blue], ['b', C.vermillion], ['projection of a on b', C.green]],
    proj: 'projection length a·b / ‖b‖', cos: 'cosine', score: 'score a·b',
    orth: 'a ⟂ b: the score is 0', same: 'same direction', opposite: 'opposite directions', zero: 'b is the zero vector: no direction to project on',
  },
  zh: {
    title: '点积就是投影：a·b =（a 在 b 上的投影长度）× ‖b‖',
    handleA: '向量 a 的终点；可拖动，或用方向键（按住 Shift 步长为 1）',
    handleB: '向量 b 的终点；可拖动，或用方向键（按住 Shift 步长为 1）',
    svg: '向量 a（蓝）和 b（橙），a 在 b 所在直线上的投影（绿）与垂线（虚线）',
    legend: [['a', C.blue], ['b', C.vermillion], ['a 在 b 上的投影', C.green]],
    proj: '投影长度 a·b / ‖b‖', cos: '余弦', score: '分数 a·b',
    orth: 'a ⟂ b：分数为 0', same: '方向相同', opposite: '方向相反', zero: 'b 是零向量：没有可投影的方向',
  },
};

const parseVec = (raw, dflt) => {
  const v = raw ? String(raw).match(/-?\d*\.?\d+/g)?.map(Number) : null;
  return v?.length === 2 ? v : dflt;
};
const r1 = (x) => Math.round(x * 10) / 10;

export function mount(container, ctx) {
  const T = pick(ctx, TEXT);
  const el = widgetRoot(container, 'dot-projection', ctx, T.title);
  const err = errorLine();
  let a = parseVec(ctx.props.a, [3, 1]);
  let b = parseVec(ctx.props.b, [1.5, 2]);
  let res = null;

  const svg = s('svg', { viewBox: `${-HALF} ${-HALF} ${2 * HALF} ${2 * HALF}`, width: 2 * HALF, height: 2 * HALF, role: 'img', 'aria-label': T.svg, 'data-testid': 'dot-projection-svg' });
  const defs = s('defs', {}, ...[['a', C.blue], ['b', C.vermillion], ['p', C.green]].map(([id, fill]) =>
    s('marker', { id: `${ctx.id}-m${id}`, viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 14, markerHeight: 14, markerUnits: 'userSpaceOnUse', orient: 'auto-start-reverse' }, s('path', { d: 'M0,0 L10,5 L0,10 z', fill }))));
  const grid = s('g');
  for (let k = -4; k <= 4; k++) grid.append(s('line', { x1: k * UNIT, y1: -HALF, x2: k * UNIT, y2: HALF, stroke: k ? C.gridFaint : C.gridStrong }), s('line', { x1: -HALF, y1: k * UNIT, x2: HALF, y2: k * UNIT, stroke: k ? C.gridFaint : C.gridStrong }));
  const lineB = s('line', { stroke: C.vermillion, 'stroke-opacity': 0.35, 'stroke-dasharray': '2 4' });
  const perp = s('line', { stroke: C.axis, 'stroke-dasharray': '5 4' });
  const projV = s('line', { stroke: C.green, 'stroke-width': 5, 'marker-end': `url(#${ctx.id}-mp)` });
  const vecA = s('line', { stroke: C.blue, 'stroke-width': 3, 'marker-end': `url(#${ctx.id}-ma)` });
  const vecB = s('line', { stroke: C.vermillion, 'stroke-width': 3, 'marker-end': `url(#${ctx.id}-mb)` });
  const arc = s('path', { fill: 'none', stroke: C.axis });
  const labA = s('text', { 'font-size': 15, 'font-weight': 700, text: 'a' });
  const labB = s('text', { 'font-size': 15, 'font-weight': 700, text: 'b' });
  const handle = (label, color, testid) => s('g', { class: 'tpw-handle', tabindex: 0, role: 'slider', 'aria-label': label, 'aria-valuemin': -4.4, 'aria-valuemax': 4.4, 'data-testid': testid },
    s('circle', { r: 14, fill: 'transparent' }), s('circle', { r: 7, fill: color, class: 'tpw-ring' }));
  const hA = handle(T.handleA, C.blue, 'dot-projection-handle-a');
  const hB = handle(T.handleB, C.vermillion, 'dot-projection-handle-b');
  svg.append(defs, grid, lineB, perp, projV, arc, vecA, vecB, labA, labB, hA, hB);
  const out = h('div', { class: 'tpw-readout', 'aria-live': 'polite', 'data-testid': 'dot-projection-readout' });

  const P = ([x, y]) => [x * UNIT, -y * UNIT];
  const setLine = (l, [x1, y1], [x2, y2]) => { l.setAttribute('x1', x1); l.setAttribute('y1', y1); l.setAttribute('x2', x2); l.setAttribute('y2', y2); };

  function drawVectors() {
    const pa = P(a), pb = P(b);
    setLine(vecA, [0, 0], pa);
    setLine(vecB, [0, 0], pb);
    hA.setAttribute('transform', `translate(${pa})`);
    hB.setAttribute('transform', `translate(${pb})`);
    hA.setAttribute('aria-valuenow', a[0]);
    hB.setAttribute('aria-valuenow', b[0]);
    hA.setAttribute('aria-valuetext', `a = (${fmt(a[0], 1)}, ${fmt(a[1], 1)})`);
    hB.setAttribute('aria-valuetext', `b = (${fmt(b[0], 1)}, ${fmt(b[1], 1)})`);
    labA.setAttribute('x', pa[0] + 10); labA.setAttribute('y', pa[1] - 10);
    labB.setAttribute('x', pb[0] + 10); labB.setAttribute('y', pb[1] - 10);
    // The line through b, extended across the view (drawing only).
    const len = Math.hypot(...pb) || 1;
    setLine(lineB, [(-pb[0] / len) * 2 * HALF, (-pb[1] / len) * 2 * HALF], [(pb[0] / len) * 2 * HALF, (pb[1] / len) * 2 * HALF]);
  }

  function drawResult() {
    if (!res) return;
    const pf = P(res.foot);
    setLine(projV, [0, 0], pf);
    setLine(perp, P(a), pf);
    const angA = Math.atan2(-P(a)[1], P(a)[0]), angB = Math.atan2(-P(b)[1], P(b)[0]);
    const r = 26;
    let d = angB - angA;
    while (d > Math.PI) d -= 2 * Math.PI;
    while (d < -Math.PI) d += 2 * Math.PI;
    arc.setAttribute('d', `M${r * Math.cos(angA)},${-r * Math.sin(angA)} A${r},${r} 0 0 ${d > 0 ? 0 : 1} ${r * Math.cos(angB)},${-r * Math.sin(angB)}`);
  }

  function showResult() {
    const { dot, length, cosine, nb } = res;
    out.dataset.dot = String(dot);
    out.dataset.cosine = String(cosine);
    out.dataset.length = String(length);
    const note = nb === 0 ? T.zero : Math.abs(dot) < 1e-9 ? T.orth : cosine > 0.9999 ? T.same : cosine < -0.9999 ? T.opposite : '';
    out.replaceChildren(
      h('div', {}, h('b', { text: `${T.proj}: ` }), fmt(length, 3)),
      h('div', {}, h('b', { text: `${T.cos}: ` }), fmt(cosine, 3)),
      h('div', {}, h('b', { text: `${T.score}: ` }), `${fmt(dot, 3)} = ${fmt(length, 3)} × ${fmt(res.nb, 3)}`),
      note ? h('div', { class: 'tpw-note', text: note }) : '');
    ctx.describe(`${T.title}. a = (${fmt(a[0], 1)}, ${fmt(a[1], 1)}), b = (${fmt(b[0], 1)}, ${fmt(b[1], 1)}). ${T.proj}: ${fmt(length, 3)}. ${T.cos}: ${fmt(cosine, 3)}. ${T.score}: ${fmt(dot, 3)}. ${note}`);
  }

  const update = latest(el, async (pair) => {
    const r = await ctx.compute(project, pair);
    if (pair.a !== a || pair.b !== b) return;
    res = r;
    drawResult();
    showResult();
    err.clear();
  }, (e) => err.show(e));

  function set(na, nb) {
    const t0 = performance.now();
    a = na; b = nb;
    el.dataset.a = a.join(',');
    el.dataset.b = b.join(',');
    drawVectors();
    if (ctx.props.name) ctx.set(ctx.props.name, { a, b });
    update({ a, b }, t0);
  }
  const clamp = (v) => Math.max(-4.4, Math.min(4.4, v));
  const snap = (v) => clamp(Math.round((v / UNIT) * 10) / 10);
  draggable(svg, hA, (x, y) => set([snap(x), snap(-y)], b));
  draggable(svg, hB, (x, y) => set(a, [snap(x), snap(-y)]));
  arrowKeys(hA, (dx, dy) => set([clamp(r1(a[0] + dx / 10)), clamp(r1(a[1] + dy / 10))], b));
  arrowKeys(hB, (dx, dy) => set(a, [clamp(r1(b[0] + dx / 10)), clamp(r1(b[1] + dy / 10))]));

  const legend = h('div', { class: 'tpw-row' }, ...T.legend.map(([label, c]) => h('span', {}, h('span', { class: 'tpw-swatch', 'aria-hidden': 'true', style: `background:${c}` }), label)));
  el.append(h('p', { class: 'tpw-note', text: T.title }), h('div', { class: 'tpw-cols' }, svg, h('div', { class: 'tpw-side' }, out, legend, err.el)));
  set(a, b);
  return { destroy() { container.innerHTML = ''; } };
}

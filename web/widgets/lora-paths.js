// :::widget lora-paths [dout=4096] [din=4096] [value=8]
// The two paths of a LoRA layer, y = W x + (α/r) B (A x): the frozen weight W on top, the trainable side
// path below, where A reads r numbers from x and B writes them back. A slider sets r (1…64); the side
// path's middle box, z, is drawn r rows tall, and the readout gives the trainable parameters r(d_in + d_out)
// and their share of W, computed by tp.lora.params in the worker.
import { h, s, pick, fmt, latest, errorLine, rangeControl, C, root as widgetRoot } from './_common.js';

// The keys a :::widget directive may set (web/build.mjs refuses others).
export const props = ['dout', 'din', 'value'];

const STRINGS = {
  en: {
    title: 'The two paths of a LoRA layer',
    slider: 'LoRA rank r',
    frozen: 'W (frozen)',
    x: 'x', y: 'y', A: 'A', B: 'B', z: 'z', scale: '× α/r',
    read: (r) => `reads ${r}`, write: 'writes back',
    params: 'trainable', of: 'of W',
    describe: (r, din, dout, p, share) => `The input x (${din} numbers) takes two paths to the output y (${dout} numbers): through the frozen weight W, and through the trainable side path, where A reads ${r} numbers z from x and B writes them back, scaled by alpha over r; the two results are added. With r = ${r} the side path trains ${p} parameters, ${share} of W's.`,
  },
  zh: {
    title: 'LoRA 层的两条路径',
    slider: 'LoRA 的秩 r',
    frozen: 'W（冻结）',
    x: 'x', y: 'y', A: 'A', B: 'B', z: 'z', scale: '× α/r',
    read: (r) => `读出 ${r} 个数`, write: '写回',
    params: '可训练参数', of: '占 W 的',
    describe: (r, din, dout, p, share) => `输入 x（${din} 个数）经两条路径到达输出 y（${dout} 个数）：一条经过冻结的权重 W；另一条是可训练的旁路，A 从 x 读出 ${r} 个数 z，B 再把它们写回，乘以 α/r；两者相加。r = ${r} 时旁路训练 ${p} 个参数，占 W 的 ${share}。`,
  },
};

const W = 560, H = 230;

export function mount(container, ctx) {
  const T = pick(ctx, STRINGS);
  const dout = Math.max(1, Math.round(Number(ctx.props.dout ?? 4096)));
  const din = Math.max(1, Math.round(Number(ctx.props.din ?? 4096)));
  let r = Math.max(1, Math.min(64, Math.round(Number(ctx.props.value ?? 8))));
  const el = widgetRoot(container, 'lora-paths', ctx, T.title);
  const slider = rangeControl({ id: `${ctx.id}-r`, label: T.slider, min: 1, max: 64, value: r, format: (v) => `r = ${v}`, testid: 'lora-paths-r' });
  const svg = s('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': T.title, 'data-testid': 'lora-paths-figure' });
  const readout = h('p', { class: 'tpw-readout', 'data-testid': 'lora-paths-params' });
  const err = errorLine();
  el.append(slider.row, h('div', { class: 'tpw-scroll' }, svg), readout, err.el);

  const box = (x, y, w, hgt, label, color, testid) => [
    s('rect', { x, y, width: w, height: hgt, rx: 4, fill: 'none', stroke: color, 'stroke-width': 2, 'data-testid': testid }),
    s('text', { x: x + w / 2, y: y + hgt / 2 + 4, 'text-anchor': 'middle', 'font-size': 13, text: label }),
  ];
  const arrow = (x1, y1, x2, y2, color) => s('line', { x1, y1, x2, y2, stroke: color, 'stroke-width': 2, 'marker-end': `url(#${ctx.id}-head)` });

  function draw() {
    // z's height grows with r (1…64 → 10…70 px): the side path's bottleneck.
    const zh = 10 + (60 * (r - 1)) / 63;
    const top = 50, low = 165; // the two paths' centre lines
    const blue = C.blue, side = C.vermillion;
    svg.replaceChildren(
      s('defs', {}, s('marker', { id: `${ctx.id}-head`, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse' },
        s('path', { d: 'M0,0 L10,5 L0,10 z', fill: C.axis }))),
      ...box(10, (top + low) / 2 - 40, 46, 80, T.x, C.axis, 'lora-paths-x'),
      ...box(170, top - 22, 150, 44, T.frozen, blue, 'lora-paths-w'),
      ...box(110, low - 30, 56, 60, T.A, side, 'lora-paths-a'),
      ...box(220, low - zh / 2, 36, zh, T.z, side, 'lora-paths-z'),
      ...box(310, low - 30, 56, 60, T.B, side, 'lora-paths-b'),
      s('text', { x: 405, y: low - 8, 'text-anchor': 'middle', 'font-size': 12, text: T.scale }),
      s('circle', { cx: 470, cy: (top + low) / 2, r: 14, fill: 'none', stroke: C.axis, 'stroke-width': 2 }),
      s('text', { x: 470, y: (top + low) / 2 + 5, 'text-anchor': 'middle', 'font-size': 16, text: '+' }),
      ...box(510, (top + low) / 2 - 40, 40, 80, T.y, C.axis, 'lora-paths-y'),
      arrow(56, top + 10, 168, top, blue), arrow(320, top, 458, (top + low) / 2 - 10, blue),
      arrow(56, low - 10, 108, low, side), arrow(166, low, 218, low, side), arrow(256, low, 308, low, side),
      arrow(366, low, 456, (top + low) / 2 + 10, side),
      arrow(484, (top + low) / 2, 508, (top + low) / 2, C.axis),
      s('text', { x: 192, y: low + 48, 'text-anchor': 'middle', 'font-size': 12, text: T.read(r) }),
      s('text', { x: 338, y: low + 48, 'text-anchor': 'middle', 'font-size': 12, text: T.write }),
    );
  }

  const update = latest(el, async (rank) => {
    // Every number shown comes from tp, in the worker.
    const p = await ctx.compute((tp, { dout: o, din: i, r: k }) => tp.lora.params(o, i, k), { dout, din, r: rank });
    const share = `${fmt((100 * p) / (dout * din), 2)}%`;
    readout.replaceChildren(T.params, ' ', h('b', { text: `r(d_in + d_out) = ${p}` }), ` (${T.of} ${dout}×${din}: ${share})`);
    readout.dataset.params = String(p);
    el.dataset.r = String(rank);
    draw();
    err.clear();
    ctx.describe(T.describe(rank, din, dout, p, share));
  }, (e) => err.show(e));

  slider.input.addEventListener('input', () => {
    r = Number(slider.input.value);
    slider.set(r);
    update(r);
  });
  draw();
  update(r);
  return { destroy() { container.innerHTML = ''; } };
}

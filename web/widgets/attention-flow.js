// :::widget attention-flow [query=5]
// Causal attention over "Alice dropped the glass because she …": choose a query token (hover previews,
// click or Enter pins, arrow keys move); its weights a_j = softmax(q·k_j) over the visible tokens are bars
// that sum to 1, the future tokens are greyed by the causal mask (weight 0), and the value vectors flow
// into the mixed vector c = Σ_j a_j v_j with a thickness proportional to a_j. The scores and values are
// illustrative (hand-chosen, not from a trained model); the softmax, the mask and the mixing are
// tp.nn.scaledDotProductAttention in the worker. When a model is loaded (`model`, from "Use your own model")
// a layer and head chooser appears and the figure shows that head's real attention weights on the same
// sentence (the model's own tokens), its value vectors' first three channels and the head's output there.
import { h, s, pick, fmt, latest, recordUpdate, errorLine, rangeControl, C, COLORS, themeRGB, onThemeChange, root as widgetRoot } from './_common.js';

// The keys a :::widget directive may set (web/build.mjs refuses others).
export const props = ['query'];

const TOKENS = ['Alice', 'dropped', 'the', 'glass', 'because', 'she'];
const SENTENCE = 'Alice dropped the glass because she';
const SHOWN_CHANNELS = 3; // of a real head's value vectors, as many as the figure draws
// Illustrative scores q_i·k_j (row i = query). Entries above the diagonal are never used: the causal
// mask removes them before the softmax. "she" scores "Alice" highest: it looks for whom it refers to.
const SCORES = [
  [0.0, 0, 0, 0, 0, 0],
  [1.0, 0.2, 0, 0, 0, 0],
  [-0.5, 0.3, 0.8, 0, 0, 0],
  [0.2, 1.3, 0.9, 0.7, 0, 0],
  [0.3, 1.4, -0.6, 0.9, 0.6, 0],
  [2.6, 0.4, -0.8, 0.6, 0.5, 1.0],
];
// Illustrative 3-d value vectors, one per token.
const VALUES = [[1, 0, 2], [0, 3, 1], [0.2, 0.1, 0.1], [2, -1, 0], [0.5, 1, -0.5], [1, 0.5, 1.5]];

// Runs in the worker. With Q = the score rows, K = I and scale 1, Q Kᵀ is exactly the score matrix.
// The scale multiplies every score before the softmax (1/√d_k in a real model): larger is sharper.
export function attend(tp, { scores, values, scale }) {
  return tp.tidy(() => {
    const n = scores.length;
    const { output, weights } = tp.nn.scaledDotProductAttention(tp.tensor(scores), tp.eye(n), tp.tensor(values), { causal: true, scale, returnWeights: true });
    return { weights: weights.toArray(), mixed: output.toArray(), rowSums: weights.sum(-1).toArray() };
  });
}

/** Runs in the worker: whether a model is loaded, and its layer and head counts. */
export function modelInfo(tp, _args, scope) {
  const m = scope.model;
  if (!m || typeof m.forward !== 'function' || !m.tokenizer) return null;
  const c = m.config;
  return { architecture: c.architecture ?? '', layers: c.numLayers, heads: c.numHeads, kvHeads: c.numKvHeads };
}

/** Runs in the worker: head `head` of layer `layer` of the loaded model on the sentence. The weights are the
 *  forward pass's softmax rows; the values are that head's (its KV head's) first channels, and `mixed` their
 *  mixture by the weights, which is the head's output in those channels. */
export async function attendModel(tp, { text, layer, head, channels }, scope) {
  const m = scope.model;
  const ids = m.tokenizer.encode(text);
  const names = [`layers.${layer}.attn.weights`, `layers.${layer}.attn.v`];
  const { captures } = await m.forward(ids, { capture: names, logits: false });
  try {
    return tp.tidy(() => {
      const A = captures[names[0]].select(0, head); // [T, T]
      const group = m.config.numHeads / m.config.numKvHeads;
      const v = captures[names[1]].select(0, Math.floor(head / group)); // [T, headDim]
      const V = v.narrow(1, 0, Math.min(channels, v.shape[1])).contiguous();
      return { tokens: ids.map((id) => m.tokenizer.decode([id])), weights: A.toArray(), values: V.toArray(),
        mixed: A.matmul(V).toArray(), rowSums: A.sum(-1).toArray() };
    });
  } finally {
    tp.dispose(Object.values(captures));
  }
}

const TEXT = {
  en: {
    title: 'Attention flow: the query token reads the visible tokens with weights a_j = softmax(q·k_j) and mixes their values into c = Σ a_j v_j',
    illustrative: 'Illustrative weights: the scores and value vectors are hand-chosen for this example, not taken from a trained model.',
    tokens: 'Query token (arrow keys move, Enter or click pins, hover previews)',
    masked: 'masked (future)', weight: 'a_j', value: 'v_j', mixed: 'c = Σ a_j v_j', token: 'token',
    weightsOf: (q) => `a_j (query: ${q})`, query: (q) => `Query "${q}"`,
    sum: (x) => `Σ a_j = ${x}`,
    svg: (q) => `Weights of the query "${q}" over the tokens as bars; values flow into the mixed vector c`,
    scale: 'Score scale s (a = softmax(s·q·k); larger is sharper)', table: 'The weights as a table',
    layer: 'Layer', head: 'Head',
    real: (arch) => `The loaded model's real attention (${arch}): the weights of the chosen layer and head on its own tokens; v_j and c show the first three channels of that head's values and output.`,
    illustrativeChoice: 'Illustrative weights', realChoice: 'Loaded model',
  },
  zh: {
    title: '注意力信息流：query 以权重 a_j = softmax(q·k_j) 读取可见位置，并把它们的 value 混合成 c = Σ a_j v_j',
    illustrative: '权重为示意值：分数和 value 向量是为这个例子手工设定的，不是来自训练好的模型。',
    tokens: 'query 位置（方向键移动，回车或点击固定，悬停预览）',
    masked: '被遮住（未来位置）', weight: 'a_j', value: 'v_j', mixed: 'c = Σ a_j v_j', token: '位置',
    weightsOf: (q) => `a_j（query「${q}」的权重）`, query: (q) => `query「${q}」`,
    sum: (x) => `Σ a_j = ${x}`,
    svg: (q) => `query「${q}」对各位置的权重（横条），各位置的 value 汇入混合向量 c`,
    scale: '分数缩放 s（a = softmax(s·q·k)；越大越尖锐）', table: '权重表',
    layer: '层', head: '头',
    real: (arch) => `已加载模型的真实注意力（${arch}）：所选层、所选头在模型自己的 token 上的权重；v_j 和 c 显示这个头的 value 和输出的前三个通道。`,
    illustrativeChoice: '示意权重', realChoice: '已加载的模型',
  },
};

export function mount(container, ctx) {
  const T = pick(ctx, TEXT);
  const el = widgetRoot(container, 'attention-flow', ctx, T.title);
  const err = errorLine();
  let tokens = TOKENS, values = VALUES, n = TOKENS.length;
  let real = null; // { info, layer, head } while the loaded model's attention is shown
  let pinned = Math.max(0, Math.min(n - 1, Number(ctx.props.query ?? n - 1)));
  let shown = pinned;
  let res = null;

  // The example sentence is English whatever the page's language: say so, for speech and hyphenation.
  const english = ctx.lang === 'en' ? null : 'en';
  const group = h('div', { class: 'tpw-tokens', role: 'radiogroup', 'aria-label': T.tokens, 'data-testid': 'attention-flow-tokens' });
  let buttons = [];
  const makeButtons = () => { buttons = tokens.map((tok, i) => {
    const b = h('button', { type: 'button', class: 'tpw-token', role: 'radio', 'aria-checked': 'false', tabindex: '-1', lang: english, 'data-testid': 'attention-flow-token', 'data-index': i }, tok);
    b.addEventListener('click', () => choose(i, true));
    b.addEventListener('pointerenter', () => choose(i, false));
    b.addEventListener('keydown', (e) => {
      const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 }[e.key];
      if (e.key === 'Home' || e.key === 'End') { e.preventDefault(); choose(e.key === 'Home' ? 0 : n - 1, true, true); return; }
      if (!step) return;
      e.preventDefault();
      choose((i + step + n) % n, true, true);
    });
    return b;
  });
  group.replaceChildren(...buttons, h('span', { class: 'tpw-note', 'aria-hidden': 'true', text: '…' }));
  };
  makeButtons();
  group.addEventListener('pointerleave', () => choose(pinned, false));

  // On a phone the figure is drawn narrower (shorter bars, closer columns) and fits the screen, so the
  // mixed vector c, its point, is not cut off at the right; its labels stay at about 10 px.
  const compact = (container.clientWidth || 600) < 520;
  const W = compact ? 440 : 600, ROW = 34, TOP = 26;
  const H = () => TOP + n * ROW + 10;
  const svg = s('svg', { viewBox: `0 0 ${W} ${H()}`, width: W, height: H(), role: 'img', class: compact ? 'tpw-fit' : null, 'data-testid': 'attention-flow-svg' });
  const sumOut = h('div', { class: 'tpw-readout', 'aria-live': 'polite', 'data-testid': 'attention-flow-sum' });
  const table = h('table', { 'data-testid': 'attention-flow-table' });

  // Column geometry: token | bar of a_j | value cells | flows | c cells.
  const [X_TOK, X_BAR, BAR_W, X_VAL, CELL, X_C, C_CELL] = compact ? [4, 64, 92, 200, 22, 352, 29] : [8, 86, 150, 290, 24, 500, 30];
  // The value cells' heat ramp: from the theme's neutral at 0 towards its blue (v ≥ 3) or red (v ≤ −3). The
  // three colours are read from CSS at each draw (a computed colour does not follow the theme by itself).
  let heat = null;
  const cellFill = (v) => {
    const t = Math.max(-1, Math.min(1, v / 3));
    const [zero, pos, neg] = heat;
    const end = t >= 0 ? pos : neg;
    const [r, g, b] = zero.map((z, i) => z + (end[i] - z) * Math.abs(t));
    return `rgb(${r | 0},${g | 0},${b | 0})`;
  };

  function draw() {
    svg.replaceChildren();
    svg.setAttribute('viewBox', `0 0 ${W} ${H()}`);
    svg.setAttribute('height', H());
    svg.setAttribute('aria-label', T.svg(tokens[shown]));
    // Narrow: the bars' heading is a_j alone (the query's row is the highlighted one) so it clears v_j's.
    svg.append(s('text', { x: X_BAR, y: 16, 'font-size': 12, text: compact ? T.weight : T.weightsOf(tokens[shown]) }),
      s('text', { x: X_VAL, y: 16, 'font-size': 12, text: T.value }),
      s('text', { x: X_C - 10, y: 16, 'font-size': 12, text: T.mixed }));
    if (!res) return;
    heat = ['--tpw-heat-0', '--tpw-heat-pos', '--tpw-heat-neg'].map((name) => themeRGB(el, name));
    const w = res.weights[shown];
    const c = res.mixed[shown];
    const cy = TOP + shown * ROW + ROW / 2;
    for (let j = 0; j < n; j++) {
      const y = TOP + j * ROW;
      const future = j > shown;
      // A masked (future) row is marked by dashed outlines and italic text.
      const g = s('g', { 'data-token': j, 'data-weight': w[j], 'data-masked': future ? 'true' : null, 'font-style': future ? 'italic' : null });
      const dash = future ? '3 2' : null;
      if (j === shown) g.append(s('rect', { x: 2, y: y + 2, width: X_VAL - 8, height: ROW - 4, fill: C.highlight, rx: 4 }));
      g.append(s('text', { x: X_TOK, y: y + ROW / 2 + 5, 'font-size': 14, 'font-weight': j === shown ? 700 : 400, lang: english, text: tokens[j] }));
      g.append(s('rect', { x: X_BAR, y: y + 8, width: BAR_W, height: ROW - 16, fill: C.track, stroke: future ? C.grey : C.trackEdge, 'stroke-dasharray': dash }));
      if (future) {
        g.append(s('text', { x: X_BAR + 6, y: y + ROW / 2 + 4, 'font-size': 11, text: `${T.masked}: 0` }));
      } else {
        g.append(s('rect', { x: X_BAR, y: y + 8, width: BAR_W * w[j], height: ROW - 16, fill: COLORS[0] }),
          s('text', { x: X_BAR + BAR_W + 6, y: y + ROW / 2 + 4, 'font-size': 12, text: fmt(w[j], 3) }));
      }
      values[j].forEach((v, d) => g.append(s('rect', { x: X_VAL + d * CELL, y: y + 6, width: CELL - 2, height: ROW - 12, fill: future ? C.track : cellFill(v), stroke: future ? C.grey : C.cellEdge, 'stroke-dasharray': dash, 'data-value': v }),
        s('text', { x: X_VAL + d * CELL + CELL / 2 - 1, y: y + ROW / 2 + 4, 'font-size': 9, 'text-anchor': 'middle', text: fmt(v, 1) })));
      if (!future && w[j] > 0) {
        const x0 = X_VAL + values[j].length * CELL + 2, y0 = y + ROW / 2, x1 = X_C - 4;
        g.append(s('path', { d: `M${x0},${y0} C${(x0 + x1) / 2},${y0} ${(x0 + x1) / 2},${cy} ${x1},${cy}`, fill: 'none', stroke: COLORS[0], 'stroke-opacity': 'var(--tpw-flow-opacity, .8)', 'stroke-width': Math.max(0.5, 18 * w[j]) }));
      }
      svg.append(g);
    }
    c.forEach((v, d) => svg.append(s('rect', { x: X_C + d * C_CELL, y: cy - ROW / 2 + 5, width: C_CELL - 2, height: ROW - 10, fill: cellFill(v), stroke: C.cEdge, 'data-value': v }),
      s('text', { x: X_C + d * C_CELL + C_CELL / 2 - 1, y: cy + 4, 'font-size': 10, 'text-anchor': 'middle', text: fmt(v, 2) })));
  }

  function showText() {
    const w = res.weights[shown];
    const sum = res.rowSums[shown];
    sumOut.dataset.sum = String(sum);
    sumOut.dataset.query = String(shown);
    sumOut.dataset.weights = JSON.stringify(w);
    sumOut.textContent = `${T.sum(fmt(sum, 4))} · c = (${res.mixed[shown].map((v) => fmt(v, 3)).join(', ')})`;
    table.replaceChildren(h('caption', { class: 'sr-only', text: T.svg(tokens[shown]) }),
      h('tr', {}, h('th', { text: T.token }), h('th', { text: T.weight }), h('th', { text: T.value })),
      ...tokens.map((tok, j) => h('tr', { class: j === shown ? 'tpw-current' : '' }, h('td', { lang: english, text: tok }),
        h('td', { text: j > shown ? `0 (${T.masked})` : fmt(w[j], 3) }), h('td', { text: `(${values[j].map((v) => fmt(v, 1)).join(', ')})` }))));
    const visible = tokens.slice(0, shown + 1).map((tok, j) => `${tok} ${fmt(w[j], 2)}`).join(', ');
    const future = tokens.slice(shown + 1);
    const kind = real ? T.real(real.info.architecture) : T.illustrative;
    ctx.describe(`${T.title}. ${kind} ${T.query(tokens[shown])}: ${visible}${future.length ? `; ${future.join(', ')}: 0 (${T.masked})` : ''}. ${sumOut.textContent}.`);
  }

  function render() {
    buttons.forEach((b, i) => {
      b.setAttribute('aria-checked', String(i === pinned));
      b.tabIndex = i === pinned ? 0 : -1;
      b.classList.toggle('tpw-future', i > shown);
    });
    el.dataset.query = String(shown);
    draw();
    if (res) showText();
  }

  const scale = rangeControl({ id: `${ctx.id}-scale`, label: T.scale, min: 0.25, max: 3, step: 0.25, value: 1, format: (v) => `s = ${v}`, testid: 'attention-flow-scale' });
  scale.input.addEventListener('input', () => { scale.set(scale.input.value); update(Number(scale.input.value)); });
  const update = latest(el, async (sc) => {
    if (real) {
      const r = await ctx.compute(attendModel, { text: SENTENCE, layer: real.layer, head: real.head, channels: SHOWN_CHANNELS });
      if (r.tokens.join('\u0000') !== tokens.join('\u0000')) {
        tokens = r.tokens;
        n = tokens.length;
        pinned = shown = n - 1;
        makeButtons();
      }
      values = r.values;
      res = r;
    } else {
      if (tokens !== TOKENS) {
        tokens = TOKENS;
        n = TOKENS.length;
        pinned = shown = Math.max(0, Math.min(n - 1, Number(ctx.props.query ?? n - 1)));
        makeButtons();
      }
      values = VALUES;
      res = await ctx.compute(attend, { scores: SCORES, values: VALUES, scale: sc });
    }
    err.clear();
    render();
  }, (e) => err.show(e));

  // The loaded model's mode: a source chooser (illustrative / loaded model), a layer and a head.
  const note = h('p', { class: 'tpw-note', 'data-testid': 'attention-flow-illustrative' }, h('b', { text: T.illustrative }));
  const select = (label, testid, count, value, onchange) => {
    const sel = h('select', { id: `${ctx.id}-${testid}`, 'data-testid': testid, onchange: () => onchange(Number(sel.value)) },
      ...Array.from({ length: count }, (_, i) => h('option', { value: i, selected: i === value ? true : null, text: String(i) })));
    return h('label', { for: sel.id }, `${label} `, sel);
  };
  const modelRow = h('div', { class: 'tpw-row', 'data-testid': 'attention-flow-model', hidden: true });
  function showModel(info) {
    if (!info) {
      real = null;
      modelRow.hidden = true;
      note.replaceChildren(h('b', { text: T.illustrative }));
      scale.row.hidden = false;
      update(Number(scale.input.value));
      return;
    }
    const layer = Math.min(info.layers - 1, Math.floor(info.layers / 2));
    real = { info, layer, head: 0 };
    modelRow.replaceChildren(
      select(T.layer, 'attention-flow-layer', info.layers, layer, (v) => { real.layer = v; update(); }),
      select(T.head, 'attention-flow-head', info.heads, 0, (v) => { real.head = v; update(); }));
    modelRow.hidden = false;
    note.replaceChildren(h('b', { text: T.real(info.architecture) }));
    scale.row.hidden = true; // a real model's scores are already scaled by 1/√headDim
    update();
  }
  const checkModel = () => ctx.compute(modelInfo, {}).then((info) => {
    if (JSON.stringify(info) !== JSON.stringify(real?.info ?? null)) showModel(info);
  }, () => {});
  ctx.watch('model', checkModel);

  function choose(i, pin, focus = false) {
    const t0 = performance.now();
    if (pin) pinned = i;
    shown = i;
    if (focus) buttons[i].focus();
    render();
    if (res) recordUpdate(el, t0);
  }

  el.append(h('p', { class: 'tpw-note', text: T.title }), note, modelRow,
    group, h('div', { class: 'tpw-scroll' }, svg), sumOut, scale.row, h('details', {}, h('summary', { text: T.table }), table), err.el);
  render();
  onThemeChange(ctx, draw);
  update(1);
  checkModel();
  return { destroy() { container.innerHTML = ''; } };
}

// Draws the plot specs cells produce (web/runtime/plot.js) as SVG with Observable Plot, with a text
// description for screen readers. Loaded lazily: the first plot pays for the library.
import * as Plot from '@observablehq/plot';
import { t } from './i18n.js';

const fmt = (v) => (Number.isFinite(v) ? Number(v.toPrecision(4)).toString() : String(v));
const extent = (a) => {
  let lo = Infinity, hi = -Infinity;
  for (const v of a) if (Number.isFinite(v)) { if (v < lo) lo = v; if (v > hi) hi = v; }
  return [lo, hi];
};

function xyRows(series) {
  return series.flatMap((s) => s.y.map((y, i) => ({ x: s.x[i], y, series: s.name })));
}

function describeXY(kind, series, lang) {
  const n = series.reduce((a, s) => a + s.y.length, 0);
  const [x0, x1] = extent(series.flatMap((s) => s.x));
  const [y0, y1] = extent(series.flatMap((s) => s.y));
  return t(lang, kind === 'line' ? 'plotLine' : 'plotScatter',
    { series: series.length, n, x0: fmt(x0), x1: fmt(x1), y0: fmt(y0), y1: fmt(y1) });
}

export function renderPlot(spec, lang = 'en') {
  const o = spec.options ?? {};
  const base = {
    width: o.width ?? 640,
    height: o.height ?? (spec.kind === 'heatmap' ? undefined : 320),
    style: { background: 'transparent', fontSize: '12px' },
    // The x label centred under the tick labels: at its default place, the right end, it collides
    // with the last tick label ("1,000" and "k →").
    x: { label: o.xLabel ?? null, labelAnchor: 'center', type: o.logX ? 'log' : undefined },
    marginBottom: o.xLabel ? 40 : undefined,
    y: { label: o.yLabel ?? null, grid: true, type: o.logY ? 'log' : undefined },
  };
  let marks, description, extra = {};
  switch (spec.kind) {
    case 'line': case 'scatter': {
      const series = spec.data.series;
      const rows = xyRows(series);
      const multi = series.length > 1;
      const channel = multi ? 'series' : (o.color ?? 'steelblue');
      marks = spec.kind === 'line'
        ? [Plot.lineY(rows, { x: 'x', y: 'y', z: multi ? 'series' : undefined, stroke: channel, tip: true })]
        : [Plot.dot(rows, { x: 'x', y: 'y', fill: channel, r: 3, tip: true })];
      if (multi) extra.color = { legend: true };
      description = describeXY(spec.kind, series, lang);
      break;
    }
    case 'bar': {
      const { labels, values } = spec.data;
      const rows = labels.map((label, i) => ({ label, value: values[i] }));
      marks = [Plot.barY(rows, { x: 'label', y: 'value', fill: o.color ?? 'steelblue', tip: true }), Plot.ruleY([0])];
      extra.x = { ...base.x, domain: labels, type: 'band' };
      description = t(lang, 'plotBar', { bars: rows.slice(0, 20).map((r) => `${r.label} ${fmt(r.value)}`).join(', ') + (rows.length > 20 ? ', …' : '') });
      break;
    }
    case 'histogram': {
      const values = spec.data.values;
      marks = [Plot.rectY(values, Plot.binX({ y: 'count' }, { x: (d) => d, thresholds: o.bins ?? 'auto', fill: o.color ?? 'steelblue' })), Plot.ruleY([0])];
      // Plot would label the counts "Frequency", in English whatever the page.
      extra.y = { ...base.y, label: o.yLabel ?? (lang === 'zh' ? '个数' : 'count') };
      const [lo, hi] = extent(values);
      description = t(lang, 'plotHistogram', { n: values.length, lo: fmt(lo), hi: fmt(hi) });
      break;
    }
    case 'heatmap': {
      const { rows, cols, values } = spec.data;
      const scheme = o.scheme ?? 'viridis';
      const size = Math.min(640, Math.max(160, cols * 24));
      base.width = o.width ?? size + 80;
      base.height = o.height ?? Math.round((size * rows) / Math.max(cols, 1)) + 40;
      extra.color = { scheme, legend: true, label: o.label ?? null };
      if (rows * cols <= 4096) {
        const data = values.map((v, k) => ({ i: Math.floor(k / cols), j: k % cols, v }));
        marks = [Plot.cell(data, { x: 'j', y: 'i', fill: 'v', inset: 0, tip: true })];
        extra.x = { axis: cols <= 32 ? 'top' : null, label: o.xLabel ?? null };
        extra.y = { axis: rows <= 32 ? 'left' : null, label: o.yLabel ?? null };
      } else {
        marks = [Plot.raster(values, { width: cols, height: rows, x1: 0, x2: cols, y1: 0, y2: rows, imageRendering: 'pixelated' })];
        extra.x = { axis: null };
        extra.y = { axis: null, reverse: true };
      }
      const [lo, hi] = extent(values);
      description = t(lang, 'plotHeatmap', { rows, cols, lo: fmt(lo), hi: fmt(hi) });
      break;
    }
    default:
      throw new Error(`unknown plot kind ${spec.kind}`);
  }
  if (o.description) description = `${o.description} ${description}`;
  if (o.title) description = `${o.title}. ${description}`;
  const node = Plot.plot({ ...base, ...extra, marks, ariaLabel: description, ariaDescription: description });
  return { node, description };
}

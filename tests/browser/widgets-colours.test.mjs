// The chapter's widgets in the light and dark themes (built site, demo and linear-algebra chapters): every
// label reads at 4.5:1 on what it sits on, every mark that carries meaning is 3:1 on the widget's panel
// (the faint ones are listed below, each with its reason), no light-theme grey or white is left in dark,
// and a change of theme while the page is open recolours the figures, colours computed in JS included,
// without a reload.
// Saves a dark screenshot of each widget to build/screenshots/dark-<name>.png.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { root, useSiteAndBrowser, openPage } from './helpers.mjs';
import { CONTRAST } from './contrast.mjs';

let srv, browser;
useSiteAndBrowser((s, b) => { srv = s; browser = b; });

const shots = path.join(root, 'build', 'screenshots');
const url = (chapter) => `${srv.base}?chapter=${chapter}&lang=en`;

// Marks deliberately fainter than 3:1 on the panel, in both themes: [why, selector, property].
const FAINT = [
  ['grid lines', '[style*="var(--grid,"], [style*="var(--tpw-grid-faint,"]', 'stroke'],
  ['the ring that sets a handle off the lines beneath it (the handle itself is checked)', '.tpw-ring', 'stroke'],
  ['the translucent fill of the unit square (its outline is checked)', '[data-testid=grid2x2-svg] polygon', 'fill'],
  ['the line through b, a guide (b itself is checked)', '[data-testid=dot-projection-svg] line[stroke-dasharray="2 4"]', 'stroke'],
  ['the tint of the row of the shown query (its token is also bold)', '[style*="var(--info-bg,"]', 'fill'],
  ['bar tracks and masked cells, backgrounds (their bars, dashed outlines and text are checked)', '[style*="var(--tpw-track,"]', 'fill'],
  ['the outline of a visible row of bar tracks', '[style*="var(--tpw-track-edge,"]', 'stroke'],
  ['heat cells, backgrounds of their numbers (the numbers are checked on them, their outlines on the panel)', '[data-testid=attention-flow-svg] rect[data-value]', 'fill'],
];

// Colours of the light theme that must not show in dark (fills, strokes, text and backgrounds).
const LIGHT_ONLY = ['#e3e5e8', '#eceef1', '#f1f3f4', '#e8f0fe', '#dadce0', '#c9ced6', '#bbbbbb', '#ffffff', '#555555', '#333333'];

// What a mark or a label sits on, and their contrast, in the page (after CONTRAST from ./contrast.mjs).
const FIGURES = () => {
  const { parse, over, ratio, background, toHex: hex } = globalThis.__contrast;
  // A mark's colour with its opacity (fill-opacity or stroke-opacity, and `opacity` up to the widget).
  const paint = (e, prop, widget) => {
    const cs = getComputedStyle(e);
    const c = parse(cs[prop]);
    if (!c) return null;
    let a = c[3] * Number(cs[`${prop}Opacity`]);
    for (let p = e; p && p !== widget; p = p.parentElement) a *= Number(getComputedStyle(p).opacity);
    return [c[0], c[1], c[2], a];
  };
  const SHAPES = 'rect, circle, ellipse, polygon, polyline, path';

  /** Labels below 4.5:1 (swatch glyphs 3:1) on what is drawn under their middle (shapes' fills, over the panel), and how many were read. */
  function labels(widget) {
    const panel = background(widget);
    const low = [];
    const all = [...widget.querySelectorAll('svg text, svg tspan')].filter((t) => t.textContent.trim());
    for (const t of all) {
      t.scrollIntoView({ block: 'center', behavior: 'instant' });
      const box = t.getBoundingClientRect();
      const svg = t.ownerSVGElement;
      const layers = [];
      for (const e of document.elementsFromPoint(box.x + box.width / 2, box.y + box.height / 2)) {
        if (!svg.contains(e) || !e.matches(SHAPES)) continue;
        const c = paint(e, 'fill', widget);
        if (c && c[3] > 0) layers.push(c);
        if (c && c[3] >= 1) break;
      }
      const bg = layers.reverse().reduce((b, c) => over(c, b), panel);
      const r = ratio(over(paint(t, 'fill', widget), bg), bg);
      // A legend's swatch drawn as a glyph (▮) is a graphic, not words: 3:1, as the marks it stands for.
      const least = /^[▮■◆●]+$/.test(t.textContent.trim()) ? 3 : 4.5;
      if (r < least) low.push(`${t.textContent.trim().slice(0, 20)}: ${getComputedStyle(t).fill} on ${hex(bg)} is ${r.toFixed(2)}:1`);
    }
    return { count: all.length, low };
  }

  /** Strokes and fills below 3:1 on the panel, except the faint ones listed; and how many were read. */
  function marks(widget, faint) {
    const panel = background(widget);
    const low = [];
    let count = 0;
    for (const e of widget.querySelectorAll(`svg line, svg ${SHAPES.replaceAll(', ', ', svg ')}`)) {
      if (e.closest('clipPath, mask')) continue; // a shape, not paint
      for (const prop of e.matches('line') ? ['stroke'] : ['stroke', 'fill']) {
        const c = paint(e, prop, widget);
        if (!c || c[3] === 0 || (prop === 'stroke' && parseFloat(getComputedStyle(e).strokeWidth) === 0)) continue;
        if (faint.some(([, sel, p]) => p === prop && e.matches(sel))) continue;
        count++;
        const r = ratio(over(c, panel), panel);
        if (r < 3) low.push(`${e.tagName} ${prop} ${getComputedStyle(e)[prop]} (opacity ${c[3].toFixed(2)}) is ${r.toFixed(2)}:1 on ${hex(panel)}`);
      }
    }
    return { count, low };
  }

  /** Elements painted in one of the given colours: SVG fill and stroke, HTML text and background (not the
   * form controls, which the browser draws in its own dark colours). */
  function lightOnly(widget, colours) {
    const hits = [];
    for (const e of [widget, ...widget.querySelectorAll('*')]) {
      if (e.matches('input, select, option, textarea')) continue;
      const cs = getComputedStyle(e);
      const props = e instanceof SVGElement ? ['fill', 'stroke'] : ['color', 'backgroundColor'];
      for (const prop of props) {
        const c = parse(cs[prop]);
        if (c && c[3] > 0 && colours.includes(hex(c)) && !(prop === 'fill' && e.matches('svg line'))) hits.push(`${e.tagName} ${prop} ${hex(c)}`);
      }
    }
    return hits;
  }

  globalThis.__dark = { labels, marks, lightOnly };
};

/** Every widget's computed colours, in order: SVG fill/stroke/opacities, HTML colours, canvas pixels (hashed). */
const SNAPSHOT = () => [...document.querySelectorAll('.tpw')].map((w) => [w.dataset.testid, [...w.querySelectorAll('*')].map((e) => {
  const cs = getComputedStyle(e);
  if (e instanceof HTMLCanvasElement) {
    const url = e.toDataURL();
    let h = 0;
    for (let i = 0; i < url.length; i++) h = (h * 31 + url.charCodeAt(i)) | 0;
    return `canvas ${h}`;
  }
  return e instanceof SVGElement ? `${e.tagName} ${cs.fill} ${cs.stroke} ${cs.fillOpacity} ${cs.strokeOpacity}` : `${e.tagName} ${cs.color} ${cs.backgroundColor}`;
})]);

async function settled(page) {
  await page.waitForFunction(() => {
    const widgets = [...document.querySelectorAll('.tpw')];
    return widgets.length >= 7 && widgets.every((w) => w.dataset.state === 'ready' && Number(w.dataset.updates ?? 0) > 0);
  }, null, { timeout: 120000 });
}

async function withPage(fn, { dark }) {
  const context = await browser.newContext({ viewport: { width: 1000, height: 900 }, colorScheme: dark ? 'dark' : 'light' });
  const { page, log } = await openPage(context, srv.base);
  try {
    await page.addInitScript(CONTRAST);
    await page.addInitScript(FIGURES);
    await fn(page);
    assert.deepEqual(log.errors, [], 'no console error');
  } finally {
    await context.close();
  }
}

/** Attention-flow with the first token as the query: five masked rows to check too. */
async function maskRows(page) {
  await page.locator('[data-testid=attention-flow-token][data-index="0"]').click();
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=widget-attention-flow] [data-masked=true]').length === 5);
  // The pointer rests on the sticky header: scrolling must not bring another token under it (hover previews it).
  await page.mouse.move(1, 1);
}

/** What only shows after some interaction: masked attention rows, rotated bars, sv-decay's cursor. */
async function interact(page) {
  await maskRows(page);
  await page.locator('[data-testid=rotation-quant-hadamard]').check();
  await page.locator('[data-testid=sv-decay-plot]').focus();
  await page.keyboard.press('End');
  await page.waitForFunction(() => {
    const rq = document.querySelector('[data-testid=widget-rotation-quant]');
    return rq.dataset.rotation === 'hadamard' && rq.dataset.state === 'ready' && rq.querySelectorAll('[data-testid=rotation-quant-plot] path').length === 2 &&
      document.querySelector('[data-testid=sv-decay-plot]').getAttribute('aria-valuenow') !== '1';
  }, null, { timeout: 60000 });
  await page.locator('[data-testid=sv-decay-plot]').blur();
  await page.mouse.move(1, 1);
}

// One page per chapter and theme, read in two states (as loaded, and after the interactions above); the
// tests below each assert their part of it.
const reports = new Map();
function report(chapter, theme) {
  const key = `${chapter} ${theme}`;
  if (!reports.has(key)) {
    reports.set(key, (async () => {
      const out = { labels: [], marks: [], lightOnly: [], counts: {}, theme: null };
      await withPage(async (page) => {
        await page.goto(url(chapter));
        await settled(page);
        out.theme = await page.evaluate(() => document.documentElement.dataset.theme);
        for (const state of ['as loaded', 'after interaction']) {
          if (state === 'after interaction') await interact(page);
          for (const w of await page.locator('.tpw').all()) {
            const name = await w.getAttribute('data-testid');
            const r = await w.evaluate((el, [faint, colours]) => ({
              labels: globalThis.__dark.labels(el), marks: globalThis.__dark.marks(el, faint), lightOnly: globalThis.__dark.lightOnly(el, colours),
            }), [FAINT, LIGHT_ONLY]);
            const where = `${chapter} ${state} ${name}`;
            out.labels.push(...r.labels.low.map((x) => `${where}: ${x}`));
            out.marks.push(...r.marks.low.map((x) => `${where}: ${x}`));
            out.lightOnly.push(...r.lightOnly.map((x) => `${where}: ${x}`));
            out.counts[where] = { labels: r.labels.count, marks: r.marks.count };
          }
        }
        if (chapter === 'demo' && theme === 'dark') {
          fs.mkdirSync(shots, { recursive: true });
          for (const w of await page.locator('[data-testid=widget]').all()) {
            await w.scrollIntoViewIfNeeded();
            await w.screenshot({ path: path.join(shots, `dark-${await w.getAttribute('data-widget')}.png`) });
          }
        }
      }, { dark: theme === 'dark' });
      return out;
    })());
  }
  return reports.get(key);
}

for (const [chapter, theme] of [['demo', 'dark'], ['linear-algebra', 'dark'], ['demo', 'light'], ['linear-algebra', 'light']]) {
  test(`in the ${chapter} chapter in ${theme}, every label of every widget reads at 4.5:1 or more on what it sits on`, async () => {
    const r = await report(chapter, theme);
    assert.equal(r.theme, theme);
    const read = Object.values(r.counts).reduce((n, c) => n + c.labels, 0);
    assert.ok(read > 100, `${read} labels read`);
    assert.deepEqual(r.labels, []);
  });

  test(`in the ${chapter} chapter in ${theme}, every mark that carries meaning is 3:1 or more on the widget panel`, async () => {
    const r = await report(chapter, theme);
    for (const [where, c] of Object.entries(r.counts)) assert.ok(c.marks > 0 || /slider/.test(where), `${where}: no mark read`);
    assert.deepEqual(r.marks, []);
  });

  if (theme === 'dark') {
    test(`in the ${chapter} chapter in dark, no widget paints a light-theme grey or white`, async () => {
      const r = await report(chapter, theme);
      assert.deepEqual(r.lightOnly, []);
    });
  }
}

test('switching the theme while the page is open recolours every widget as a dark page shows it, and switching back restores light', async () => {
  let loadedDark;
  await withPage(async (page) => {
    await page.goto(url('demo'));
    await settled(page);
    await maskRows(page);
    loadedDark = await page.evaluate(SNAPSHOT);
  }, { dark: true });

  await withPage(async (page) => {
    await page.goto(url('demo'));
    await settled(page);
    await maskRows(page);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme ?? 'light'), 'light');
    const light = await page.evaluate(SNAPSHOT);
    // The mixed vector's cells, coloured by a heat ramp computed in JS from the theme.
    const heat = () => page.locator('[data-testid=attention-flow-svg] > rect').evaluateAll((rs) => rs.map((r) => getComputedStyle(r).fill));
    const heatLight = await heat();
    // As the page's early script does it: the attribute, then the event.
    const switchTo = (theme) => page.evaluate((t) => {
      document.documentElement.setAttribute('data-theme', t);
      window.dispatchEvent(new Event('tensorpad-themechange'));
    }, theme);

    await switchTo('dark');
    const switched = await page.evaluate(SNAPSHOT);
    assert.equal(await page.evaluate(() => performance.getEntriesByType('navigation').length), 1, 'no reload');
    // Each figure's marks (not only its labels, which follow the text colour) are recoloured.
    for (const [i, [name, els]] of switched.entries()) {
      const marks = els.filter((e, j) => /^(line|path|rect|circle|polygon) /.test(e) && e !== light[i][1][j]);
      assert.ok(marks.length > 0, `${name}: no mark changed colour`);
    }
    const heatDark = await heat();
    assert.equal(heatDark.length, 3);
    assert.ok(heatDark.every((c, i) => c !== heatLight[i]), `the heat cells were redrawn: ${heatLight.join(' ')} → ${heatDark.join(' ')}`);
    for (const [i, [name, els]] of switched.entries()) {
      assert.equal(name, loadedDark[i][0]);
      assert.deepEqual(els, loadedDark[i][1], `${name} switched to dark paints as a page loaded in dark`);
    }

    await switchTo('light');
    assert.deepEqual(await page.evaluate(SNAPSHOT), light, 'back in light, every colour is the light one again');
    assert.deepEqual(await heat(), heatLight);
  }, { dark: false });
});

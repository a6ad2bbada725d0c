// Accessibility of the notebook in Chromium (built site): reflow when zoomed in, focus that stays visible
// and never falls to <body>, contrast of text, focus rings and graphics, one live status instead of dozens,
// heading levels, accessible names that contain what the button shows, language marks. Every check reads
// computed values (styles, geometry, attributes) after an action, never a timing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSiteAndBrowser, withSitePage, cell, typeInto, waitForState, waitIdle, holdCodeMirror } from './helpers.mjs';
import { CONTRAST } from './contrast.mjs';
import { u8, safetensorsBytes } from '../fixtures/safetensors-bytes.mjs';

let srv, browser;
useSiteAndBrowser((s, b) => { srv = s; browser = b; });

const url = (chapter, lang) => `${srv.base}?chapter=${chapter}&lang=${lang}`;

const withPage = (fn, { viewport = { width: 1280, height: 900 }, reducedMotion, colorScheme } = {}) =>
  withSitePage(browser, srv.base, (page, _context, log) => fn(page, log), { contextOptions: { viewport, reducedMotion, colorScheme } });

async function ready(page) {
  await page.waitForFunction(() => document.querySelector('#app')?.dataset.kernel === 'ready', null, { timeout: 30000 });
}

/** Waits until every widget has drawn its first result and every exercise block is mounted. */
async function settled(page) {
  await page.waitForFunction(() => {
    const widgets = [...document.querySelectorAll('.tpw')];
    const exercises = [...document.querySelectorAll('[data-testid=exercise]')];
    return widgets.length > 0 && widgets.every((w) => w.dataset.state === 'ready' && Number(w.dataset.updates ?? 0) > 0) &&
      exercises.every((e) => e.querySelector('[data-testid=judge-button]'));
  }, null, { timeout: 90000 });
}

// Lets the page finish what a key press set off (CodeMirror measures and scrolls in an animation frame).
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

const active = (page) => page.evaluate(() => ({
  tag: document.activeElement.tagName.toLowerCase(),
  testid: document.activeElement.dataset.testid ?? null,
  cell: document.activeElement.closest('[data-testid=cell]')?.dataset.cellId ?? null,
  inEditor: !!document.activeElement.closest('.cm-editor'),
  row: document.activeElement.closest('[data-testid=weights-row]')?.dataset.name ?? null,
}));


test('zoomed to 400% the chapter header scrolls away instead of covering the page; at normal size it sticks', async () => {
  await withPage(async (page) => {
    await page.goto(url('demo', 'en'));
    await page.locator('.chapter-header h1').waitFor();
    const header = () => page.evaluate(() => {
      const el = document.querySelector('.chapter-header');
      return { position: getComputedStyle(el).position, height: el.getBoundingClientRect().height, viewport: innerHeight,
        margin: parseFloat(getComputedStyle(document.querySelector('[data-testid=cell] button')).scrollMarginTop) };
    });
    for (const viewport of [{ width: 320, height: 256 }, { width: 320, height: 800 }, { width: 1280, height: 500 }]) {
      await page.setViewportSize(viewport);
      const h = await header();
      assert.equal(h.position, 'static', `${viewport.width}×${viewport.height}: the header does not stick`);
      assert.ok(h.margin < 16, `${viewport.width}×${viewport.height}: no scroll margin for a header that scrolls away (${h.margin})`);
    }
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.waitForFunction(() => parseFloat(getComputedStyle(document.querySelector('[data-testid=cell] button')).scrollMarginTop) > 16);
    const h = await header();
    assert.equal(h.position, 'sticky');
    assert.ok(h.height < h.viewport / 4, `the sticky header takes ${h.height} of ${h.viewport} px`);
    assert.ok(h.margin >= h.height, `scroll-margin-top ${h.margin} covers the header's ${h.height} px`);
    // The header's own controls are always in view: reaching them never scrolls the page.
    await page.evaluate(() => window.scrollTo({ top: 1500, behavior: 'instant' }));
    await page.locator('[data-testid=run-all]').focus();
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => scrollY), 1500);
  });
});

test('every control reached with Shift+Tab is scrolled into view below the sticky header', async () => {
  await withPage(async (page) => {
    await page.goto(url('linear-algebra', 'en'));
    await settled(page);
    // At the end of the page (at once: the End key scrolls smoothly, and would move the page after each focus).
    await page.evaluate(() => window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' }));
    const hidden = [];
    for (let i = 0; i < 120; i++) {
      await page.keyboard.press('Shift+Tab');
      await frames(page);
      const r = await page.evaluate(() => {
        const el = document.activeElement;
        const header = document.querySelector('.chapter-header');
        if (el === document.body || header.contains(el) || el.classList.contains('skip-link')) return null;
        const box = el.getBoundingClientRect();
        return { top: box.top, headerBottom: header.getBoundingClientRect().bottom, what: `${el.tagName} ${el.dataset.testid ?? ''} ${el.getAttribute('aria-label') ?? el.textContent.slice(0, 30)}` };
      });
      if (r && r.top < r.headerBottom - 1) hidden.push(`${r.what} (top ${Math.round(r.top)}, header bottom ${Math.round(r.headerBottom)})`);
    }
    assert.deepEqual(hidden, [], 'focused controls under the header');
  });
});

test('at 320 px wide nothing scrolls the page sideways, in English and in Chinese', async () => {
  for (const lang of ['en', 'zh']) {
    await withPage(async (page) => {
      await page.goto(url('linear-algebra', lang));
      await settled(page);
      const r = await page.evaluate(() => {
        const { scrollWidth, clientWidth } = document.documentElement;
        const cw = clientWidth;
        const scrolls = (e) => {
          for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) if (/auto|scroll|hidden/.test(getComputedStyle(p).overflowX)) return true;
          return false;
        };
        const wide = [...document.querySelectorAll('main *, header *')].filter((e) => e.getBoundingClientRect().right > cw + 1 && !scrolls(e))
          .map((e) => `${e.tagName.toLowerCase()}.${e.getAttribute('class') ?? ''} ${e.textContent.slice(0, 40)}`);
        return { scrollWidth, clientWidth, wide: wide.slice(0, 5) };
      });
      assert.ok(r.scrollWidth <= r.clientWidth, `${lang}: the page is ${r.scrollWidth} px wide in a ${r.clientWidth} px window: ${r.wide.join(' | ')}`);
    }, { viewport: { width: 320, height: 800 } });
  }
});

test('Check keeps focus while it judges and after the verdict, which is written once the block is no longer busy', async () => {
  await withPage(async (page) => {
    await page.goto(url('linear-algebra', 'en'));
    const block = page.locator('[data-testid=exercise]').first();
    const button = block.locator('[data-testid=judge-button]');
    await button.waitFor();
    // Records whether the block was busy whenever its verdict text changed to a final verdict.
    await block.evaluate((el) => {
      el.__busyAtVerdict = [];
      const verdict = el.querySelector('[data-testid=judge-verdict]');
      new MutationObserver(() => {
        if (verdict.dataset.verdict) el.__busyAtVerdict.push(el.getAttribute('aria-busy'));
      }).observe(verdict, { childList: true, characterData: true, subtree: true });
    });
    await button.focus();
    await page.keyboard.press('Enter');
    assert.equal(await button.evaluate((b) => b.disabled), false, 'the button is never disabled (focus would fall to the page)');
    await page.keyboard.press('Enter'); // a second press while judging is ignored
    await page.waitForFunction((el) => el.querySelector('[data-testid=judge-verdict]').dataset.verdict && !el.hasAttribute('aria-busy'),
      await block.elementHandle(), { timeout: 60000 });
    assert.equal(await button.evaluate((b) => b === document.activeElement), true, 'focus stays on Check');
    assert.equal(await button.getAttribute('aria-disabled'), null);
    assert.ok((await block.evaluate((el) => el.__busyAtVerdict)).every((b) => b === null), 'the block is not busy when its verdict is written');
    // Each case says passed or failed in words, not only with ✓/✗ and colour.
    const cases = await block.locator('[data-testid=judge-case]').evaluateAll((els) => els.map((el) => [el.dataset.status, el.querySelector('.sr-only')?.textContent]));
    assert.ok(cases.length > 0);
    for (const [status, words] of cases) assert.equal(words, { pass: 'passed:', fail: 'failed:', error: 'error:' }[status]);
  });
});

test('each case of a Chinese verdict says 通过 or 未通过 to a screen reader', async () => {
  await withPage(async (page) => {
    await page.goto(url('linear-algebra', 'zh'));
    const block = page.locator('[data-testid=exercise]').first();
    await block.locator('[data-testid=judge-button]').click();
    await page.waitForFunction((el) => el.querySelector('[data-testid=judge-verdict]').dataset.verdict && !el.hasAttribute('aria-busy'),
      await block.elementHandle(), { timeout: 60000 });
    const words = await block.locator('[data-testid=judge-case] .sr-only').allTextContents();
    assert.ok(words.length > 0);
    for (const w of words) assert.match(w, /^(通过|未通过|出错)：?:?$/);
  });
});

test('Reset cell and the author\'s-update choice move focus to the cell\'s editor, never to the page', async () => {
  await withPage(async (page) => {
    await page.goto(srv.base);
    await page.evaluate(() => localStorage.setItem('tensorpad:v1:chapter:demo', JSON.stringify({
      v: 1, exercises: {}, cells: { en: { c2: { source: 'old edit', base: '00000000' }, c3: { source: 'older edit', base: '00000000' } } },
    })));
    // CodeMirror's chunk is held back at first: a reader may answer before it has loaded, and focus must
    // still land in the cell (on its static copy, which takes typing), then stay there once the editor is made.
    const codeMirror = await holdCodeMirror(page);
    await page.goto(url('demo', 'en'));
    await cell(page, 'c2').locator('[data-testid=cell-take-update]').focus();
    await page.keyboard.press('Enter');
    assert.deepEqual(await active(page).then((a) => [a.cell, a.inEditor]), ['c2', true], 'after "Use the new version", CodeMirror still loading');
    codeMirror.release();
    await cell(page, 'c2').locator('.cm-editor:not([data-static])').waitFor({ timeout: 60000 });
    assert.deepEqual(await active(page).then((a) => [a.cell, a.inEditor]), ['c2', true], 'after "Use the new version", once the editor is made');
    await cell(page, 'c3').locator('[data-testid=cell-keep-edit]').focus();
    await page.keyboard.press('Enter');
    assert.deepEqual(await active(page).then((a) => [a.cell, a.inEditor]), ['c3', true], 'after "Keep my edit"');

    const reset = cell(page, 'c3').locator('[data-testid=cell-reset]');
    await reset.focus();
    await page.keyboard.press('Enter');
    assert.equal(await reset.isHidden(), true, 'the cell is the author\'s again');
    assert.deepEqual(await active(page).then((a) => [a.cell, a.inEditor]), ['c3', true], 'after Reset cell');
  });
});

test('Use as W and Remove in the model panel leave focus on the panel', async () => {
  const NAME = 'model.layers.0.self_attn.q_proj.weight';
  const bytes = safetensorsBytes([[NAME, 'F32', [4, 2], u8(Float32Array.from({ length: 8 }, (_, i) => i))], ['b', 'F32', [2], u8(new Float32Array(2))]]);
  await withPage(async (page) => {
    await page.goto(url('demo', 'en'));
    await ready(page);
    await page.setInputFiles('[data-testid=weights-input]', { name: 'model.safetensors', mimeType: 'application/octet-stream', buffer: bytes });
    const row = page.locator(`[data-testid=weights-row][data-name="${NAME}"]`);
    await row.waitFor();
    // Its name contains the words it shows.
    const bind = row.locator('[data-testid=weights-bind]');
    assert.ok((await bind.getAttribute('aria-label')).startsWith(await bind.textContent()));
    await bind.focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=weights-binding][data-as=W]').waitFor();
    assert.deepEqual(await active(page).then((a) => [a.testid, a.row]), ['weights-bind', NAME], 'after Use as W: the same row');
    await page.locator('[data-testid=weights-unbind]').focus();
    await page.keyboard.press('Enter');
    await page.locator('[data-testid=weights-binding]').waitFor({ state: 'detached' });
    const a = await active(page);
    assert.notEqual(a.tag, 'body', 'after Remove');
    assert.equal(await page.evaluate(() => document.querySelector('[data-testid=weights-panel]').contains(document.activeElement)), true);
  });
});

test('code tokens, masked attention tokens, graph colours and the focus ring meet their contrast minimums', async () => {
  await withPage(async (page) => {
    await page.addInitScript(CONTRAST);
    await page.goto(url('demo', 'en'));
    await ready(page);
    // Every kind of token the JavaScript mode colours.
    await typeInto(page, 'c1', [
      '// a comment',
      "const re = /a+b/g, s = 'text\\n', t = `a ${1 + 2} b`, n = 42.5, yes = true, none = null, u = undefined;",
      'class K extends Array { static #p = 1; get x() { return this.#p; } }',
      'function f(a, ...rest) { return a?.b ?? typeof rest; }',
      'let o = { key: 1, "q": [2] }; o.key += n; out: for (;;) break out;',
      'new Map(); async () => await Promise.resolve(K);',
    ].join('\n'));
    await page.keyboard.press('Control+Home');
    const tokens = await cell(page, 'c1').locator('.cm-line span').evaluateAll((spans) => {
      const { parse, ratio, background } = globalThis.__contrast;
      return spans.filter((s) => s.textContent.trim()).map((s) => ({ text: s.textContent, ratio: ratio(parse(getComputedStyle(s).color), background(s)) }));
    });
    assert.ok(new Set(tokens.map((t) => t.ratio.toFixed(2))).size >= 6, 'several token colours were drawn');
    const low = tokens.filter((t) => t.ratio < 4.5).map((t) => `${t.text} ${t.ratio.toFixed(2)}:1`);
    assert.deepEqual(low, [], 'token colours below 4.5:1 on the editor background');

    // attention-flow with the first token as the query: the five others are masked, dimmed but readable.
    await page.locator('[data-testid=attention-flow-token][data-index="0"]').click();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=widget-attention-flow] [data-masked=true]').length === 5);
    const masked = await page.locator('[data-testid=widget-attention-flow]').evaluate((el) => {
      const { parse, ratio, background, hex } = globalThis.__contrast;
      const buttons = [...el.querySelectorAll('.tpw-future')].map((b) => {
        const cs = getComputedStyle(b);
        return { ratio: ratio(parse(cs.color), background(b)), cue: cs.borderStyle === 'dashed' && cs.fontStyle === 'italic' };
      });
      const panel = background(el);
      const svgText = [...el.querySelectorAll('[data-masked=true] text')].map((t) => Math.min(ratio(parse(getComputedStyle(t).fill), panel), ratio(parse(getComputedStyle(t).fill), hex('#f1f3f4'))));
      return { buttons, svgText };
    });
    assert.equal(masked.buttons.length, 5);
    for (const b of masked.buttons) {
      assert.ok(b.ratio >= 4.5, `a masked token's text is ${b.ratio.toFixed(2)}:1`);
      assert.ok(b.cue, 'a masked token is marked by a dashed border and italics');
    }
    assert.ok(masked.svgText.length >= 5 && masked.svgText.every((r) => r >= 4.5), `masked rows' text: ${masked.svgText.map((r) => r.toFixed(2))}`);

    // rotation-quant's "before" bars and their legend swatch: 3:1 against the widget's panel.
    const grey = await page.locator('[data-testid=widget-rotation-quant]').evaluate((el) => {
      const { parse, ratio, background } = globalThis.__contrast;
      const panel = background(el);
      const swatch = el.querySelector('[data-testid=rotation-quant-legend] tspan:nth-child(2)');
      const bars = el.querySelector('[data-testid=rotation-quant-plot] path');
      return [ratio(parse(getComputedStyle(swatch).fill), panel), ratio(parse(getComputedStyle(bars).stroke), panel)];
    });
    for (const r of grey) assert.ok(r >= 3, `rotation-quant's grey is ${r.toFixed(2)}:1 on its panel`);

    // The focus ring: 3:1 against every background a focused control sits on.
    await page.locator('[data-testid=run-all]').focus();
    await page.keyboard.press('Tab');
    const ring = await page.evaluate(() => {
      const { parse, ratio, hex } = globalThis.__contrast;
      const cs = getComputedStyle(document.activeElement);
      const color = parse(cs.outlineColor);
      return { style: cs.outlineStyle, ratios: ['#ffffff', '#f5f6f8', '#fafafa', '#e8f0fe', '#fff4d6'].map((b) => ratio(color, hex(b))) };
    });
    assert.equal(ring.style, 'solid');
    for (const r of ring.ratios) assert.ok(r >= 3, `the focus ring is ${r.toFixed(2)}:1`);
  });
});

test('in the dark theme every text of a chapter, code tokens, verdicts and the focus ring meet their contrast minimums', async () => {
  await withPage(async (page) => {
    await page.addInitScript(CONTRAST);
    await page.goto(url('linear-algebra', 'en'));
    await ready(page);
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark', 'a reader whose system is dark gets the dark theme');
    // Output of every kind (text, tables, plots, errors) and a failed verdict with its cases.
    await page.click('[data-testid=run-all]');
    await waitIdle(page, 120000);
    const first = await page.locator('[data-testid=cell]').first().getAttribute('data-cell-id');
    await typeInto(page, first, "// a comment\nconst s = `t ${1}`, re = /a+/g, n = 4.5, k = null; class K {}\nthrow new Error('boom')");
    await page.keyboard.press('Control+Enter');
    await waitForState(page, first, ['error']);
    const exercise = page.locator('[data-testid=exercise]').first();
    await exercise.locator('[data-testid=judge-button]').click();
    await exercise.locator('[data-testid=judge-case]').first().waitFor();
    await page.locator('[data-testid=run-all]').focus();

    const low = await page.evaluate(() => {
      const { parse, ratio, background } = globalThis.__contrast;
      const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden' && !el.closest('.sr-only, .judge-sr, svg');
      const found = [];
      for (const el of document.querySelectorAll('body *')) {
        const text = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim();
        if (!text || !shown(el)) continue;
        const r = ratio(parse(getComputedStyle(el).color), background(el));
        if (r < 4.5) found.push(`${el.tagName.toLowerCase()}.${el.className} "${text.slice(0, 30)}" ${r.toFixed(2)}:1`);
      }
      return { found, checked: document.querySelectorAll('body *').length };
    });
    assert.deepEqual(low.found, [], 'text below 4.5:1 on its background');

    const verdict = await exercise.evaluate((el) => {
      const { parse, ratio, background } = globalThis.__contrast;
      return [...el.querySelectorAll('.judge-verdict, .judge-mark')].map((e) => ratio(parse(getComputedStyle(e).color), background(e)));
    });
    assert.ok(verdict.length >= 2 && verdict.every((r) => r >= 4.5), `verdict colours ${verdict.map((r) => r.toFixed(2))}`);

    const tokens = await cell(page, first).locator('.cm-line span').evaluateAll((spans) => {
      const { parse, ratio, background } = globalThis.__contrast;
      return spans.filter((s) => s.textContent.trim()).map((s) => ({ text: s.textContent, color: getComputedStyle(s).color, ratio: ratio(parse(getComputedStyle(s).color), background(s)) }));
    });
    assert.ok(new Set(tokens.map((t) => t.color)).size >= 6, 'several token colours were drawn');
    assert.deepEqual(tokens.filter((t) => t.ratio < 4.5).map((t) => `${t.text} ${t.ratio.toFixed(2)}:1`), [], 'token colours below 4.5:1 on the editor background');
    // Selected, on the cursor's line too: the active line lets the selection through, and every token
    // colour keeps 4.5:1 on it.
    const selected = await page.evaluate((colours) => {
      const { parse, ratio, over } = globalThis.__contrast;
      const root = getComputedStyle(document.documentElement);
      const probe = (v) => { const i = document.createElement('i'); i.style.color = root.getPropertyValue(v); document.body.append(i); const c = parse(getComputedStyle(i).color); i.remove(); return c; };
      const bg = probe('--code-bg');
      const selection = over(probe('--selection-focused'), bg);
      const active = probe('--active-line');
      return { alpha: active[3], low: [...new Set(colours)].filter((c) => ratio(parse(c), over(active, selection)) < 4.5 || ratio(parse(c), selection) < 4.5) };
    }, tokens.map((t) => t.color));
    assert.ok(selected.alpha < 1, 'the active line is see-through');
    assert.deepEqual(selected.low, [], 'token colours below 4.5:1 on the selection');

    // An exercise's editor has the page's focus ring too, and a placeholder reads on its field.
    await exercise.locator('.cm-content').focus();
    const editorRing = await exercise.locator('.cm-editor').evaluate((el) => {
      const { parse, ratio, background } = globalThis.__contrast;
      const cs = getComputedStyle(el);
      return { style: cs.outlineStyle, width: parseFloat(cs.outlineWidth), ratio: ratio(parse(cs.outlineColor), background(el)) };
    });
    assert.deepEqual({ style: editorRing.style, width: editorRing.width }, { style: 'solid', width: 3 });
    assert.ok(editorRing.ratio >= 3, `the exercise editor's focus ring is ${editorRing.ratio.toFixed(2)}:1`);
    const placeholders = await page.evaluate(() => {
      const { parse, ratio } = globalThis.__contrast;
      return [...document.querySelectorAll('input[placeholder]')].map((i) => ratio(parse(getComputedStyle(i, '::placeholder').color), parse(getComputedStyle(i).backgroundColor)));
    });
    assert.ok(placeholders.length >= 1 && placeholders.every((r) => r >= 4.5), `placeholders ${placeholders.map((r) => r.toFixed(2))}`);

    // Tab indents in the exercise's editor; Esc then Tab moves on to its Check button (no keyboard trap).
    await page.keyboard.press('Tab');
    assert.ok(await exercise.evaluate((el) => el.querySelector('.cm-content').contains(document.activeElement)), 'Tab stays in the exercise editor');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement.dataset.testid), 'judge-button', 'Esc then Tab reaches the Check button');
    const ring = await page.evaluate(() => {
      const { parse, ratio } = globalThis.__contrast;
      const cs = getComputedStyle(document.activeElement);
      const root = getComputedStyle(document.documentElement);
      const colour = (name) => { const probe = document.createElement('i'); probe.style.color = root.getPropertyValue(name); document.body.append(probe); const c = parse(getComputedStyle(probe).color); probe.remove(); return c; };
      return { style: cs.outlineStyle, ratios: ['--bg', '--panel', '--code-bg', '--info-bg', '--warn-bg', '--error-bg'].map((v) => `${v} ${ratio(parse(cs.outlineColor), colour(v)).toFixed(2)}`) };
    });
    assert.equal(ring.style, 'solid');
    for (const r of ring.ratios) assert.ok(Number(r.split(' ')[1]) >= 3, `the focus ring on ${r}:1`);
  }, { colorScheme: 'dark' });
});

test('cells and outputs are not landmarks or live regions; one status announces the result of what the reader ran', async () => {
  await withPage(async (page) => {
    await page.goto(url('demo', 'en'));
    await ready(page);
    const structure = await page.evaluate(() => ({
      regions: document.querySelectorAll('section[aria-label], section[aria-labelledby], [role=region]').length,
      cellRoles: [...new Set([...document.querySelectorAll('[data-testid=cell]')].map((c) => `${c.tagName} ${c.getAttribute('role')} ${!!c.getAttribute('aria-label')}`))],
      liveOutputs: document.querySelectorAll('[data-testid=cell-output][aria-live], [data-testid=cell-output][role], [data-testid=cell-output] [aria-live]').length,
      // (CodeMirror's own .cm-announced is silent unless the editor announces a command.)
      liveStatus: [...document.querySelectorAll('[role=status], [aria-live]:not(.cm-announced)')].filter((e) => e.closest('[data-testid=cell]')).length,
    }));
    assert.ok(structure.regions <= 2, `${structure.regions} regions`);
    assert.deepEqual(structure.cellRoles, ['DIV group true']);
    assert.equal(structure.liveOutputs, 0);
    assert.equal(structure.liveStatus, 0, 'nothing in a cell is live');
    const announcer = page.locator('[data-testid=announcer]');
    assert.equal(await announcer.getAttribute('role'), 'status');

    await cell(page, 'c1').locator('.cm-content').click();
    await page.keyboard.press('Shift+Enter');
    await waitForState(page, 'c1', ['done']);
    await page.waitForFunction(() => document.querySelector('[data-testid=announcer]').textContent === 'Cell 1 done.');
    assert.equal(await cell(page, 'c1').locator('[data-testid=cell-status]').textContent(), 'done', 'the state in words, not colour alone');

    await typeInto(page, 'c2', "throw new Error('boom')");
    await page.keyboard.press('Control+Enter');
    await waitForState(page, 'c2', ['error']);
    await page.waitForFunction(() => document.querySelector('[data-testid=announcer]').textContent === 'Cell 2: Error: boom');

    await page.click('[data-testid=run-all]');
    await waitIdle(page);
    await page.waitForFunction(() => document.querySelector('[data-testid=announcer]').textContent === 'Stopped at cell 2: Error: boom');
    await cell(page, 'c2').locator('[data-testid=cell-reset]').click();
    await page.click('[data-testid=run-all]');
    await waitIdle(page);
    const n = await page.locator('[data-testid=cell]').count();
    await page.waitForFunction((k) => document.querySelector('[data-testid=announcer]').textContent === `Ran ${k} cells, all done.`, n);
  });
});

test('the chapter title is the only h1, headings never skip a level, and exercise titles sit one level below their section', async () => {
  for (const lang of ['en', 'zh']) {
    await withPage(async (page) => {
      await page.goto(url('linear-algebra', lang));
      await page.waitForFunction(() => document.querySelectorAll('[data-testid=exercise] .judge-title').length >= 30, null, { timeout: 30000 });
      const r = await page.evaluate(() => {
        // The page's own headings (exercise titles, the model panel's) are sub-headings of the chapter's section they are in.
        const heads = [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => ({ level: Number(h.tagName[1]), text: h.textContent.trim().slice(0, 40),
          exercise: h.classList.contains('judge-title') || !!h.closest('.weights-panel') }));
        const skips = [];
        const exercises = [];
        let section = 1;
        heads.forEach((h, i) => {
          if (i && h.level > heads[i - 1].level + 1) skips.push(`${heads[i - 1].level} → ${h.level} ${h.text}`);
          if (h.exercise) exercises.push(h.level === section + 1 ? null : `${h.text} is h${h.level} in an h${section} section`);
          else section = h.level;
        });
        return { h1: heads.filter((h) => h.level === 1).map((h) => h.text), skips, exercises: exercises.filter(Boolean), levels: new Set(heads.map((h) => h.level)).size };
      });
      assert.deepEqual(r.h1, [lang === 'en' ? 'Linear algebra in LLMs' : await page.evaluate(() => document.querySelector('h1').textContent)]);
      assert.equal(r.h1.length, 1);
      assert.deepEqual(r.skips, []);
      assert.deepEqual(r.exercises, []);
      assert.ok(r.levels >= 3, 'parts, sections and exercises are three levels');
    });
  }
});

test('every button\'s accessible name contains the words it shows, and exercise controls are named after their exercise', async () => {
  for (const lang of ['en', 'zh']) {
    for (const chapter of ['demo', 'linear-algebra']) {
      await withPage(async (page) => {
        await page.goto(url(chapter, lang));
        await page.waitForFunction(() => [...document.querySelectorAll('[data-testid=exercise]')].every((e) => e.querySelector('[data-testid=judge-button]')));
        // Reset buttons show once a cell is edited.
        const first = await page.locator('[data-testid=cell]').first().getAttribute('data-cell-id');
        await typeInto(page, first, '1 + 1');
        const bad = await page.evaluate(() => {
          const words = (s) => (s ?? '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
          return [...document.querySelectorAll('button, [role=button], [role=radio]')].filter((b) => b.getAttribute('aria-label') && !b.hidden)
            .filter((b) => !words(b.getAttribute('aria-label')).includes(words(b.textContent)))
            .map((b) => `"${b.textContent.trim()}" named "${b.getAttribute('aria-label')}"`);
        });
        assert.deepEqual(bad, [], `${chapter} ${lang}`);
        const reset = cell(page, first).locator('[data-testid=cell-reset]');
        assert.ok((await reset.getAttribute('aria-label')).startsWith(await reset.textContent()), await reset.getAttribute('aria-label'));
        if (chapter === 'linear-algebra') {
          const names = await page.locator('[data-testid=exercise]').evaluateAll((els) => els.map((el) => {
            const title = el.querySelector('.judge-title').firstChild.textContent.replace(/^[^:：]*[:：]\s*/, '').trim();
            return { title, editor: el.querySelector('.cm-content').getAttribute('aria-label'), check: el.querySelector('[data-testid=judge-button]').getAttribute('aria-label') };
          }));
          assert.ok(names.length >= 30);
          for (const n of names) {
            assert.ok(n.editor.endsWith(n.title) && n.check.endsWith(n.title), `${JSON.stringify(n)}`);
          }
          assert.equal(new Set(names.map((n) => n.editor)).size, names.length, 'no two exercise editors share a name');
        }
      });
    }
  }
});

test('on the Chinese page the English example tokens are marked lang="en"', async () => {
  await withPage(async (page) => {
    await page.goto(url('demo', 'zh'));
    await page.waitForFunction(() => document.querySelector('[data-testid=widget-attention-flow]')?.dataset.state === 'ready');
    const langs = await page.locator('[data-testid=attention-flow-token]').evaluateAll((bs) => bs.map((b) => b.closest('[lang]').getAttribute('lang')));
    assert.deepEqual([...new Set(langs)], ['en']);
    const svg = await page.locator('[data-testid=attention-flow-svg] text[lang=en]').count();
    assert.equal(svg, 6, 'the token labels of the figure too');
  });
});

test('the sv-decay slider has a value from the start, and the editor cursor does not blink for readers who ask for less motion', async () => {
  await withPage(async (page) => {
    await page.goto(url('demo', 'en'));
    const plot = page.locator('[data-testid=sv-decay-plot]');
    await plot.waitFor();
    assert.equal(await plot.getAttribute('aria-valuenow'), '1');
    assert.equal(await plot.getAttribute('aria-valuemax'), '128');
    assert.ok((await plot.getAttribute('aria-valuetext')).length > 0);
    await cell(page, 'c1').locator('.cm-content').click();
    const blink = await cell(page, 'c1').locator('.cm-cursorLayer').evaluate((el) => {
      const cs = getComputedStyle(el);
      return { name: cs.animationName, duration: parseFloat(cs.animationDuration) };
    });
    assert.ok(blink.name === 'none' || blink.duration === 0, `cursor animation ${JSON.stringify(blink)}`);
  }, { reducedMotion: 'reduce' });
});

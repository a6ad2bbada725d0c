// The colour theme in Chromium (built site): the system's preference by default, set before the first
// paint; the header's menu overrides it, is remembered, reaches other tabs, and restyles the page (the
// editor's tokens included) without a reload; print takes the light colours. Contrast in the dark theme:
// a11y.test.mjs and widgets-colours.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSiteAndBrowser, openPage, cell } from './helpers.mjs';

let srv, browser;
useSiteAndBrowser((s, b) => { srv = s; browser = b; });

const url = (chapter, lang) => `${srv.base}?chapter=${chapter}&lang=${lang}`;

async function withContext(fn, options = {}) {
  const context = await browser.newContext(options);
  try {
    await fn(context);
  } finally {
    await context.close();
  }
}

// What the page shows: its theme attribute, the page background and a keyword's colour in a cell.
const look = (page) => page.evaluate(() => ({
  theme: document.documentElement.dataset.theme,
  background: getComputedStyle(document.documentElement).backgroundColor,
  keyword: (() => {
    const span = [...document.querySelectorAll('[data-testid=cell] .cm-line span')].find((s) => s.textContent === 'const');
    return span ? getComputedStyle(span).color : null;
  })(),
  menu: document.querySelector('[data-testid=theme-select]')?.value ?? null,
}));

// The chapter is interactive and a cell's keyword is highlighted: CodeMirror (a chunk loaded after the
// first screen) has replaced the static copy of the code, whose lines are plain until then.
async function keywordShown(page) {
  await page.locator('#app[data-rendered=true]').waitFor({ timeout: 60000 });
  await cell(page, 'c1').locator('.cm-line span', { hasText: /^const$/ }).first().waitFor();
}

const LIGHT_BG = 'rgb(255, 255, 255)';
const DARK_BG = 'rgb(23, 25, 28)';

test('a reader whose system is dark gets the dark theme before the page script runs, and one whose system is light the light one', async () => {
  for (const [colorScheme, theme, background] of [['dark', 'dark', DARK_BG], ['light', 'light', LIGHT_BG]]) {
    await withContext(async (context) => {
      const { page } = await openPage(context, srv.base);
      // The page script fails to arrive: what the reader sees is the shell alone.
      await page.route('**/assets/main.js', (route) => route.abort());
      await page.goto(url('demo', 'en'), { waitUntil: 'domcontentloaded' });
      const first = await page.evaluate(() => ({ theme: document.documentElement.dataset.theme, background: getComputedStyle(document.documentElement).backgroundColor, text: document.querySelector('.loading')?.textContent }));
      assert.deepEqual(first, { theme, background, text: 'Loading… 加载中…' }, colorScheme);
    }, { colorScheme });
  }
});

test('choosing Light in the header turns a dark page light at once, the editor included, and the choice holds after a reload', async () => {
  await withContext(async (context) => {
    const { page, log } = await openPage(context, srv.base);
    await page.goto(url('demo', 'en'));
    await keywordShown(page);
    const dark = await look(page);
    assert.equal(dark.theme, 'dark');
    assert.equal(dark.background, DARK_BG);
    assert.equal(dark.menu, 'auto');
    await page.evaluate(() => { globalThis.themeChanges = 0; addEventListener('tensorpad-themechange', () => globalThis.themeChanges++); });

    await page.selectOption('[data-testid=theme-select]', 'light');
    const light = await look(page);
    assert.equal(light.theme, 'light');
    assert.equal(light.background, LIGHT_BG);
    assert.notEqual(light.keyword, dark.keyword, 'a keyword changes colour without a reload');
    assert.equal(light.keyword, 'rgb(119, 0, 136)', "CodeMirror's keyword colour, #708");
    assert.equal(await page.evaluate(() => globalThis.themeChanges), 1, 'widgets hear one tensorpad-themechange');

    await page.reload();
    await keywordShown(page);
    assert.deepEqual(await look(page), { ...light, menu: 'light' });

    // Back to the system's choice.
    await page.selectOption('[data-testid=theme-select]', 'auto');
    assert.equal((await look(page)).theme, 'dark');
    await page.reload();
    await page.locator('[data-testid=theme-select]').waitFor();
    assert.equal((await look(page)).menu, 'auto');
    assert.deepEqual(log.errors, []);
  }, { colorScheme: 'dark' });
});

test('on Auto the page follows the system when it changes; a chosen theme does not', async () => {
  await withContext(async (context) => {
    const { page } = await openPage(context, srv.base);
    await page.goto(url('demo', 'zh'));
    await page.locator('[data-testid=theme-select]').waitFor();
    assert.equal((await look(page)).theme, 'light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    assert.equal((await look(page)).background, DARK_BG);

    await page.selectOption('[data-testid=theme-select]', 'light');
    await page.emulateMedia({ colorScheme: 'light' });
    await page.emulateMedia({ colorScheme: 'dark' });
    assert.equal((await look(page)).theme, 'light');
    // The menu speaks the page's language.
    assert.deepEqual(await page.locator('[data-testid=theme-select] option').allTextContents(), ['跟随系统', '浅色', '深色']);
    assert.equal(await page.locator('[data-testid=theme-select]').getAttribute('aria-label'), '配色');
  }, { colorScheme: 'light' });
});

test('a theme chosen in one tab reaches the other open tabs and their menus', async () => {
  await withContext(async (context) => {
    const { page: a } = await openPage(context, srv.base);
    const { page: b } = await openPage(context, srv.base);
    await a.goto(url('demo', 'en'));
    await b.goto(srv.base);
    await a.locator('[data-testid=theme-select]').waitFor();
    await b.locator('[data-testid=theme-select]').waitFor();
    assert.equal((await look(b)).theme, 'light');
    await a.selectOption('[data-testid=theme-select]', 'dark');
    await b.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    assert.equal((await look(b)).menu, 'dark');
  }, { colorScheme: 'light' });
});

test('with storage blocked the chosen theme still holds for the page, and nothing throws', async () => {
  await withContext(async (context) => {
    const { page, log } = await openPage(context, srv.base);
    await page.addInitScript(() => {
      Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('blocked', 'SecurityError'); } });
    });
    await page.goto(url('demo', 'en'));
    await page.locator('[data-testid=theme-select]').waitFor();
    await page.selectOption('[data-testid=theme-select]', 'dark');
    assert.equal((await look(page)).theme, 'dark');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.emulateMedia({ colorScheme: 'light' });
    assert.equal((await look(page)).theme, 'dark', 'a system change does not undo the unsaved choice');
    assert.deepEqual(log.errors.filter((e) => !/storage|localStorage/i.test(e)), []);
  }, { colorScheme: 'light' });
});

test('a page read in dark prints in the light colours, figures computed in JavaScript included', async () => {
  await withContext(async (context) => {
    const { page } = await openPage(context, srv.base);
    await page.goto(url('demo', 'en'));
    await page.waitForFunction(() => document.querySelector('[data-testid=widget-attention-flow]')?.dataset.state === 'ready', null, { timeout: 60000 });
    const colours = () => page.evaluate(() => ({
      fg: getComputedStyle(document.body).color,
      background: getComputedStyle(document.documentElement).backgroundColor,
      heat: [...document.querySelectorAll('[data-testid=attention-flow-svg] > rect')].map((r) => getComputedStyle(r).fill),
    }));
    const screen = await colours();
    await page.emulateMedia({ media: 'print' });
    await page.waitForFunction((before) => getComputedStyle(document.querySelector('[data-testid=attention-flow-svg] > rect')).fill !== before, screen.heat[0]);
    const paper = await colours();
    assert.equal(paper.fg, 'rgb(26, 26, 26)');
    assert.equal(paper.background, LIGHT_BG);
    await page.emulateMedia({ colorScheme: 'light', media: 'screen' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
    assert.deepEqual((await colours()).heat, paper.heat, 'the heat cells print as they show in light');
  }, { colorScheme: 'dark' });
});

test('a printed chapter leaves out the controls and the contents, and keeps the text, cells and figures', async () => {
  await withContext(async (context) => {
    const { page } = await openPage(context, srv.base);
    await page.goto(url('demo', 'en'));
    await page.locator('[data-testid=contents]').waitFor();
    await page.locator('#app[data-rendered=true]').waitFor({ timeout: 60000 });
    await page.locator('.tpw svg').first().waitFor({ state: 'attached', timeout: 60000 });
    await page.emulateMedia({ media: 'print' });
    const shown = await page.evaluate(() => Object.fromEntries(['.toolbar', '.topnav', '[data-testid=contents]', '[data-testid=cell-run]', 'h1', 'main .prose', '.cm-content', '.tpw svg']
      .map((sel) => [sel, getComputedStyle(document.querySelector(sel)).display !== 'none'])));
    assert.deepEqual(shown, {
      '.toolbar': false, '.topnav': false, '[data-testid=contents]': false, '[data-testid=cell-run]': false,
      h1: true, 'main .prose': true, '.cm-content': true, '.tpw svg': true,
    });
    const pdf = await page.pdf({ format: 'A4' });
    assert.ok(pdf.length > 50000, `a PDF of ${pdf.length} bytes`);
  }, { colorScheme: 'light' });
});

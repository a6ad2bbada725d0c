// The chapter renders progressively (web/src/lazy-editor.js, progressive.js, notebook.js #fill): a cell's code
// is a static copy until it nears the viewport, is clicked or focused. These tests hold what that must not
// change (a CodeMirror view is found from its content element: .cmTile.root.view in CodeMirror 6.43): the
// static copy has the editor's size and text (far from the viewport it is not laid out and stands in with the
// height of its lines), a click puts the caret where it landed, focus makes the editor, find-in-page, links and
// printing reach copies not laid out, and every block of the chapter is filled in the end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { useSiteAndBrowser, withSitePage, editorText, holdCodeMirror, dist } from './helpers.mjs';

let srv, browser;
useSiteAndBrowser((s, b) => { srv = s; browser = b; });

const open = async (page, lang = 'en') => {
  await page.goto(`${srv.base}?chapter=linear-algebra&lang=${lang}`);
  await page.locator('#app[data-rendered=true]').waitFor({ timeout: 120000 });
};

// The id of the last cell (far below the first screen) whose code is still a static copy, and its editor host.
const lastStatic = (page) => page.evaluate(() => {
  const cells = [...document.querySelectorAll('main [data-testid=cell]')].filter((el) => el.querySelector('.cm-editor[data-static]') && el.checkVisibility());
  return cells.at(-1)?.dataset.cellId ?? null;
});

for (const lang of ['en', 'zh']) {
  test(`(${lang}) a static copy of a cell has its editor's size and text, so nothing moves when the editor replaces it`, async () => {
    await withSitePage(browser, srv.base, async (page) => {
      await open(page, lang);
      const before = await page.evaluate(() => [...document.querySelectorAll('main [data-testid=cell]')]
        // Not those in a closed :::details (made when it is opened).
        .filter((el) => el.querySelector('.cm-editor[data-static]') && el.checkVisibility())
        .map((el) => ({
          id: el.dataset.cellId, height: el.querySelector('.cell-editor').getBoundingClientRect().height, text: [...el.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\n'),
          // Not laid out yet (content-visibility): its height is the one its line count gave.
          skipped: !el.querySelector('.cm-content').checkVisibility({ contentVisibilityAuto: true }),
        })));
      assert.ok(before.length >= 10, `cells far down the chapter start static (${before.length})`);
      assert.ok(before.filter((c) => c.skipped).length >= 10, `static copies far from the viewport are not laid out (${before.filter((c) => c.skipped).length})`);
      for (const { id, height, text } of before) {
        const cell = page.locator(`[data-testid=cell][data-cell-id="${id}"]`);
        await cell.scrollIntoViewIfNeeded();
        await cell.locator('.cm-editor:not([data-static])').waitFor({ timeout: 30000 });
        const after = await cell.evaluate((el) => ({ height: el.querySelector('.cell-editor').getBoundingClientRect().height, text: el.querySelector('.cm-content').cmTile.root.view.state.doc.toString() }));
        assert.equal(after.text, text, `cell ${id}: the static copy shows the editor's text`);
        assert.ok(Math.abs(after.height - height) < 0.5, `cell ${id}: static ${height} px, editor ${after.height} px`);
      }
    });
  });
}

// CodeMirror is a chunk of its own (web/src/lazy-editor.js loadEditor), loaded after the first screen: held back
// here, the page still shows the chapter, its cells as static copies drawn with style.css's copy of the editor's box.
test('the chapter shows its cells before CodeMirror has loaded, as static copies with the editor\'s size and text', async () => {
  await withSitePage(browser, srv.base, async (page) => {
    const codeMirror = await holdCodeMirror(page);
    await page.goto(`${srv.base}?chapter=linear-algebra&lang=en`);
    await page.waitForFunction(() => performance.getEntriesByName('tensorpad:first-screen').length > 0, null, { timeout: 120000 });
    await page.locator('main [data-testid=cell] .cm-static').first().waitFor({ timeout: 60000 });
    // Copies below the first screen are drawn in the slices after it (an empty box of their height until then).
    await page.waitForFunction(() => [...document.querySelectorAll('main [data-testid=cell]')].slice(0, 4).every((el) => el.querySelector('.cm-line')), null, { timeout: 60000 });
    await page.waitForTimeout(300);
    const before = await page.evaluate(() => ({
      editors: document.querySelectorAll('main .cm-editor:not([data-static])').length,
      filled: document.querySelector('#app').dataset.rendered ?? null,
      cells: [...document.querySelectorAll('main [data-testid=cell]')].slice(0, 4).map((el) => ({
        id: el.dataset.cellId, classes: el.querySelector('.cm-static').className,
        height: el.querySelector('.cell-editor').getBoundingClientRect().height,
        text: [...el.querySelectorAll('.cm-line')].map((l) => l.textContent).join('\n'),
      })),
    }));
    assert.ok(codeMirror.held(), 'the page asked for the CodeMirror chunk');
    assert.equal(before.editors, 0, 'no editor is made before CodeMirror has loaded');
    assert.equal(before.filled, null, 'the chapter is not marked interactive before its editors can be made');
    assert.equal(before.cells.length, 4);
    for (const c of before.cells) assert.equal(c.classes, 'cm-editor cm-static', `cell ${c.id}: drawn without CodeMirror's classes`);
    // A reader who clicks and types before CodeMirror is here loses nothing: the editor is made with that text,
    // the caret after it, and the edit is saved.
    const typedId = before.cells[1].id;
    const typed = page.locator(`[data-testid=cell][data-cell-id="${typedId}"]`);
    await typed.locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText('const early = 1;');
    await page.keyboard.press('Enter');
    await page.keyboard.insertText('early');
    await page.keyboard.press('Control+Enter');
    codeMirror.release();
    await typed.locator('.cm-editor:not([data-static])').waitFor({ timeout: 60000 });
    // Ctrl+Enter, pressed before the editor was made, ran the cell with what had been typed.
    await page.waitForFunction((id) => ['done', 'error'].includes(document.querySelector(`[data-cell-id="${id}"]`).dataset.state), typedId, { timeout: 60000 });
    assert.match(await typed.locator('[data-testid=cell-output]').textContent(), /^\s*1\s*$/);
    await page.keyboard.insertText(' + 1');
    assert.equal(await editorText(page, typedId), 'const early = 1;\nearly + 1');
    assert.equal(await typed.locator('[data-testid=cell-reset]').isVisible(), true, 'shown as an edit');
    await page.waitForFunction((id) => Object.values(localStorage).some((v) => v.includes('const early = 1;\\nearly + 1')), typedId, { timeout: 10000 });
    before.cells.splice(1, 1);
    await page.locator('#app[data-rendered=true]').waitFor({ timeout: 120000 });
    for (const c of before.cells) {
      const cell = page.locator(`[data-testid=cell][data-cell-id="${c.id}"]`);
      await cell.scrollIntoViewIfNeeded();
      await cell.locator('.cm-editor:not([data-static])').waitFor({ timeout: 30000 });
      const after = await cell.evaluate((el) => ({ height: el.querySelector('.cell-editor').getBoundingClientRect().height, text: el.querySelector('.cm-content').cmTile.root.view.state.doc.toString() }));
      assert.equal(after.text, c.text, `cell ${c.id}: the static copy shows the editor's text`);
      assert.ok(Math.abs(after.height - c.height) < 0.5, `cell ${c.id}: static copy ${c.height} px before CodeMirror, editor ${after.height} px`);
    }
  });
});

test('keys pressed in a clicked copy before CodeMirror arrives carry over: a select-all made there is the editor\'s selection', async () => {
  await withSitePage(browser, srv.base, async (page) => {
    const codeMirror = await holdCodeMirror(page);
    await page.goto(`${srv.base}?chapter=linear-algebra&lang=en`);
    await page.waitForFunction(() => [...document.querySelectorAll('main [data-testid=cell]')].slice(0, 2).every((el) => el.querySelector('.cm-line')), null, { timeout: 120000 });
    const id = await page.evaluate(() => document.querySelectorAll('main [data-testid=cell]')[1].dataset.cellId);
    const cell = page.locator(`[data-testid=cell][data-cell-id="${id}"]`);
    // The click asks for a caret mid-text; Ctrl+A then selects the whole copy; the editor is made only after.
    await cell.locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    codeMirror.release();
    await cell.locator('.cm-editor:not([data-static])').waitFor({ timeout: 60000 });
    await page.keyboard.press('Delete');
    await page.keyboard.insertText('// replaced');
    assert.equal(await editorText(page, id), '// replaced');
  });
});

// The first task of the page builds every block's frame but draws only what the first screen shows: below it, a
// cell's controls and the copy of its code, and the folded contents' list, are drawn in the slices after the
// first screen (notebook.js #fill), the copy standing in until then with the height of its lines.
test('below the first screen, cells and the folded contents are drawn after it, each copy standing in with its height so nothing moves', async () => {
  await withSitePage(browser, srv.base, async (page) => {
    // What the page holds when it marks its first screen (the mark is made before the first paint, synchronously).
    await page.addInitScript(() => {
      const mark = performance.mark.bind(performance);
      performance.mark = (name, ...rest) => {
        if (name === 'tensorpad:first-screen') {
          globalThis.__atFirstScreen = {
            innerHeight,
            tocLinks: document.querySelectorAll('[data-testid=toc-link]').length,
            cells: [...document.querySelectorAll('main [data-testid=cell]')].filter((el) => el.checkVisibility()).map((el) => ({
              id: el.dataset.cellId, top: el.getBoundingClientRect().top, lines: el.querySelectorAll('.cm-line').length,
              pending: !!el.querySelector('.cm-static[data-pending]'), tools: !!el.querySelector('[data-testid=add-cell-below]'),
              height: el.querySelector('.cell-editor').getBoundingClientRect().height,
            })),
          };
        }
        return mark(name, ...rest);
      };
    });
    await open(page);
    const at = await page.evaluate(() => globalThis.__atFirstScreen);
    const chapter = await page.evaluate(() => fetch('chapters/linear-algebra/en.json').then((r) => r.json()));
    const shown = at.cells.filter((c) => c.top < at.innerHeight);
    const far = at.cells.filter((c) => c.top > at.innerHeight + 1000);
    assert.ok(shown.length >= 1, `the first screen has a cell (${shown.length})`);
    for (const c of shown) assert.deepEqual([c.id, c.pending, c.lines > 0, c.tools], [c.id, false, true, true], `cell ${c.id} on the first screen is drawn with it`);
    assert.ok(far.length >= 10, `cells far below (${far.length})`);
    for (const c of far) assert.deepEqual([c.id, c.pending, c.lines, c.tools], [c.id, true, 0, false], `cell ${c.id} far below waits for the slices after the first screen`);
    assert.equal(at.tocLinks, 0, 'the folded contents\' list waits too');
    const after = await page.evaluate(() => ({
      tocLinks: document.querySelectorAll('[data-testid=toc-link]').length,
      cells: Object.fromEntries([...document.querySelectorAll('main [data-testid=cell]')].map((el) => [el.dataset.cellId, {
        lines: el.querySelectorAll('.cm-line').length, pending: !!el.querySelector('[data-pending]'), tools: !!el.querySelector('[data-testid=add-cell-below]'),
        skipped: !!el.querySelector('.cm-content') && !el.querySelector('.cm-content').checkVisibility({ contentVisibilityAuto: true }),
        height: el.querySelector('.cell-editor').getBoundingClientRect().height,
      }])),
    }));
    assert.equal(after.tocLinks, chapter.toc.length, 'every heading is in the contents once the chapter is filled');
    for (const c of far) {
      const now = after.cells[c.id];
      assert.deepEqual([c.id, now.pending, now.lines > 0, now.tools], [c.id, false, true, true], `cell ${c.id} is drawn once the chapter is filled`);
      // Still not laid out: the drawn copy stands in with the height the box had.
      if (now.skipped) assert.ok(Math.abs(now.height - c.height) < 0.5, `cell ${c.id}: ${c.height} px before it was drawn, ${now.height} px after`);
    }
    assert.ok(far.filter((c) => after.cells[c.id].skipped).length >= 5, 'heights compared on copies still not laid out');
  }, { contextOptions: { viewport: { width: 1280, height: 1200 } } }); // tall enough for the first cell; narrow enough to fold the contents
});

// main.js's own imports are asked for with it (index.html's modulepreload links), not once it has arrived: the
// build once preloaded a chunk of a dynamic import instead, and the strings every page needs waited a round trip.
test('index.html preloads exactly the chunks main.js imports', () => {
  const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  const main = fs.readFileSync(path.join(dist, 'assets', 'main.js'), 'utf8');
  const preloaded = [...html.matchAll(/<link rel="modulepreload" href="assets\/([^"]+)">/g)].map((m) => m[1]).sort();
  // Static imports, minified (`from"./x.js"`, `import"./x.js"`) or not; import("./x.js") is left to load on demand.
  const imported = [...new Set([...main.matchAll(/(?:\bfrom\s*|\bimport\s*)["']\.\/([^"']+\.js)["']/g)].map((m) => m[1]))].sort();
  assert.ok(imported.length >= 1, 'main.js imports chunks');
  assert.deepEqual(preloaded, imported);
});

// The exercises' statements and data are a file of their own (web/build.mjs), fetched after the first screen.
test('the chapter file carries no exercise statements: the page draws its first screen without them and mounts every exercise once they arrive', async () => {
  await withSitePage(browser, srv.base, async (page) => {
    let release;
    const held = new Promise((resolve) => { release = resolve; });
    await page.route('**/chapters/linear-algebra/en.exercises.json', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${srv.base}?chapter=linear-algebra&lang=en`);
    const chapter = await page.evaluate(() => fetch('chapters/linear-algebra/en.json').then((r) => r.json()));
    const exercises = [];
    const walk = (blocks) => blocks.forEach((b) => (b.type === 'exercise' ? exercises.push(b) : b.children && walk(b.children)));
    walk(chapter.blocks);
    assert.ok(exercises.length > 10);
    assert.deepEqual(exercises.filter((b) => b.statementHtml || b.exercise).map((b) => b.id), [], 'no statement in the chapter file');
    assert.equal(chapter.exercisesFile, 'en.exercises.json');
    await page.waitForFunction(() => performance.getEntriesByName('tensorpad:first-screen').length > 0, null, { timeout: 120000 });
    await page.waitForTimeout(300);
    assert.equal(await page.locator('[data-testid=exercise] .judge-title').count(), 0, 'no exercise is mounted before its statement is here');
    assert.equal(await page.locator('#app[data-rendered=true]').count(), 0);
    release();
    await page.locator('#app[data-rendered=true]').waitFor({ timeout: 120000 });
    assert.equal(await page.locator('[data-testid=exercise] .judge-title').count(), exercises.length);
    assert.equal(await page.locator('[data-testid=exercise] .katex').count() > 0, true, 'statements are drawn with their formulas');
    // The export has them too: each exercise's statement, in the chapter's language.
    const data = await page.evaluate(() => fetch('chapters/linear-algebra/en.exercises.json').then((r) => r.json()));
    const nb = await page.evaluate(() => globalThis.tensorpad.notebook.ipynb());
    const first = exercises[0].id;
    const statement = nb.cells.find((c) => c.cell_type === 'markdown' && c.metadata?.tensorpad?.exercise === first);
    assert.ok([statement.source].flat().join('').includes(data[first].exercise.statement.en.slice(0, 30)), 'the export has the statement');
  });
});

test('a click on a static copy makes the editor, with the caret where the click landed', async () => {
  await withSitePage(browser, srv.base, async (page) => {
    await open(page);
    const id = await lastStatic(page);
    assert.ok(id, 'a cell far down is still static');
    // Scrolled to and clicked in one turn of the page's event loop, before the viewport observer makes the editor.
    const expected = await page.evaluate((cid) => {
      const el = document.querySelector(`[data-testid=cell][data-cell-id="${cid}"]`);
      el.scrollIntoView({ block: 'center' });
      // A reader clicks a copy the page has drawn; one scrolled to in this same turn is not drawn yet (a copy
      // far from the viewport is not laid out: content-visibility in style.css), so it is drawn here.
      el.querySelector('.cm-static').style.contentVisibility = 'visible';
      const lines = [...el.querySelectorAll('.cm-line')];
      const n = lines.findIndex((l) => l.textContent.length >= 4);
      const line = lines[n];
      // The point between the 3rd and 4th characters of that line.
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      let node, left = 3;
      while ((node = walker.nextNode()) && node.length < left) left -= node.length;
      const r = document.createRange();
      r.setStart(node, left);
      r.setEnd(node, left);
      const { left: x, top, height } = r.getBoundingClientRect();
      const y = top + height / 2;
      const opts = { bubbles: true, cancelable: true, clientX: x + 1, clientY: y, button: 0 };
      const target = document.elementFromPoint(x + 1, y);
      for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) target.dispatchEvent(new (type.startsWith('pointer') ? PointerEvent : MouseEvent)(type, opts));
      return lines.slice(0, n).reduce((a, l) => a + l.textContent.length + 1, 0) + 3;
    }, id);
    const got = await page.evaluate((cid) => {
      const el = document.querySelector(`[data-testid=cell][data-cell-id="${cid}"]`);
      const view = el.querySelector('.cm-content').cmTile?.root.view;
      return { static: !!el.querySelector('.cm-editor[data-static]'), head: view?.state.selection.main.head, focused: !!document.activeElement?.closest('.cm-editor:not([data-static])') && el.contains(document.activeElement) };
    }, id);
    assert.deepEqual(got, { static: false, head: expected, focused: true });
  });
});

test('focusing a static copy (Tab, or a script) makes the editor and moves focus into it', async () => {
  await withSitePage(browser, srv.base, async (page) => {
    await open(page, 'zh');
    const id = await lastStatic(page);
    const got = await page.evaluate((cid) => {
      const el = document.querySelector(`[data-testid=cell][data-cell-id="${cid}"]`);
      const content = el.querySelector('.cm-content');
      const label = content.getAttribute('aria-label');
      content.focus();
      const editor = el.querySelector('.cm-content');
      return { label, editorLabel: editor.getAttribute('aria-label'), static: !!el.querySelector('.cm-editor[data-static]'), focused: editor.contains(document.activeElement) };
    }, id);
    assert.equal(got.static, false);
    assert.equal(got.focused, true);
    assert.equal(got.editorLabel, got.label, 'the static copy is named as its editor is');
    await page.keyboard.type('// 你好');
    assert.match(await page.evaluate((cid) => document.querySelector(`[data-cell-id="${cid}"] .cm-content`).cmTile.root.view.state.doc.toString(), id), /^\/\/ 你好/);
  });
});

test('every block of the chapter is filled in the end: headings, exercises and widgets', async () => {
  await withSitePage(browser, srv.base, async (page) => {
    await open(page);
    const chapter = await page.evaluate(() => fetch('chapters/linear-algebra/en.json').then((r) => r.json()));
    const count = (blocks, type) => blocks.reduce((n, b) => n + (b.type === type) + (b.children ? count(b.children, type) : 0), 0);
    const page_ = await page.evaluate(() => ({
      headings: document.querySelectorAll('main .prose :is(h2, h3)').length,
      exercises: document.querySelectorAll('[data-testid=exercise] .judge-title').length,
      emptyProse: [...document.querySelectorAll('main .prose')].filter((el) => !el.childElementCount).length,
    }));
    assert.equal(page_.exercises, count(chapter.blocks, 'exercise'));
    assert.equal(page_.emptyProse, 0);
    assert.ok(page_.headings >= chapter.toc.length - 1, `${page_.headings} headings for ${chapter.toc.length} entries of the contents`);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=widget] .widget-body > *').length >= n, count(chapter.blocks, 'widget'), { timeout: 60000 });
  });
});

// The static copies far from the viewport are not laid out (content-visibility: auto), which must not hide them
// from what reads the whole page.
test('find-in-page and a link reach a cell far down whose copy is not laid out', async () => {
  let id;
  await withSitePage(browser, srv.base, async (page) => {
    await open(page);
    id = await lastStatic(page);
    const line = await page.evaluate((cid) => {
      const el = document.querySelector(`[data-testid=cell][data-cell-id="${cid}"]`);
      const text = [...el.querySelectorAll('.cm-line')].map((l) => l.textContent.trim());
      // A line of its own: no other cell, exercise or paragraph has it.
      return text.find((t) => t.length > 20 && document.body.textContent.split(t).length === 2);
    }, id);
    assert.ok(line, `cell ${id} has a line of its own`);
    const found = await page.evaluate(([cid, text]) => {
      const el = document.querySelector(`[data-testid=cell][data-cell-id="${cid}"]`);
      const skipped = !el.querySelector('.cm-content').checkVisibility({ contentVisibilityAuto: true });
      const ok = window.find(text);
      const r = el.getBoundingClientRect();
      return { skipped, ok, inCell: el.contains(getSelection().anchorNode), shown: r.bottom > 0 && r.top < innerHeight };
    }, [id, line]);
    assert.deepEqual(found, { skipped: true, ok: true, inCell: true, shown: true }, 'found in a copy that was not laid out, selected and scrolled to');
  });
  // A link to the same cell, opened in a fresh page, lands on it once the page has settled.
  await withSitePage(browser, srv.base, async (page) => {
    await page.goto(`${srv.base}?chapter=linear-algebra&lang=en#cell-${id}`);
    await page.locator('#app[data-laid-out=true]').waitFor({ timeout: 120000 });
    await page.waitForTimeout(1500);
    const place = await page.evaluate((cid) => ({
      top: document.getElementById(`cell-${cid}`).getBoundingClientRect().top,
      header: document.querySelector('.chapter-header').getBoundingClientRect().bottom,
    }), id);
    assert.ok(place.top >= place.header - 1 && place.top < place.header + 40, `the cell's top at ${place.top}, the header ends at ${place.header}`);
  });
});

test('printed, every static copy and every block of text is laid out, however far from the top', async () => {
  await withSitePage(browser, srv.base, async (page) => {
    await open(page);
    const notLaidOut = () => page.evaluate(() => [...document.querySelectorAll('main .cm-static .cm-content, main > .prose > :first-child')]
      .filter((el) => !el.closest('details:not([open])') && !el.checkVisibility({ contentVisibilityAuto: true })).length);
    assert.ok(await notLaidOut() >= 10, 'on screen, those far from the viewport are not laid out');
    await page.emulateMedia({ media: 'print' });
    assert.equal(await notLaidOut(), 0);
    const pdf = await page.pdf({ format: 'A4' });
    assert.ok(pdf.length > 100000, `a PDF of ${pdf.length} bytes`);
  });
});

test('the formulas\' two main faces are asked for with the chapter, not once its first screen is laid out', async () => {
  for (const lang of ['en', 'zh']) {
    await withSitePage(browser, srv.base, async (page) => {
      await open(page, lang);
      const fonts = await page.evaluate(() => {
        const first = performance.getEntriesByName('tensorpad:first-screen')[0].startTime;
        return ['KaTeX_Main-Regular.woff2', 'KaTeX_Math-Italic.woff2'].map((f) => {
          const loads = performance.getEntriesByType('resource').filter((e) => e.name.endsWith(`/katex/fonts/${f}`));
          const preloaded = [...document.querySelectorAll('link[rel=preload][as=font]')].some((l) => l.href.endsWith(`/katex/fonts/${f}`));
          return { f, preloaded, loads: loads.length, before: loads.length ? loads[0].startTime < first : null };
        });
      });
      // Preloaded, downloaded once, and asked for before the first screen was drawn; the stylesheet alone would
      // ask only after. (Chromium names the initiator "link" or "css" as the two requests happen to meet.)
      assert.deepEqual(fonts.map((x) => [x.f, x.preloaded, x.loads, x.before]), fonts.map((x) => [x.f, true, 1, true]), lang);
    });
  }
});

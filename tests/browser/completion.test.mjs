// Completion in Chromium: after `tp.` and after `x.` (x a tensor from an earlier cell) CodeMirror's
// autocomplete tooltip lists matmul, from the live values in the cell worker; names the cells defined are
// offered too; Esc closes the list before it leaves the editor.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useSiteAndBrowser, openPage, cell, typeInto, waitForState } from './helpers.mjs';

let srv, browser;
useSiteAndBrowser((s, b) => { srv = s; browser = b; });

test('tp. and x. offer matmul; a name from an earlier cell is offered; Esc closes the list first', async () => {
  const context = await browser.newContext();
  const { page, log } = await openPage(context, srv.base);
  try {
    await page.goto(`${srv.base}?chapter=demo&lang=en`);
    await page.locator('[data-testid=kernel-status]').filter({ hasText: 'Ready' }).waitFor({ timeout: 60000 });
    await typeInto(page, 'c1', 'const xTensor = tp.tensor([[1, 2], [3, 4]]);');
    await page.keyboard.press('Control+Enter');
    await waitForState(page, 'c1', ['done']);
    const list = page.locator('.cm-tooltip-autocomplete');
    const options = () => list.locator('.cm-completionLabel').allTextContents();
    for (const typed of ['tp.', 'xTensor.']) {
      await typeInto(page, 'c2', '');
      await page.keyboard.type(typed, { delay: 30 });
      await list.waitFor({ timeout: 5000 });
      await page.keyboard.type('mat', { delay: 30 });
      await page.waitForFunction(() => [...document.querySelectorAll('.cm-tooltip-autocomplete .cm-completionLabel')].some((l) => l.textContent === 'matmul'), null, { timeout: 5000 });
      assert.ok((await options()).includes('matmul'), `${typed}: ${await options()}`);
      await page.keyboard.press('Escape');
      await list.waitFor({ state: 'detached' });
      assert.ok(await cell(page, 'c2').evaluate((el) => el.querySelector('.cm-content').contains(document.activeElement)), 'the first Esc only closes the list');
    }
    // The selected offer's signature, doc and example, from the API description.
    await typeInto(page, 'c2', '');
    await page.keyboard.type('xTensor.matm', { delay: 30 });
    const info = page.locator('.cm-completionInfo [data-testid=api-doc]');
    await info.waitFor({ timeout: 5000 });
    assert.match(await info.textContent(), /^matmul\(other: TensorLike\): Tensor/);
    await page.keyboard.press('Escape');
    // An options object's keys.
    await typeInto(page, 'c2', '');
    await page.keyboard.type('xTensor.sum(0, { kee', { delay: 30 });
    await page.waitForFunction(() => [...document.querySelectorAll('.cm-tooltip-autocomplete .cm-completionLabel')].some((l) => l.textContent === 'keepdim'), null, { timeout: 5000 });
    await page.keyboard.press('Escape');
    // Hovering a documented name.
    await typeInto(page, 'c2', 'tp.linalg.svd(xTensor)');
    await page.keyboard.press('Escape');
    // The mouse over the letters "svd" (a range over the editor's text node).
    const at = await cell(page, 'c2').locator('.cm-line').first().evaluate((line) => {
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const i = n.textContent.indexOf('svd');
        if (i < 0) continue;
        const r = document.createRange();
        r.setStart(n, i + 1);
        r.setEnd(n, i + 2);
        const b = r.getBoundingClientRect();
        return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
      }
      return null;
    });
    await page.mouse.move(at.x, at.y);
    const hover = page.locator('.cm-tooltip-hover [data-testid=api-doc]');
    await hover.waitFor({ timeout: 5000 });
    assert.match(await hover.textContent(), /^svd\(/);
    await typeInto(page, 'c2', '');
    await page.keyboard.type('xTe', { delay: 30 });
    await list.waitFor({ timeout: 5000 });
    assert.ok((await options()).includes('xTensor'));
    // CodeMirror ignores keys for its interactionDelay (75 ms) after a list opens, so an Enter sent at once
    // (as a loaded machine can) would start a new line instead of taking the option.
    await page.waitForTimeout(150);
    await page.keyboard.press('Enter');
    assert.equal(await cell(page, 'c2').locator('.cm-content').textContent(), 'xTensor');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

test('(zh) on the Chinese page, tp. offers matmul and a name written in Chinese is offered and completed', async () => {
  const context = await browser.newContext();
  const { page, log } = await openPage(context, srv.base);
  try {
    await page.goto(`${srv.base}?chapter=demo&lang=zh`);
    await page.locator('[data-testid=kernel-status]').filter({ hasText: '就绪' }).waitFor({ timeout: 60000 });
    await typeInto(page, 'c1', 'const 矩阵甲 = tp.tensor([[1, 2], [3, 4]]);');
    await page.keyboard.press('Control+Enter');
    await waitForState(page, 'c1', ['done', 'error']);
    assert.equal(await cell(page, 'c1').getAttribute('data-state'), 'done', await cell(page, 'c1').locator('[data-testid=cell-output]').textContent());
    const list = page.locator('.cm-tooltip-autocomplete');
    const options = () => list.locator('.cm-completionLabel').allTextContents();
    for (const typed of ['tp.', '矩阵甲.']) {
      await typeInto(page, 'c2', '');
      await page.keyboard.type(typed, { delay: 30 });
      await list.waitFor({ timeout: 5000 });
      await page.keyboard.type('mat', { delay: 30 });
      await page.waitForFunction(() => [...document.querySelectorAll('.cm-tooltip-autocomplete .cm-completionLabel')].some((l) => l.textContent === 'matmul'), null, { timeout: 5000 });
      assert.ok((await options()).includes('matmul'), `${typed}: ${await options()}`);
      await page.keyboard.press('Escape');
      await list.waitFor({ state: 'detached' });
    }
    await typeInto(page, 'c2', '');
    await page.keyboard.insertText('矩阵');
    await page.keyboard.press('Control+Space');
    await list.waitFor({ timeout: 5000 });
    assert.ok((await options()).includes('矩阵甲'), `${await options()}`);
    await page.waitForTimeout(150);
    await page.keyboard.press('Enter');
    assert.equal(await cell(page, 'c2').locator('.cm-content').textContent(), '矩阵甲');
    assert.deepEqual(log.errors, []);
  } finally {
    await context.close();
  }
});

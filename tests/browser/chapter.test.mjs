// The flagship chapter "linear-algebra" in Chromium, in both languages: Run all finishes with every cell
// done, no cell error and no console error, and the worked-example cells print the numbers of the source
// documents (u·h = 9/√3, q·k = 6 and −1, the 0.1/0.7/0.2 mix, AB by outer products, σ = 3√2 and √2, LoRA
// counts, the random 3072×1024 energies, ...). Prints the time Run all takes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { dist, startServer, launch, openPage, waitIdle } from './helpers.mjs';

const CHAPTER = 'linear-algebra';
const WIDGETS = ['grid2x2', 'rank-image', 'sv-decay', 'attention-flow', 'dot-projection', 'energy-curve', 'lora-paths', 'rotation-quant'];
const EXERCISES = ['causal-attention', 'low-rank-approx', 'energy-curve', 'lora-params', 'rotation-error'];
let srv, browser;

before(async () => {
  if (!fs.existsSync(path.join(dist, 'chapters', CHAPTER, 'en.json'))) {
    const { build } = await import('../../web/build.mjs');
    await build({ quiet: true });
  }
  srv = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await srv?.close();
});

// ---- reading numbers out of printed lines ----------------------------------------------------------

/** The rest of the line after `label` in `text`; fails naming the label when it is missing. */
function restOfLine(text, label) {
  const at = text.indexOf(label);
  assert.ok(at >= 0, `expected the output to contain ${JSON.stringify(label)}; got:\n${text}`);
  return text.slice(at + label.length).split('\n')[0].trim();
}
/** The first number, or the first bracketed (nested) array, after `label`. */
function value(text, label) {
  const rest = restOfLine(text, label);
  if (rest.startsWith('[')) {
    let depth = 0, end = 0;
    for (; end < rest.length; end++) {
      if (rest[end] === '[') depth++;
      if (rest[end] === ']' && --depth === 0) break;
    }
    return JSON.parse(rest.slice(0, end + 1));
  }
  const m = /^-?\d+(\.\d+)?(e[-+]?\d+)?/i.exec(rest);
  assert.ok(m, `expected a number after ${JSON.stringify(label)}, got ${JSON.stringify(rest)}`);
  return Number(m[0]);
}
function close(actual, expected, tol, what) {
  const a = [actual].flat(Infinity), e = [expected].flat(Infinity);
  assert.equal(a.length, e.length, `${what}: ${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`);
  a.forEach((x, i) => assert.ok(Math.abs(x - e[i]) <= tol, `${what}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)} (±${tol})`));
}

// Each worked example: the cell that prints it, and what its output must say.
const CHECKS = {
  'dot-read': (t) => {
    close(value(t, 'u1·h ='), 3, 1e-4, 'u1·h');
    close(value(t, 'u2·h ='), 9 / Math.sqrt(3), 1e-3, 'u2·h = 9/√3');
  },
  'dot-match': (t) => {
    close(value(t, 'q·k1 ='), 6, 1e-4, 'q·k1');
    close(value(t, 'q·k2 ='), -1, 1e-4, 'q·k2');
  },
  norms: (t) => {
    close(value(t, '‖x‖₁ ='), 7, 1e-4, 'L1 norm of (3, 4)');
    close(value(t, '‖x‖₂ ='), 5, 1e-4, 'L2 norm of (3, 4)');
    close(value(t, '‖x‖∞ ='), 4, 1e-4, 'L∞ norm of (3, 4)');
  },
  'linear-row': (t) => close(value(t, 'hᵀW ='), [3, 4, 7], 1e-4, 'hᵀW'),
  'three-views': (t) => assert.match(t, /three views agree: true true true/),
  'split-work': (t) => assert.match(t, /rows: true\s+columns: true\s+split-K: true/),
  'attn-scores': (t) => {
    close(value(t, 'row sums:'), [1, 1, 1, 1], 1e-4, 'softmax rows sum to 1');
    assert.match(t, /matches tp\.nn\.scaledDotProductAttention: true/);
  },
  'attn-mix': (t) => close(value(t, '0.2·v3 ='), [0.5, 1.9, 0.9], 1e-4, 'the 0.1/0.7/0.2 mix'),
  bilinear: (t) => assert.match(t, /QKᵀ == H B Hᵀ: true[\s\S]*rank 2 \(≤ d_k = 2\)/),
  'mha-wo': (t) => assert.doesNotMatch(t, /false/),
  'ab-outer': (t) => {
    close(value(t, 'a1 b1ᵀ ='), [[5, 6], [15, 18]], 1e-4, 'first outer product');
    close(value(t, 'a2 b2ᵀ ='), [[14, 16], [28, 32]], 1e-4, 'second outer product');
    close(value(t, 'sum of outer products ='), [[19, 22], [43, 50]], 1e-4, 'AB as a sum of outer products');
  },
  'svd-2x2': (t) => {
    close(value(t, 'σ ='), [3 * Math.SQRT2, Math.SQRT2], 1e-3, 'singular values of [[3,3],[1,-1]]');
    close(value(t, 'channel 1 + channel 2 ='), [[3, 3], [1, -1]], 1e-3, 'the channels add up to A');
  },
  'svd-channels-x': (t) => close(value(t, 'sum ='), [9, 1], 1e-3, 'A (2, 1) through both channels'),
  truncate: (t) => close(value(t, 'A1 x ='), [9, 0], 1e-3, '(9, 1) → (9, 0) after truncation'),
  'energy-random': (t) => {
    close(value(t, 'rank  32: random'), 7.2, 0.15, 'random 3072×1024 energy at k = 32 (%)');
    close(value(t, 'rank 128: random'), 25.7, 0.15, 'random 3072×1024 energy at k = 128 (%)');
    close(value(t, 'rank 512: random'), 73.9, 0.15, 'random 3072×1024 energy at k = 512 (%)');
  },
  'lora-count': (t) => {
    assert.equal(value(t, 'LoRA'), 65536);
    assert.match(t, /131072 parameters \(0\.78%\)/);
    assert.match(t, /294912 parameters \(0\.50%\)/);
  },
  'lora-merge': (t) => assert.match(t, /== \(W \+ \(α\/r\) BA\) x: true/),
  rope: (t) => {
    assert.match(t, /R_3 orthogonal \(R_3 R_3ᵀ == I\): true/);
    assert.match(t, /R_3ᵀ R_7 == R_4: true/);
  },
  'rotate-quant': (t) => assert.doesNotMatch(t, /false/),
  'scale-dot': (t) => {
    close(value(t, 'w·h ='), 4, 1e-4, 'w·h');
    close(value(t, 'w·c ='), 8, 1e-4, 'w·c');
  },
  layernorm: (t) => close(value(t, 'γ ⊙ ĥ + β ='), [2.1, -0.5, -0.2], 1e-4, 'γ ⊙ ĥ + β'),
  rmsnorm: (t) => {
    close(value(t, 'RMS(h) ='), 5 / Math.sqrt(3), 1e-3, 'RMS of (3, 4, 0)');
    close(value(t, 'RMSNorm(h) ='), [3 * Math.sqrt(3) / 5, 4 * Math.sqrt(3) / 5, 0], 1e-3, 'RMSNorm of (3, 4, 0)');
    close(value(t, 'RMSNorm(10h) ='), [3 * Math.sqrt(3) / 5, 4 * Math.sqrt(3) / 5, 0], 1e-3, 'RMSNorm of 10·(3, 4, 0)');
  },
  spectral: (t) => close(value(t, '‖W‖₂ ='), 4, 1e-4, 'spectral norm of diag(4, 1, 0.25)'),
  collapse: (t) => assert.match(t, /AB == BA for two random 3×3:\s+false/),
  'solve-vs-inv': (t) => {
    assert.match(t, /A A⁻¹ == I: true/);
    // The table: solve's residual is smaller than inv's (backward stable against not).
    const [solveRes, invRes] = [...t.matchAll(/(?:solve\(A, b\)|inv\(A\) @ b)\s+\S+\s+(\S+)/g)].map((m) => Number(m[1]));
    assert.ok(solveRes < invRes, `residual of solve (${solveRes}) < residual of inv (${invRes})`);
  },
  'kv-cache-query': (t) => assert.match(t, /last row of the full QKᵀ: true/),
  'shared-qk': (t) => {
    const [alice, self, back] = [value(t, 'she→Alice'), value(t, 'she→she'), value(t, 'Alice→she')];
    assert.ok(alice > self, `with a shared W, she→Alice (${alice}) can beat she→she (${self})`);
    close(back, alice, 1e-3, 'a shared W makes the score symmetric');
  },
  'wo-two-heads': (t) => {
    close(value(t, 'head 1 writes'), [[1, 2, 2, 2]], 1e-4, "head 1's part");
    close(value(t, 'head 2 writes'), [[-1, 5, 3, -3]], 1e-4, "head 2's part");
    close(value(t, 'concat @ W_O'), [[0, 7, 5, -1]], 1e-4, 'the fused output');
  },
  rank2: (t) => {
    assert.equal(value(t, 'rank(M) ='), 2);
    assert.equal(value(t, 'rank of a random 3×5 ='), 3);
    assert.equal(value(t, 'rank of (5×2)(2×7) ='), 2);
  },
  'svd-lowrank': (t) => {
    assert.ok(value(t, 'largest relative error in σ1..σ16:') < 1e-3, 'svdLowrank finds the top singular values');
    const [, full, low] = /rank-16 error ‖A − A16‖\/‖A‖: full (\S+)\s+lowrank (\S+)/.exec(t) ?? [];
    close(Number(low), Number(full), 1e-4, 'rank-16 errors of the two SVDs');
  },
  'rotation-cost': (t) => {
    close(value(t, 'ratio'), 0.25, 1e-9, 'online rotation vs q, k, v');
    assert.match(t, /\(Z Vᵀ\) Q == Z \(Qᵀ V\)ᵀ: true/);
    assert.match(t, /RMSNorm\(xQ\) == RMSNorm\(x\) Q: true/);
    assert.match(t, /with γ: RMSNorm_γ\(xQ\) == RMSNorm_γ\(x\) Q: false/);
    assert.match(t, /== RMSNorm_γ\(x\) Wᵀ: true/);
  },
  clip: (t) => close(value(t, 'new norm'), 1, 1e-4, 'clipped global norm'),
};

for (const lang of (process.env.TP_LANGS ?? 'en,zh').split(',')) {
  test(`the ${lang} chapter runs every cell with no error and its worked examples print the source's numbers`, async () => {
    const context = await browser.newContext();
    const { page, log } = await openPage(context, srv.base);
    try {
      await page.goto(`${srv.base}?chapter=${CHAPTER}&lang=${lang}`);
      // A long chapter on a loaded machine: the page may take a while to render, which is not what is tested.
      await page.locator('[data-testid=cell] .cm-editor').first().waitFor({ timeout: 120000 });
      await page.locator('[data-testid=kernel-status]').filter({ hasText: lang === 'en' ? 'Ready' : '就绪' }).waitFor({ timeout: 30000 });
      const t0 = Date.now();
      await page.click('[data-testid=run-all]');
      await waitIdle(page, 120000);
      const seconds = (Date.now() - t0) / 1000;

      // Answers inside :::details render only when open: open them all to read their cells' output.
      await page.$$eval('main details', (ds) => ds.forEach((d) => { d.open = true; }));
      const cells = await page.$$eval('[data-testid=cell]', (els) => els.map((el) => ({
        id: el.dataset.cellId,
        state: el.dataset.state,
        error: el.querySelector('[data-testid=cell-error]')?.textContent ?? null,
        text: el.querySelector('[data-testid=cell-output]')?.innerText ?? '',
      })));
      console.log(`  ${lang}: ${cells.length} cells, Run all took ${seconds.toFixed(1)} s`);
      const failed = cells.filter((c) => c.state !== 'done' || c.error);
      assert.deepEqual(failed.map((c) => `${c.id}: ${c.state} ${c.error ?? ''}`), [], 'every cell runs without error');

      const byId = new Map(cells.map((c) => [c.id, c.text]));
      for (const [id, check] of Object.entries(CHECKS)) {
        assert.ok(byId.has(id), `the chapter has a cell "${id}"`);
        check(byId.get(id));
      }
      // The seven widgets and the exercises are on the page, and no widget reports an error.
      const widgets = await page.$$eval('[data-testid=widget]', (els) => els.map((el) => el.dataset.widget));
      for (const w of WIDGETS) assert.ok(widgets.includes(w), `widget ${w} is on the page (found ${widgets})`);
      await page.waitForFunction(() => ![...document.querySelectorAll('[data-testid=widget]')].some((w) => w.matches('[data-state=busy]') || w.querySelector('[data-state=busy]')),
        null, { timeout: 30000 }).catch(() => {});
      const widgetErrors = await page.$$eval('.widget-error', (els) => els.filter((e) => !e.hidden).map((e) => e.textContent));
      assert.deepEqual(widgetErrors, [], 'no widget shows an error');
      const exercises = await page.$$eval('[data-testid=exercise]', (els) => els.map((el) => el.dataset.exerciseId));
      for (const e of EXERCISES) assert.ok(exercises.includes(e), `exercise ${e} is on the page`);
      assert.deepEqual(log.errors, [], 'no console error');
      assert.deepEqual(log.foreign, [], 'no request leaves the origin');
      assert.ok(seconds < 60, `Run all took ${seconds.toFixed(1)} s (must be well under a minute)`);
    } finally {
      await context.close();
    }
  });
}

// Every :::details (the self-test, the source's two questions) starts closed: its summary is visible, its
// answer is not, until the reader opens it (mouse on the summary, or the keyboard: Enter on the focused
// summary, the native <details> behaviour); the question itself stays outside.
for (const lang of (process.env.TP_LANGS ?? 'en,zh').split(',')) {
  test(`the ${lang} chapter's questions keep their answers hidden until opened`, async () => {
    const context = await browser.newContext();
    const { page } = await openPage(context, srv.base);
    try {
      await page.goto(`${srv.base}?chapter=${CHAPTER}&lang=${lang}`);
      await page.locator('[data-testid=cell] .cm-editor').first().waitFor({ timeout: 120000 });
      // The page settles first (the engine ready): what is checked is the reader's view, not a half-built page.
      await page.locator('[data-testid=kernel-status]').filter({ hasText: lang === 'en' ? 'Ready' : '就绪' }).waitFor({ timeout: 120000 });
      const details = page.locator('main details.details');
      const n = await details.count();
      assert.ok(n >= 3, `the self-test and the source's two questions are :::details blocks (found ${n})`);
      for (let i = 0; i < n; i++) {
        const d = details.nth(i);
        const summary = d.locator(':scope > summary');
        const answer = d.locator(':scope > :not(summary)').first();
        assert.equal(await d.evaluate((el) => el.open), false, `details ${i + 1} starts closed`);
        await summary.scrollIntoViewIfNeeded();
        assert.ok(await summary.isVisible(), `details ${i + 1}: its summary is visible`);
        assert.ok((await summary.innerText()).trim().length > 0, `details ${i + 1}: its summary has text`);
        assert.ok(await answer.isHidden(), `details ${i + 1}: its answer is hidden before opening`);
        if (i % 2) {
          await summary.focus();
          await page.keyboard.press('Enter');
        } else await summary.click();
        assert.equal(await d.evaluate((el) => el.open), true, `details ${i + 1} opens`);
        assert.ok(await answer.isVisible(), `details ${i + 1}: its answer shows once opened`);
      }
    } finally {
      await context.close();
    }
  });
}

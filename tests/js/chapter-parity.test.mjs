// The chapter "linear-algebra" in Chinese and English: both parse without an author error, and they
// have the same cells (same ids, same code up to comments and strings) in the same order, the same widgets and the
// same exercises at the same places, so a reader switching language lands on the same cell.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { tokenizer } from 'acorn';
import { loadChapters } from '../../web/build.mjs';

const ID = 'linear-algebra';
const WIDGETS = ['grid2x2', 'rank-image', 'sv-decay', 'attention-flow', 'dot-projection', 'energy-curve', 'lora-paths', 'rotation-quant'];

const { chapters, errors } = loadChapters();
const chapter = (lang) => chapters.find((c) => c.id === ID && c.lang === lang);

/** Blocks in reading order, details opened up. */
function flat(blocks, out = []) {
  for (const b of blocks) {
    out.push(b);
    if (b.type === 'details') flat(b.children, out);
  }
  return out;
}
const cells = (lang) => flat(chapter(lang).blocks).filter((b) => b.type === 'cell');
/** A cell's code as tokens. Comments are dropped and strings kept by kind only: both are translated (what a
 *  cell prints, its table headers and plot labels are in the reader's language); the code may not differ. */
function tokens(source) {
  const out = [];
  for (const t of tokenizer(source, { ecmaVersion: 'latest', sourceType: 'module', allowAwaitOutsideFunction: true })) {
    const text = t.type.label === 'string' || t.type.label === 'template';
    out.push(`${t.type.label}:${text ? '' : t.value ?? ''}`);
  }
  return out;
}

test('both languages of the chapter parse without author errors', () => {
  const own = errors.filter((e) => e.file.includes(`chapters/${ID}/`));
  assert.deepEqual(own, []);
  for (const lang of ['en', 'zh']) {
    assert.ok(chapter(lang), `web/chapters/${ID}/${lang}.md exists`);
    assert.ok(chapter(lang).title, `${lang} has a title`);
  }
  assert.equal(chapter('en').order, chapter('zh').order);
});

test('both languages have the same cells in the same order, with the same code up to comments and strings', () => {
  const en = cells('en'), zh = cells('zh');
  assert.deepEqual(zh.map((c) => c.id), en.map((c) => c.id), 'cell ids and order');
  assert.ok(en.length >= 40, `the chapter has a cell for every section (${en.length} cells)`);
  en.forEach((c, i) => assert.deepEqual(tokens(zh[i].source), tokens(c.source), `cell "${c.id}" differs between en and zh beyond comments and strings`));
});

test('both languages place the same widgets and exercises in the same order, and all eight widgets appear', () => {
  const places = (lang) => flat(chapter(lang).blocks)
    .filter((b) => b.type === 'widget' || b.type === 'exercise' || b.type === 'cell')
    .map((b) => (b.type === 'cell' ? `cell:${b.id}` : `${b.type}:${b.type === 'widget' ? b.name : b.id}`));
  assert.deepEqual(places('zh'), places('en'));
  const widgets = flat(chapter('en').blocks).filter((b) => b.type === 'widget').map((b) => b.name);
  for (const w of WIDGETS) assert.ok(widgets.includes(w), `widget ${w} is placed`);
  const exercises = flat(chapter('en').blocks).filter((b) => b.type === 'exercise').map((b) => b.id);
  for (const e of ['lora-params', 'low-rank-approx', 'energy-curve', 'rotation-error', 'causal-attention']) {
    assert.ok(exercises.includes(e), `exercise ${e} is placed`);
  }
});

test('the chapter opens with the self-test (answers collapsed) and every cell is valid JavaScript', () => {
  for (const lang of ['en', 'zh']) {
    const first = chapter(lang).blocks.findIndex((b) => b.type === 'details');
    const firstCell = chapter(lang).blocks.findIndex((b) => b.type === 'cell');
    assert.ok(first >= 0 && first < firstCell, `${lang}: the self-test answers come before the first cell`);
    for (const c of cells(lang)) assert.doesNotThrow(() => tokens(c.source), `${lang} cell ${c.id} tokenizes`);
  }
});

test('Chinese prose has no line break between two Chinese characters (it would render as a stray space)', () => {
  const text = fs.readFileSync(new URL(`../../web/chapters/${ID}/zh.md`, import.meta.url), 'utf8');
  const prose = text.replace(/^```[\s\S]*?^```$/gm, '');
  const cjk = '[\\u3000-\\u303f\\u3400-\\u9fff\\uff00-\\uffef]';
  const breaks = prose.match(new RegExp(`${cjk}\\*{0,2}\\n[ \\t]*\\*{0,2}${cjk}`, 'g')) ?? [];
  assert.deepEqual(breaks, []);
});

test("the source page's two questions are posed with their answers (and the cells that check them) inside :::details", () => {
  for (const lang of ['en', 'zh']) {
    const details = flat(chapter(lang).blocks).filter((b) => b.type === 'details');
    const holding = (cellId) => details.find((d) => d.children.some((c) => c.type === 'cell' && c.id === cellId));
    for (const id of ['lora-count', 'rotation-cost']) assert.ok(holding(id), `${lang}: cell ${id} is inside a :::details answer`);
    // The question itself is outside, just before the answer: the paragraph the details follows.
    for (const id of ['lora-count', 'rotation-cost']) {
      const blocks = chapter(lang).blocks, at = blocks.indexOf(holding(id));
      assert.ok(at > 0 && blocks[at - 1].type === 'md' && /[?？]/.test(blocks[at - 1].html.replace(/<[^>]*>/g, '')),
        `${lang}: a question precedes the answer holding ${id}`);
    }
  }
});

test('the SVD image widget keeps 1 to 24 singular values, the range of the source', () => {
  for (const lang of ['en', 'zh']) {
    const w = flat(chapter(lang).blocks).find((b) => b.type === 'widget' && b.name === 'rank-image');
    assert.equal(w.props.max, '24');
  }
});

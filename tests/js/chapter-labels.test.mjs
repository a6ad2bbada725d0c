// The labels tests/browser/chapter.test.mjs reads the chapter's numbers after are printed by those cells in
// that language: each is text of the cell's source in web/chapters/linear-algebra/<lang>.md, and both
// languages label the same values. A chapter edit that renames a printed label fails here, without Chromium.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadChapters } from '../../web/build.mjs';
import { LABELS, labels } from '../browser/chapter-labels.mjs';

const ID = 'linear-algebra';
const { chapters } = loadChapters();

/** Cell id → source, details opened up. */
function cellSources(lang) {
  const chapter = chapters.find((c) => c.id === ID && c.lang === lang);
  assert.ok(chapter, `web/chapters/${ID}/${lang}.md exists`);
  const out = new Map();
  const walk = (blocks) => {
    for (const b of blocks) {
      if (b.type === 'cell') out.set(b.id, b.source);
      if (b.type === 'details') walk(b.children);
    }
  };
  walk(chapter.blocks);
  return out;
}

test('the label tables of English and Chinese name the same values of the same cells', () => {
  assert.deepEqual(Object.keys(LABELS).sort(), ['en', 'zh']);
  assert.deepEqual(Object.keys(LABELS.zh), Object.keys(LABELS.en), 'the same cells');
  for (const [id, en] of Object.entries(LABELS.en)) assert.deepEqual(Object.keys(LABELS.zh[id]), Object.keys(en), `cell "${id}": the same label names`);
});

test('every label the browser chapter test reads is printed by that cell in that language', () => {
  for (const lang of Object.keys(LABELS)) {
    const sources = cellSources(lang);
    for (const [id, table] of Object.entries(LABELS[lang])) {
      assert.ok(sources.has(id), `${lang}: the chapter has a cell "${id}"`);
      for (const [name, label] of Object.entries(table)) {
        assert.ok(typeof label === 'string' && label.trim().length > 0, `${lang} ${id}.${name} is a non-empty string`);
        assert.ok(sources.get(id).includes(label), `${lang}: cell "${id}" prints ${JSON.stringify(label)} (${name})`);
      }
    }
  }
});

test('reading a label the table lacks throws naming the cell and the name', () => {
  assert.equal(labels('zh', 'three-views').agree, '三种视角一致：');
  assert.throws(() => labels('zh', 'three-views').agreed, /cell "three-views" has no label "agreed" in zh/);
  assert.throws(() => labels('fr', 'three-views'), /no labels for language "fr"/);
});

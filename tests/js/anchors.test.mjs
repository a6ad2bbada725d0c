// web/src/anchors.js: a reader's cell stays next to the author block it was added after, through an
// author's update that adds, removes, moves or repeats blocks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockKey, anchorOf, resolveAnchor, anchorsFor } from '../../web/src/anchors.js';

const keys = ['md:a', 'cell:c1', 'md:b', 'cell:c2', 'exercise:e1'];

test('an anchor resolves to its block, wherever the author moved it', () => {
  assert.equal(resolveAnchor(anchorOf('cell:c2', 3), keys), 3);
  assert.equal(resolveAnchor(anchorOf('cell:c2', 3), ['md:new', ...keys]), 4, 'a block added above');
  assert.equal(resolveAnchor(anchorOf('cell:c2', 3), ['cell:c2', ...keys.filter((k) => k !== 'cell:c2')]), 0, 'the block moved to the top');
  assert.equal(resolveAnchor('top', keys), -1);
});

test('a block the author removed or rewrote leaves its cell at the same place, within the chapter', () => {
  assert.equal(resolveAnchor(anchorOf('md:gone', 2), keys), 2);
  assert.equal(resolveAnchor(anchorOf('md:gone', 40), keys), keys.length - 1, 'past the end: the last block');
  assert.equal(resolveAnchor(anchorOf('md:gone', 2), []), -1, 'an empty chapter: the top');
});

test('a paragraph that appears twice is the copy nearest the anchor\'s place', () => {
  const twice = ['md:same', 'cell:c1', 'md:same', 'cell:c2'];
  assert.equal(resolveAnchor(anchorOf('md:same', 2), twice), 2);
  assert.equal(resolveAnchor(anchorOf('md:same', 0), twice), 0);
});

test('anchors of reader cells in page order: the nearest author block above each', () => {
  const r1 = { reader: 'r1' }, r2 = { reader: 'r2' }, r3 = { reader: 'r3' };
  const got = anchorsFor([r1, { key: 'md:a' }, { key: 'cell:c1' }, r2, r3, { key: 'md:b' }]);
  assert.deepEqual(got.map((x) => [x.item.reader, x.anchor]), [['r1', 'top'], ['r2', 'cell:c1@1'], ['r3', 'cell:c1@1']]);
});

test('block keys name cells and exercises by id, text by its content', () => {
  assert.equal(blockKey({ type: 'cell', id: 'c3', source: 'x' }), 'cell:c3');
  assert.equal(blockKey({ type: 'exercise', id: 'dot' }), 'exercise:dot');
  assert.equal(blockKey({ type: 'md', md: 'hello' }), blockKey({ type: 'md', md: 'hello' }));
  assert.notEqual(blockKey({ type: 'md', md: 'hello' }), blockKey({ type: 'md', md: 'hello!' }));
});

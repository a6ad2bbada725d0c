// web/src/storage.js keeps a reader's saved work safe whatever is in localStorage: it validates what it
// reads, keeps what it cannot read aside (or stops saving until the reader has it), never writes over a
// newer build's entry, and tells a tab what another tab changed. With a fake localStorage in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';

const KEY = 'tensorpad:v1:chapter:demo';
const ASIDE = `${KEY}:unreadable`;

// A localStorage of `quota` characters (keys and values), and the window's 'storage' listeners.
function fakeWindow({ quota = Infinity } = {}) {
  const m = new Map();
  const used = () => [...m].reduce((n, [k, v]) => n + k.length + v.length, 0);
  const listeners = [];
  const ls = {
    getItem: (k) => (m.has(k) ? m.get(k) : null),
    setItem: (k, v) => {
      const before = m.get(k);
      m.set(k, String(v));
      if (used() > quota) {
        if (before === undefined) m.delete(k); else m.set(k, before);
        throw Object.assign(new Error('QuotaExceededError'), { name: 'QuotaExceededError' });
      }
    },
    removeItem: (k) => m.delete(k),
  };
  Object.defineProperty(globalThis, 'localStorage', { value: ls, configurable: true, writable: true });
  Object.defineProperty(globalThis, 'navigator', { value: {}, configurable: true, writable: true });
  globalThis.addEventListener = (type, fn) => type === 'storage' && listeners.push(fn);
  return {
    ls, m,
    // Another tab writes `value` to `key`: the store sees the write and its 'storage' event.
    otherTab(key, value) {
      m.set(key, value);
      for (const fn of listeners) fn({ key, newValue: value });
    },
  };
}

const { ChapterStore, readEntry, FORMAT, passedCount } = await import('../../web/src/storage.js');

function open(win, chapter = 'demo') {
  const notices = [];
  const remote = [];
  const store = new ChapterStore(chapter, (kind, detail) => notices.push({ kind, detail }), { onRemote: (c) => remote.push(c) });
  return { store, notices, remote };
}
const entry = (cells = {}, exercises = {}, v = 1) => JSON.stringify({ v, cells, exercises });

test('a saved cell whose source is a number, boolean, object or array is left out, kept aside, and said so', () => {
  for (const bad of [42, true, { a: 1 }, ['x'], null]) {
    const win = fakeWindow();
    const raw = entry({ en: { c1: { source: bad, base: 'h' }, c2: { source: 'mine', base: 'h' } } });
    win.ls.setItem(KEY, raw);
    const { store, notices } = open(win);
    assert.equal(store.cell('en', 'c1'), null, `source ${JSON.stringify(bad)}`);
    assert.equal(store.cell('en', 'c2').source, 'mine', 'the readable cell of the same entry is kept');
    assert.deepEqual(notices.map((n) => n.kind), ['corrupt']);
    assert.deepEqual(notices[0].detail.dropped, ['cells.en.c1']);
    assert.equal(JSON.parse(win.ls.getItem(ASIDE))[0].raw, raw, 'the whole text is kept aside');
  }
});

test('a string cells[lang], an array cells or exercises: the rest is read, and saving works again', () => {
  for (const [raw, dropped] of [
    [JSON.stringify({ v: 1, cells: { en: 'oops', zh: { c1: { source: '中', base: 'h' } } }, exercises: {} }), ['cells.en']],
    [JSON.stringify({ v: 1, cells: ['a'], exercises: { e: { code: 'x' } } }), ['cells']],
    [JSON.stringify({ v: 1, cells: {}, exercises: 'x' }), ['exercises']],
    [JSON.stringify({ v: 1, cells: {}, exercises: { e: 3, f: { code: 7 } } }), ['exercises.e', 'exercises.f']],
  ]) {
    const win = fakeWindow();
    win.ls.setItem(KEY, raw);
    const { store, notices } = open(win);
    assert.deepEqual(notices.map((n) => [n.kind, n.detail.dropped]), [['corrupt', dropped]], raw);
    store.setCell('en', 'c9', 'new text', 'h');
    assert.equal(store.flush(), true);
    const saved = JSON.parse(win.ls.getItem(KEY));
    assert.equal(saved.cells.en.c9.source, 'new text', raw);
    assert.equal(readEntry(win.ls.getItem(KEY)).status, 'ok', 'what is written reads back whole');
    assert.equal(JSON.parse(win.ls.getItem(ASIDE))[0].raw, raw);
  }
});

test('text that is not an entry at all (not JSON, not an object, no format number) is kept aside before any write', () => {
  for (const raw of ['{not json', '"a string"', '[1,2]', '{"cells":{}}', '{"v":"1"}', 'null']) {
    const win = fakeWindow();
    win.ls.setItem(KEY, raw);
    const { store, notices } = open(win);
    assert.deepEqual(notices.map((n) => n.kind), ['corrupt'], raw);
    store.setExercise('ex', { code: 'x' });
    assert.equal(JSON.parse(win.ls.getItem(KEY)).exercises.ex.code, 'x');
    assert.equal(JSON.parse(win.ls.getItem(ASIDE))[0].raw, raw);
  }
});

test('with storage too full to keep a copy, nothing is written over the unreadable text until the reader takes it or lets it go', () => {
  const raw = '{"v":1,"cells":{"en":{"c1":{"source":"a long recoverable answer' + ' …'.repeat(200) + '"';
  const win = fakeWindow({ quota: KEY.length + raw.length + 10 });
  win.ls.setItem(KEY, raw);
  const { store, notices } = open(win);
  assert.deepEqual(notices.map((n) => n.kind), ['blocked']);
  store.setCell('en', 'c1', 'edit', 'h');
  assert.equal(store.flush(), false);
  store.setExercise('ex', { code: 'y' });
  assert.equal(win.ls.getItem(KEY), raw, 'the unreadable text is still there after two saves');
  assert.equal(store.cell('en', 'c1').source, 'edit', 'the edits stay on the page');
  assert.equal(store.saveUnreadable(), raw, 'the reader downloads the text');
  assert.equal(store.flush(), true);
  const saved = JSON.parse(win.ls.getItem(KEY));
  assert.equal(saved.cells.en.c1.source, 'edit');
  assert.equal(saved.exercises.ex.code, 'y');
});

test('an entry from a newer build is read where it can be and never written over', () => {
  const win = fakeWindow();
  const raw = JSON.stringify({ v: FORMAT + 1, cells: { en: { c1: { source: 'from the future', base: 'h' } } }, exercises: {}, readerCells: { en: [{ id: 'r1' }] } });
  win.ls.setItem(KEY, raw);
  const { store, notices } = open(win);
  assert.deepEqual(notices.map((n) => n.kind), ['newer']);
  assert.equal(store.cell('en', 'c1').source, 'from the future');
  store.setCell('en', 'c1', 'older page edit', 'h');
  store.setExercise('ex', { code: 'x' });
  store.clearChapter();
  assert.equal(store.flush(), false);
  assert.equal(win.ls.getItem(KEY), raw);
});

test('a newer build writing while this page is open stops this page from saving over it', () => {
  const win = fakeWindow();
  const { store, notices } = open(win);
  store.setCell('en', 'c1', 'mine', 'h');
  assert.equal(store.flush(), true);
  const newer = JSON.stringify({ v: FORMAT + 1, cells: {}, exercises: {} });
  win.m.set(KEY, newer); // written without this tab hearing of it (e.g. in a closed tab)
  store.setCell('en', 'c2', 'more', 'h');
  assert.equal(store.flush(), false);
  assert.equal(win.ls.getItem(KEY), newer);
  assert.deepEqual(notices.map((n) => n.kind), [], 'a save that finds a newer entry is quiet; the storage event says it');
  win.otherTab(KEY, newer);
  assert.deepEqual(notices.map((n) => n.kind), ['newer']);
});

test('fields a build does not know (of the same format) survive its writes', () => {
  const win = fakeWindow();
  win.ls.setItem(KEY, JSON.stringify({ v: 1, cells: {}, exercises: {}, extra: { keep: true } }));
  const { store } = open(win);
  store.setCell('en', 'c1', 'x', 'h');
  store.flush();
  assert.deepEqual(JSON.parse(win.ls.getItem(KEY)).extra, { keep: true });
});

test('another tab\'s edit of a cell is reported with its text; one this tab is also editing is a conflict', () => {
  const win = fakeWindow();
  const { store, remote } = open(win);
  store.setCell('en', 'c1', 'tab A, saved', 'h');
  store.flush();
  store.setCell('en', 'c2', 'tab A, not yet saved', 'h');
  win.otherTab(KEY, entry({ en: { c1: { source: 'tab B', base: 'h' }, c2: { source: 'tab B too', base: 'h' } } }));
  assert.deepEqual(remote.at(-1).cells.map(({ id, value, conflict }) => [id, value.source, conflict]),
    [['c1', 'tab B', false], ['c2', 'tab B too', true]]);
  assert.equal(store.cell('en', 'c1').source, 'tab B');
  assert.equal(store.cell('en', 'c2').source, 'tab A, not yet saved', 'this tab\'s unwritten edit stays on top');
  store.flush();
  assert.equal(JSON.parse(win.ls.getItem(KEY)).cells.en.c1.source, 'tab B', 'this tab does not write back its stale copy');
  // A reset in the other tab: every cell goes back to the author's.
  win.otherTab(KEY, null);
  assert.deepEqual(remote.at(-1).cells.map(({ id, value }) => [id, value]), [['c1', null], ['c2', null]]);
});

test('another tab\'s exercise results are reported, and the chapter list counts a pass once passed', () => {
  const win = fakeWindow();
  const { remote } = open(win);
  win.otherTab(KEY, entry({}, { ex1: { code: 'x', verdict: 'fail', best: 'pass' }, ex2: { verdict: 'pass' }, ex3: { verdict: 'fail' } }));
  assert.deepEqual(remote.at(-1).exercises, ['ex1', 'ex2', 'ex3']);
  assert.equal(passedCount('demo', ['ex1', 'ex2', 'ex3', 'ex4']), 2);
  win.m.set(KEY, '{broken');
  assert.equal(passedCount('demo', ['ex1']), 0, 'an unreadable entry counts nothing and does not throw');
});

test('readEntry never throws, whatever the text', () => {
  const samples = ['', ' ', '0', '-1', 'true', '{}', '{"v":1}', '{"v":1,"cells":null}', '{"v":1,"cells":{"en":null}}',
    '{"v":1,"cells":{"en":{"c":{"source":"x","base":5}}}}', '{"v":1.5}', '{"v":1,"exercises":{"e":[]}}', '\u0000'];
  for (const raw of samples) {
    const r = readEntry(raw);
    assert.ok(['ok', 'partial', 'unreadable', 'newer', 'empty'].includes(r.status), raw);
    assert.equal(typeof r.data.cells, 'object');
  }
  assert.equal(readEntry('{"v":1}').status, 'ok', 'an entry without cells or exercises is an empty one');
});

test('a cell\'s last outputs are kept per language and read back; a malformed list is left out', () => {
  const win = fakeWindow();
  const { store } = open(win);
  store.setOutputs('en', 'c1', [{ kind: 'text', text: '2' }]);
  store.setOutputs('zh', 'c1', [{ kind: 'stream', name: 'stdout', text: '二\n' }]);
  store.flush();
  const again = open(win).store;
  assert.deepEqual(again.outputs('en'), { c1: [{ kind: 'text', text: '2' }] });
  assert.equal(again.outputs('zh').c1[0].text, '二\n');
  again.setOutputs('en', 'c1', undefined);
  again.flush();
  assert.deepEqual(open(win).store.outputs('en'), {});
  const r = readEntry(JSON.stringify({ v: 1, cells: {}, exercises: {}, outputs: { en: { c1: 'x', c2: [{ kind: 'text', text: 'ok' }], c3: [5] } } }));
  assert.deepEqual(r.dropped, ['outputs.en.c1', 'outputs.en.c3']);
  assert.deepEqual(Object.keys(r.data.outputs.en), ['c2']);
});

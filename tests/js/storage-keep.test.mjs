// web/src/storage.js asks the browser to keep the origin's storage once the reader has saved work,
// and only then: with a fake localStorage and a fake navigator.storage in Node.
import { test } from 'node:test';
import assert from 'node:assert/strict';

function fakeLocalStorage() {
  const m = new Map();
  return { getItem: (k) => (m.has(k) ? m.get(k) : null), setItem: (k, v) => m.set(k, String(v)), removeItem: (k) => m.delete(k) };
}

// A fresh copy of the module for each case (its "asked once" flag is per page load).
let copies = 0;
async function page({ persisted = false, storageApi = true, persistThrows = false } = {}) {
  const calls = { persisted: 0, persist: 0 };
  const storage = storageApi ? {
    persisted: async () => (calls.persisted++, persisted),
    persist: async () => { calls.persist++; if (persistThrows) throw new Error('refused'); return true; },
  } : undefined;
  Object.defineProperty(globalThis, 'navigator', { value: { storage }, configurable: true, writable: true });
  Object.defineProperty(globalThis, 'localStorage', { value: fakeLocalStorage(), configurable: true, writable: true });
  const { ChapterStore } = await import(`../../web/src/storage.js?copy=${++copies}`);
  return { ChapterStore, calls };
}
const settle = () => new Promise((r) => setTimeout(r, 0));

test('the first save asks the browser to keep the storage, and later saves do not ask again', async () => {
  const { ChapterStore, calls } = await page();
  const store = new ChapterStore('demo');
  await settle();
  assert.deepEqual(calls, { persisted: 0, persist: 0 }, 'opening a chapter asks nothing');
  store.setExercise('ex', { code: 'x', verdict: 'fail' });
  await settle();
  assert.deepEqual(calls, { persisted: 1, persist: 1 });
  store.setCell('en', 'c1', '1 + 1', 'abcd1234');
  store.flush();
  new ChapterStore('other').setExercise('ex', { code: 'y' });
  await settle();
  assert.deepEqual(calls, { persisted: 1, persist: 1 });
});

test('storage already kept is not asked for again', async () => {
  const { ChapterStore, calls } = await page({ persisted: true });
  new ChapterStore('demo').setExercise('ex', { code: 'x' });
  await settle();
  assert.deepEqual(calls, { persisted: 1, persist: 0 });
});

test('a refusal, or a browser without the Storage API, leaves saving as it was', async () => {
  for (const options of [{ persistThrows: true }, { storageApi: false }]) {
    const { ChapterStore } = await page(options);
    const store = new ChapterStore('demo');
    store.setExercise('ex', { code: 'x' });
    await settle();
    assert.equal(store.flush(), true);
    assert.deepEqual(new ChapterStore('demo').exercise('ex'), { code: 'x' }, JSON.stringify(options));
  }
});

// Saved reader state, in localStorage, one entry per chapter: edited cells (per language, each keyed to
// a hash of the author's source it was edited from), exercise attempts, plus the preferred language.
// Storage that is unavailable, full or corrupt yields a notice and defaults, never an exception.
const PREFIX = 'tensorpad:v1:';

/** FNV-1a, 32 bits, hex: a stable fingerprint of an author's cell source. */
export function hashSource(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}

// The reader's saved work lives in best-effort storage (as does the offline copy of the site, which
// shares the origin's quota), and a browser may clear it under storage pressure. Once the reader has
// saved something, the page asks once for the origin's storage to be kept. Chromium and Safari decide
// without asking anyone; Firefox asks the reader, which is why this waits for the reader's own first save.
let keepAsked = false;
function askToKeepStorage() {
  if (keepAsked) return;
  keepAsked = true;
  const api = globalThis.navigator?.storage;
  if (typeof api?.persist !== 'function') return;
  Promise.resolve(api.persisted?.()).then((kept) => kept || api.persist()).catch(() => { /* a refusal changes nothing */ });
}

function storage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

export function loadLang() {
  try {
    return storage()?.getItem(PREFIX + 'lang') ?? null;
  } catch {
    return null;
  }
}

export function saveLang(lang) {
  try {
    storage()?.setItem(PREFIX + 'lang', lang);
  } catch { /* a language preference is not worth a notice */ }
}

/** How many of the given exercises of a chapter the reader has passed, from its saved entry (0 if none). */
export function passedCount(chapterId, exerciseIds) {
  try {
    const d = JSON.parse(storage()?.getItem(`${PREFIX}chapter:${chapterId}`) ?? 'null');
    return exerciseIds.filter((id) => d?.exercises?.[id]?.verdict === 'pass').length;
  } catch {
    return 0;
  }
}

// Two tabs of one chapter share its entry. Each tab keeps the changes it made since its last write
// (pending) and writes by re-reading the entry and applying them on top, so a tab never writes back its
// stale copy of what another tab changed: edits of different cells and exercises from several tabs all
// survive; for one cell, the last write wins.
export class ChapterStore {
  /** notify(kind, detail): kind is 'unavailable' | 'corrupt' | 'full'. */
  constructor(chapterId, notify = () => {}) {
    this.key = `${PREFIX}chapter:${chapterId}`;
    this.notify = notify;
    this.pending = []; // changes since the last write: {kind: 'cell', lang, id, value} | {kind: 'exercise', id, value} | {kind: 'reset'}
    this.data = this.#read();
    this.timer = null;
    // Another tab wrote: take its entry, with this tab's unwritten changes on top.
    globalThis.addEventListener?.('storage', (e) => {
      if (e.key !== this.key) return;
      const current = this.#parse(e.newValue);
      if (current) this.data = this.#withPending(current);
    });
  }

  #fresh() {
    return { v: 1, cells: {}, exercises: {} };
  }

  /** The stored entry's text as chapter data, or null when it is not one. */
  #parse(raw) {
    if (raw == null) return this.#fresh();
    try {
      const d = JSON.parse(raw);
      const ok = d && typeof d === 'object' && d.v === 1 && d.cells && typeof d.cells === 'object' && d.exercises && typeof d.exercises === 'object';
      return ok ? d : null;
    } catch {
      return null;
    }
  }

  #read() {
    const ls = storage();
    if (!ls) {
      this.notify('unavailable');
      return this.#fresh();
    }
    let raw;
    try {
      raw = ls.getItem(this.key);
    } catch (e) {
      this.notify('unavailable', e);
      return this.#fresh();
    }
    const d = this.#parse(raw);
    if (d) return d;
    this.notify('corrupt', new Error('unexpected shape'));
    try {
      ls.setItem(this.key + ':corrupt', raw);
    } catch { /* keeping a copy is best effort */ }
    return this.#fresh();
  }

  #apply(data, change) {
    if (change.kind === 'reset') return this.#fresh();
    if (change.kind === 'exercise') {
      data.exercises[change.id] = change.value;
    } else if (change.value === undefined) {
      if (data.cells[change.lang]) delete data.cells[change.lang][change.id];
    } else {
      (data.cells[change.lang] ??= {})[change.id] = change.value;
    }
    return data;
  }

  #withPending(data) {
    return this.pending.reduce((d, change) => this.#apply(d, change), data);
  }

  #change(change) {
    this.pending.push(change);
    this.data = this.#apply(this.data, structuredClone(change));
  }

  /** Writes pending changes now, over what is stored (another tab's writes included); returns false
   *  (after a notice) when storage refused. */
  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.length === 0) return true;
    const ls = storage();
    if (!ls) return false;
    let stored = null;
    try {
      stored = this.#parse(ls.getItem(this.key));
    } catch { /* unreadable now: this tab's copy is the best there is */ }
    const merged = this.#withPending(stored ?? this.data);
    try {
      ls.setItem(this.key, JSON.stringify(merged));
      this.data = merged;
      this.pending = [];
      askToKeepStorage();
      return true;
    } catch (e) {
      this.notify('full', e);
      return false;
    }
  }

  /** Writes soon (typing saves at most every 200 ms); pagehide flushes. */
  #saveSoon() {
    if (this.timer === null) this.timer = setTimeout(() => this.flush(), 200);
  }

  cell(lang, id) {
    return this.data.cells[lang]?.[id] ?? null;
  }

  allCells(lang) {
    return this.data.cells[lang] ?? {};
  }

  setCell(lang, id, source, base) {
    this.#change({ kind: 'cell', lang, id, value: { source, base, at: Date.now() } });
    this.#saveSoon();
  }

  clearCell(lang, id) {
    this.#change({ kind: 'cell', lang, id, value: undefined });
    this.flush();
  }

  clearChapter() {
    this.pending = [];
    this.#change({ kind: 'reset' });
    this.flush();
  }

  exercise(id) {
    return this.data.exercises[id] ?? null;
  }

  setExercise(id, value) {
    this.#change({ kind: 'exercise', id, value });
    this.flush();
  }
}

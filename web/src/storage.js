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

export class ChapterStore {
  /** notify(kind, detail): kind is 'unavailable' | 'corrupt' | 'full'. */
  constructor(chapterId, notify = () => {}) {
    this.key = `${PREFIX}chapter:${chapterId}`;
    this.notify = notify;
    this.dirty = false;
    this.data = this.#read();
    this.timer = null;
  }

  #fresh() {
    return { v: 1, cells: {}, exercises: {} };
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
    if (raw == null) return this.#fresh();
    try {
      const d = JSON.parse(raw);
      if (!d || typeof d !== 'object' || d.v !== 1 || typeof d.cells !== 'object' || typeof d.exercises !== 'object' || !d.cells || !d.exercises) {
        throw new Error('unexpected shape');
      }
      return d;
    } catch (e) {
      this.notify('corrupt', e);
      try {
        ls.setItem(this.key + ':corrupt', raw);
      } catch { /* keeping a copy is best effort */ }
      return this.#fresh();
    }
  }

  /** Writes pending changes now; returns false (after a notice) when storage refused. */
  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    if (!this.dirty) return true;
    const ls = storage();
    if (!ls) return false;
    try {
      ls.setItem(this.key, JSON.stringify(this.data));
      this.dirty = false;
      return true;
    } catch (e) {
      this.notify('full', e);
      return false;
    }
  }

  /** Writes soon (typing saves at most every 200 ms); pagehide flushes. */
  saveSoon() {
    this.dirty = true;
    if (this.timer === null) this.timer = setTimeout(() => this.flush(), 200);
  }

  cell(lang, id) {
    return this.data.cells[lang]?.[id] ?? null;
  }

  allCells(lang) {
    return this.data.cells[lang] ?? {};
  }

  setCell(lang, id, source, base) {
    (this.data.cells[lang] ??= {})[id] = { source, base, at: Date.now() };
    this.saveSoon();
  }

  clearCell(lang, id) {
    if (this.data.cells[lang]) delete this.data.cells[lang][id];
    this.dirty = true;
    this.flush();
  }

  clearChapter() {
    this.data = this.#fresh();
    this.dirty = true;
    this.flush();
  }

  exercise(id) {
    return this.data.exercises[id] ?? null;
  }

  setExercise(id, value) {
    this.data.exercises[id] = value;
    this.dirty = true;
    this.flush();
  }
}

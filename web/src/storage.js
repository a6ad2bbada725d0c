// Saved reader state, in localStorage, one entry per chapter: edited cells (per language, each keyed to
// a hash of the author's source it was edited from), exercise attempts, plus the preferred language.
// Storage that is unavailable, full or corrupt yields a notice and defaults, never an exception; what
// cannot be read is kept aside (never overwritten), and an entry written by a newer build is left alone.
const PREFIX = 'tensorpad:v1:';
/** The entry format this build reads and writes. A newer build that changes it raises it. */
export const FORMAT = 1;

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

/** Whether the last run's outputs are kept across a reload (the reader may turn it off, for every chapter). */
export function loadKeepOutputs() {
  try {
    return storage()?.getItem(PREFIX + 'keepOutputs') !== 'no';
  } catch {
    return true;
  }
}

export function saveKeepOutputs(keep) {
  try {
    storage()?.setItem(PREFIX + 'keepOutputs', keep ? 'yes' : 'no');
  } catch { /* a preference is not worth a notice */ }
}

/** How many of the given exercises of a chapter the reader has passed, from its saved entry (0 if none). */
export function passedCount(chapterId, exerciseIds) {
  try {
    const { data } = readEntry(storage()?.getItem(`${PREFIX}chapter:${chapterId}`) ?? null);
    return exerciseIds.filter((id) => passed(data?.exercises[id])).length;
  } catch {
    return 0;
  }
}

/** Whether a saved exercise attempt has passed at least once (its best verdict, or the last one). */
// Which of a chapter's cells the reader has run (ids, the same in both languages), for the chapter list's
// progress: a list of its own beside the chapter's entry, so a broken entry costs at most this count.
const ranKey = (chapterId) => `${PREFIX}ran:${chapterId}`;

function readRan(chapterId) {
  try {
    const list = JSON.parse(storage()?.getItem(ranKey(chapterId)) ?? '[]');
    return Array.isArray(list) ? list.filter((x) => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Notes that a cell of the chapter ran to its end. */
export function markRan(chapterId, cellId) {
  const list = readRan(chapterId);
  if (list.includes(cellId)) return;
  try {
    storage()?.setItem(ranKey(chapterId), JSON.stringify([...list, cellId]));
  } catch { /* a progress count is not worth a notice */ }
}

/** How many of cellIds the reader has run. */
export function ranCount(chapterId, cellIds) {
  const ran = new Set(readRan(chapterId));
  return cellIds.filter((id) => ran.has(id)).length;
}

export function clearRan(chapterId) {
  try {
    storage()?.removeItem(ranKey(chapterId));
  } catch { /* nothing to clear */ }
}

export function passed(attempt) {
  return attempt?.best === 'pass' || attempt?.verdict === 'pass';
}

const isRecord = (x) => x !== null && typeof x === 'object' && !Array.isArray(x);
const fresh = () => ({ v: FORMAT, cells: {}, exercises: {} });

/**
 * Reads an entry's text. Returns { data, status, dropped }: status is 'empty' (no entry), 'ok', 'partial'
 * (some parts had the wrong shape and were left out: `dropped` names them), 'unreadable' (not an entry
 * at all; data is fresh) or 'newer' (written by a newer build; data is what this build can read of it,
 * or fresh). Never throws, whatever the text.
 */
export function readEntry(raw) {
  if (raw == null) return { data: fresh(), status: 'empty', dropped: [] };
  let d;
  try {
    d = JSON.parse(raw);
  } catch {
    return { data: fresh(), status: 'unreadable', dropped: ['entry'] };
  }
  if (!isRecord(d) || !Number.isInteger(d.v) || d.v < 1) return { data: fresh(), status: 'unreadable', dropped: ['entry'] };
  const dropped = [];
  const data = { ...d, v: d.v, cells: {}, exercises: {} };
  if (d.cells !== undefined && !isRecord(d.cells)) dropped.push('cells');
  for (const [lang, cells] of Object.entries(isRecord(d.cells) ? d.cells : {})) {
    if (!isRecord(cells)) { dropped.push(`cells.${lang}`); continue; }
    data.cells[lang] = {};
    for (const [id, c] of Object.entries(cells)) {
      if (isRecord(c) && typeof c.source === 'string' && (c.base === undefined || typeof c.base === 'string')) data.cells[lang][id] = c;
      else dropped.push(`cells.${lang}.${id}`);
    }
  }
  if (d.exercises !== undefined && !isRecord(d.exercises)) dropped.push('exercises');
  for (const [id, e] of Object.entries(isRecord(d.exercises) ? d.exercises : {})) {
    if (isRecord(e) && (e.code === undefined || typeof e.code === 'string')) data.exercises[id] = e;
    else dropped.push(`exercises.${id}`);
  }
  // The reader's own cells, per language: an ordered list of { id, type: 'code' | 'md', source, anchor }.
  if (d.reader !== undefined) {
    data.reader = {};
    if (!isRecord(d.reader)) dropped.push('reader');
    for (const [lang, list] of Object.entries(isRecord(d.reader) ? d.reader : {})) {
      if (!Array.isArray(list)) { dropped.push(`reader.${lang}`); continue; }
      data.reader[lang] = list.filter((c, i) => {
        const ok = isRecord(c) && typeof c.id === 'string' && (c.type === 'code' || c.type === 'md') && typeof c.source === 'string' && typeof c.anchor === 'string';
        if (!ok) dropped.push(`reader.${lang}.${i}`);
        return ok;
      });
    }
  }
  // The last run's outputs, per language and cell: lists of output objects (web/runtime/display.js).
  if (d.outputs !== undefined) {
    data.outputs = {};
    if (!isRecord(d.outputs)) dropped.push('outputs');
    for (const [lang, cells] of Object.entries(isRecord(d.outputs) ? d.outputs : {})) {
      if (!isRecord(cells)) { dropped.push(`outputs.${lang}`); continue; }
      data.outputs[lang] = {};
      for (const [id, list] of Object.entries(cells)) {
        if (Array.isArray(list) && list.every((o) => isRecord(o) && typeof o.kind === 'string')) data.outputs[lang][id] = list;
        else dropped.push(`outputs.${lang}.${id}`);
      }
    }
  }
  if (d.v > FORMAT) return { data, status: 'newer', dropped };
  return { data, status: dropped.length ? 'partial' : 'ok', dropped };
}

// Two tabs of one chapter share its entry. Each tab keeps the changes it made since its last write
// (pending) and writes by re-reading the entry and applying them on top, so a tab never writes back its
// stale copy of what another tab changed: edits of different cells and exercises from several tabs all
// survive; for one cell, the last write wins, and the other tab is told (onRemote) so it shows that text
// or, where its reader is editing the same cell, warns.
//
// What cannot be read is never lost: before an entry with unreadable parts is written over, its text is
// copied to `<key>:unreadable` (a list of the last few such texts). When that copy cannot be made (storage
// full), the tab does not write at all until the reader has downloaded the text (saveUnreadable) or
// discarded it. An entry from a newer build (its format number above FORMAT) is never written over.
export class ChapterStore {
  /**
   * notify(kind, detail): kind is 'unavailable' | 'corrupt' (detail.dropped lists what was left out) |
   * 'blocked' (corrupt, and no copy could be kept: nothing is saved until saveUnreadable/discardUnreadable) |
   * 'newer' (nothing is saved) | 'full'.
   * onRemote({ cells: [{ lang, id, value, conflict }], exercises: [ids], reader: [langs] }): another tab changed these;
   * value is the stored cell (null: back to the author's), conflict: this tab has unwritten changes to it.
   */
  constructor(chapterId, notify = () => {}, { onRemote = () => {} } = {}) {
    this.key = `${PREFIX}chapter:${chapterId}`;
    this.asideKey = `${this.key}:unreadable`;
    this.notify = notify;
    this.onRemote = onRemote;
    this.pending = []; // changes since the last write: {kind: 'cell', lang, id, value} | {kind: 'exercise', id, value} | {kind: 'reset'}
    this.readOnly = false; // a newer build's entry
    this.blocked = null; // the unreadable text that could not be kept aside
    this.released = null; // unreadable text the reader downloaded or discarded: it may be written over
    this.data = this.#read();
    this.timer = null;
    // Another tab wrote: take its entry, with this tab's unwritten changes on top.
    globalThis.addEventListener?.('storage', (e) => {
      if (e.key === this.key) this.#remote(e.newValue);
    });
  }

  #remote(raw) {
    const { data, status } = readEntry(raw);
    if (status === 'unreadable') return; // written by no page of ours: the next flush keeps it aside
    if (status === 'newer') {
      this.readOnly = true;
      this.notify('newer');
      return;
    }
    const before = this.data;
    this.data = this.#withPending(structuredClone(data));
    const touched = new Set(this.pending.filter((c) => c.kind === 'cell').map((c) => `${c.lang}\u0000${c.id}`));
    const cells = [];
    for (const lang of new Set([...Object.keys(before.cells), ...Object.keys(data.cells)])) {
      for (const id of new Set([...Object.keys(before.cells[lang] ?? {}), ...Object.keys(data.cells[lang] ?? {})])) {
        const was = before.cells[lang]?.[id]?.source ?? null;
        const now = data.cells[lang]?.[id] ?? null;
        if (was !== (now?.source ?? null)) cells.push({ lang, id, value: now, conflict: touched.has(`${lang}\u0000${id}`) });
      }
    }
    const exercises = [...new Set([...Object.keys(before.exercises), ...Object.keys(data.exercises)])]
      .filter((id) => JSON.stringify(before.exercises[id]) !== JSON.stringify(data.exercises[id]));
    const reader = [...new Set([...Object.keys(before.reader ?? {}), ...Object.keys(data.reader ?? {})])]
      .filter((lang) => JSON.stringify(before.reader?.[lang] ?? []) !== JSON.stringify(data.reader?.[lang] ?? []));
    if (cells.length || exercises.length || reader.length) this.onRemote({ cells, exercises, reader });
  }

  /** Copies an unreadable entry's text aside (the last 5 kept); false when storage refused. */
  #keepAside(ls, raw) {
    try {
      let list;
      try {
        list = JSON.parse(ls.getItem(this.asideKey) ?? '[]');
        if (!Array.isArray(list)) list = [{ raw: ls.getItem(this.asideKey) }];
      } catch {
        list = [{ raw: ls.getItem(this.asideKey) }];
      }
      if (list.some((e) => e?.raw === raw)) return true;
      list.push({ at: new Date().toISOString(), raw });
      ls.setItem(this.asideKey, JSON.stringify(list.slice(-5)));
      return true;
    } catch {
      return false;
    }
  }

  /** Reads the stored entry; keeps what it cannot read aside (or blocks writing); sets readOnly for a newer build's entry. */
  #take(ls, raw, { quiet = false } = {}) {
    const { data, status, dropped } = readEntry(raw);
    if (status === 'newer') {
      if (!this.readOnly && !quiet) this.notify('newer');
      this.readOnly = true;
    } else if ((status === 'unreadable' || status === 'partial') && raw !== this.released) {
      if (this.#keepAside(ls, raw)) {
        if (!quiet) this.notify('corrupt', { dropped });
      } else {
        this.blocked = raw;
        this.notify('blocked', { dropped });
      }
    }
    return data;
  }

  #read() {
    const ls = storage();
    if (!ls) {
      this.notify('unavailable');
      return fresh();
    }
    let raw;
    try {
      raw = ls.getItem(this.key);
    } catch (e) {
      this.notify('unavailable', e);
      return fresh();
    }
    return this.#take(ls, raw);
  }

  #apply(data, change) {
    if (change.kind === 'reset') return { ...fresh(), v: data.v };
    if (change.kind === 'exercise') {
      data.exercises[change.id] = change.value;
    } else if (change.kind === 'reader') {
      (data.reader ??= {})[change.lang] = change.value;
    } else if (change.kind === 'outputs') {
      const cells = ((data.outputs ??= {})[change.lang] ??= {});
      if (change.value === undefined) delete cells[change.id];
      else cells[change.id] = change.value;
    } else if (change.value === undefined) {
      if (data.cells[change.lang]) delete data.cells[change.lang][change.id];
    } else {
      (data.cells[change.lang] ??= {})[change.id] = change.value;
    }
    return data;
  }

  #withPending(data) {
    return this.pending.reduce((d, change) => this.#apply(d, structuredClone(change)), data);
  }

  #change(change) {
    this.pending.push(change);
    this.data = this.#apply(this.data, structuredClone(change));
  }

  /** Writes pending changes now, over what is stored (another tab's writes included); returns false
   *  when nothing could be written (storage refused, an unreadable entry not yet kept, a newer build's entry). */
  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.length === 0) return true;
    if (this.readOnly || this.blocked !== null) return false;
    const ls = storage();
    if (!ls) return false;
    let stored;
    try {
      // Read again: another tab (or a newer build in one) may have written since.
      stored = this.#take(ls, ls.getItem(this.key), { quiet: true });
    } catch {
      stored = null; // unreadable now: this tab's copy is the best there is
    }
    if (this.readOnly || this.blocked !== null) return false;
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

  /** The unreadable text that blocks saving, for the reader to download; then saving resumes. */
  saveUnreadable() {
    const raw = this.blocked;
    this.discardUnreadable();
    return raw;
  }

  /** Lets this tab write over the unreadable entry (the reader chose to discard it, or has a copy). */
  discardUnreadable() {
    this.released = this.blocked;
    this.blocked = null;
    this.#saveSoon();
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

  /** The reader's own cells in `lang`, in page order: [{ id, type, source, anchor }]. */
  readerCells(lang) {
    return this.data.reader?.[lang] ?? [];
  }

  /** Replaces the list of the reader's own cells in `lang` (typing in one saves within 200 ms). */
  setReaderCells(lang, list) {
    this.#change({ kind: 'reader', lang, value: list });
    this.#saveSoon();
  }

  /** The outputs of the last run of each cell in `lang`: { [cellId]: [output] }. */
  outputs(lang) {
    return this.data.outputs?.[lang] ?? {};
  }

  /** Keeps (or, with undefined, forgets) a cell's last outputs; written with the next save. */
  setOutputs(lang, id, list) {
    this.#change({ kind: 'outputs', lang, id, value: list });
    this.#saveSoon();
  }

  exercise(id) {
    return this.data.exercises[id] ?? null;
  }

  setExercise(id, value) {
    this.#change({ kind: 'exercise', id, value });
    this.flush();
  }
}

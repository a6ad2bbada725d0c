// Where the reader's own cells sit in a chapter. Each is anchored after an author block, named by what the
// block is (a cell's id, a paragraph's text) and, as a fallback, by its place: an author's update that
// adds, moves or rewrites blocks moves a reader's cell at most to a neighbouring place, never drops it.
import { hashSource } from './storage.js';

/** A name for an author block that survives the blocks around it changing. */
export function blockKey(b) {
  switch (b.type) {
    case 'cell': return `cell:${b.id}`;
    case 'exercise': return `exercise:${b.id}`;
    case 'md': return `md:${hashSource(b.md ?? b.html ?? '')}`;
    case 'widget': return `widget:${b.name}:${hashSource(JSON.stringify(b.props ?? {}))}`;
    case 'details': return `details:${hashSource(b.summary ?? '')}`;
    default: return `block:${b.type}`;
  }
}

/** An anchor: 'top', or `<key>@<place>` (place: the block's index among all author blocks, in page order). */
export function anchorOf(key, place) {
  return key === null ? 'top' : `${key}@${place}`;
}

/**
 * resolveAnchor(anchor, keys) → the index in `keys` (the author blocks' keys, in page order) after which a
 * cell with this anchor goes, or -1 for the top. A key found several times takes the one nearest its place;
 * a key no longer there falls back to its place (clamped to the chapter).
 */
export function resolveAnchor(anchor, keys) {
  if (anchor === 'top' || keys.length === 0) return -1;
  const at = anchor.lastIndexOf('@');
  const key = at < 0 ? anchor : anchor.slice(0, at);
  const place = at < 0 ? NaN : Number(anchor.slice(at + 1));
  let best = -1;
  let bestDistance = Infinity;
  keys.forEach((k, i) => {
    if (k !== key) return;
    const d = Number.isFinite(place) ? Math.abs(i - place) : i;
    if (d < bestDistance) { best = i; bestDistance = d; }
  });
  if (best >= 0) return best;
  return Number.isFinite(place) ? Math.min(Math.max(place, -1), keys.length - 1) : keys.length - 1;
}

/**
 * The anchors of the reader's cells in a sequence of page items (author blocks { key } and reader cells
 * { reader }), in page order: each reader cell is anchored after the nearest author block above it.
 * Returns the reader cells in order, each with its new anchor: [{ item, anchor }].
 */
export function anchorsFor(items) {
  let last = null;
  let place = -1;
  const out = [];
  for (const it of items) {
    if (it.reader) out.push({ item: it, anchor: anchorOf(last, place) });
    else { last = it.key; place++; }
  }
  return out;
}

// The chapter's contents: its parts and sections, each linking to its heading, the one being read
// marked (aria-current), and how many of each one's exercises the reader has passed. Beside the text
// where the screen is wide enough, folded at the top of the chapter where it is not (style.css).
//   new Contents(toc, { L, passed }) → .el; toc from the chapter build: [{ level, id, html, exercises }];
//   passed(exerciseId) → boolean. refresh() recounts; track() follows the reader's scrolling.
import { h, headerHeight } from './dom.js';

const SIDE = '(min-width: 1440px)'; // as in style.css: room for the contents beside the 860 px column

export class Contents {
  constructor(toc, { L, passed }) {
    this.L = L;
    this.passed = passed;
    this.entries = groupParts(toc);
    this.links = new Map();
    this.summary = h('summary', { class: 'toc-title' }, L('contents'), ' ', h('span', { class: 'toc-total', 'data-testid': 'toc-total' }));
    const item = (e) => {
      const link = h('a', { href: `#${e.id}`, html: e.html, 'data-testid': 'toc-link' });
      this.links.set(e.id, link);
      e.badge = h('span', { class: 'toc-progress', 'data-testid': 'toc-progress', hidden: true });
      return h('li', { 'data-level': e.level }, link, e.badge,
        e.children.length ? h('ol', {}, e.children.map(item)) : null);
    };
    this.fold = h('details', { class: 'toc-fold' }, this.summary, h('ol', { class: 'toc-list' }, this.entries.map(item)));
    this.el = h('nav', { class: 'toc', 'aria-label': L('contents'), 'data-testid': 'contents' }, this.fold);
    // Open beside the text, folded above it; a reader's own folding is kept until the width class changes.
    const side = globalThis.matchMedia?.(SIDE);
    this.fold.open = !!side?.matches;
    side?.addEventListener('change', (e) => { this.fold.open = e.matches; });
    this.current = null;
  }

  /** Unfolds the contents and focuses the section being read (or the first): the header's Contents button. */
  reveal() {
    this.fold.open = true;
    (this.links.get(this.current) ?? this.links.values().next().value)?.focus();
  }

  /** Recounts the passed exercises of every part and section, and of the chapter. */
  refresh() {
    let passed = 0, total = 0;
    const count = (e) => {
      const ids = [e, ...e.children].flatMap((x) => x.exercises);
      const done = ids.filter((id) => this.passed(id)).length;
      e.badge.hidden = ids.length === 0;
      e.badge.dataset.complete = String(ids.length > 0 && done === ids.length);
      // "2/3" for the eye; the words for a screen reader.
      e.badge.replaceChildren(h('span', { 'aria-hidden': 'true' }, `${done}/${ids.length}`),
        h('span', { class: 'sr-only' }, this.L('tocProgress', { passed: done, total: ids.length })));
      e.children.forEach(count);
      return [done, ids.length];
    };
    for (const e of this.entries) {
      const [d, n] = count(e);
      passed += d;
      total += n;
    }
    this.summary.lastChild.textContent = total ? this.L('tocTotal', { passed, total }) : '';
  }

  /** Marks the section whose heading was last scrolled past (below the sticky header) as it changes. */
  track() {
    const headings = [...this.links.keys()].map((id) => document.getElementById(id)).filter(Boolean);
    let pending = false;
    const update = () => {
      pending = false;
      const line = headerHeight() + 16;
      let at = null;
      for (const el of headings) {
        if (el.getBoundingClientRect().top > line) break;
        at = el.id;
      }
      if (at === this.current) return;
      this.links.get(this.current)?.removeAttribute('aria-current');
      this.current = at;
      const link = this.links.get(at);
      if (!link) return;
      link.setAttribute('aria-current', 'location');
      // Beside the text the contents scroll on their own: keep the marked section in their view.
      const nav = this.el;
      if (nav.scrollHeight > nav.clientHeight) {
        const top = link.offsetTop - nav.clientHeight / 3;
        if (link.offsetTop < nav.scrollTop || link.offsetTop > nav.scrollTop + nav.clientHeight - 24) nav.scrollTop = Math.max(0, top);
      }
    };
    addEventListener('scroll', () => {
      if (!pending) { pending = true; requestAnimationFrame(update); }
    }, { passive: true });
    update();
  }
}

// The flat list of headings as parts (the first level used) with their sections.
function groupParts(toc) {
  const top = Math.min(...toc.map((e) => e.level));
  const out = [];
  for (const e of toc) {
    const entry = { ...e, children: [] };
    if (e.level === top || !out.length) out.push(entry);
    else out.at(-1).children.push(entry);
  }
  return out;
}

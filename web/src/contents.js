// The chapter's contents: its parts and sections, each linking to its heading, the one being read
// marked (aria-current), and how many of each one's exercises the reader has passed. Beside the text
// where the screen is wide enough, folded above it where it is not (style.css).
//   new Contents(toc, { L, passed, exercises }) → .el; toc from the chapter build: [{ level, id, html,
//   exercises }]; passed(exerciseId) → boolean; exercises: every exercise of the chapter (the total).
//   refresh() recounts; track() follows the reader's scrolling; reveal() unfolds and focuses.
import { h, headerHeight } from './dom.js';

// The width from which style.css puts the contents beside the 860 px column (its @media rule says why).
const SIDE = '(min-width: 1440px)';

export class Contents {
  // later(fn), if given, runs fn when the page has time: folded contents (a narrow window) build their list
  // then (its dozens of links and formulas were a tenth of the chapter's first task), or when first opened.
  constructor(toc, { L, passed, exercises, later = null }) {
    this.L = L;
    this.passed = passed;
    this.exercises = exercises;
    this.entries = groupParts(toc);
    this.links = new Map();
    this.total = h('span', { class: 'toc-total', 'data-testid': 'toc-total' });
    this.list = h('ol', { class: 'toc-list' });
    const summary = h('summary', { class: 'toc-title' }, L('contents'), this.total);
    this.fold = h('details', { class: 'toc-fold' }, summary, this.list);
    this.el = h('nav', { class: 'toc', 'aria-label': L('contents'), 'data-testid': 'contents' }, this.fold);
    // Open beside the text, folded above it; a reader's own folding is kept until the width class changes.
    const side = globalThis.matchMedia?.(SIDE);
    this.fold.open = !!side?.matches;
    side?.addEventListener('change', (e) => {
      this.#build();
      this.fold.open = e.matches;
      this.#keepInView();
    });
    this.current = null;
    if (this.fold.open || !later) this.#build();
    else {
      later(() => this.#build());
      // A click (or Enter) on the summary comes before the fold opens: the list is there when it does.
      summary.addEventListener('click', () => this.#build());
      this.fold.addEventListener('toggle', () => this.#build());
    }
  }

  #build() {
    if (this.built) return;
    this.built = true;
    const item = (e) => {
      const link = h('a', { href: `#${e.id}`, html: e.html, 'aria-label': e.label, 'data-testid': 'toc-link' });
      this.links.set(e.id, link);
      e.badge = h('span', { class: 'toc-progress', 'data-testid': 'toc-progress', hidden: true });
      return h('li', {}, link, e.badge, e.children.length ? h('ol', {}, e.children.map(item)) : null);
    };
    this.list.append(...this.entries.map(item));
    if (this.counted) this.refresh();
  }

  /** Unfolds the contents and focuses the section being read (or the first): the header's Contents button. */
  reveal() {
    this.#build();
    this.fold.open = true;
    (this.links.get(this.current) ?? this.links.values().next().value)?.focus();
  }

  /** Recounts the passed exercises of every part and section, and of the chapter. */
  refresh() {
    this.counted = true;
    // "2/3" (✓ when all) for the eye; words for a screen reader.
    const show = (el, done, all) => el.replaceChildren(
      h('span', { 'aria-hidden': 'true' }, `${done === all ? '✓ ' : ''}${done}/${all}`),
      h('span', { class: 'sr-only' }, this.L('exercisesPassed', { passed: done, total: all })));
    const count = (e) => {
      const ids = [e, ...e.children].flatMap((x) => x.exercises);
      const done = ids.filter((id) => this.passed(id)).length;
      e.badge.hidden = ids.length === 0;
      e.badge.dataset.complete = String(ids.length > 0 && done === ids.length);
      show(e.badge, done, ids.length);
      e.children.forEach(count);
    };
    if (this.built) this.entries.forEach(count);
    const done = this.exercises.filter((id) => this.passed(id)).length;
    this.total.hidden = this.exercises.length === 0;
    this.total.replaceChildren(h('span', { 'aria-hidden': 'true' }, ` · ${this.L('passedOf', { passed: done, total: this.exercises.length })}`),
      h('span', { class: 'sr-only' }, `, ${this.L('exercisesPassed', { passed: done, total: this.exercises.length })}`));
  }

  /** Marks the section being read as the reader scrolls: the one whose heading was last scrolled past
   *  (below the sticky header), or at the very end of the page the last one in view. */
  track() {
    if (this.tracking) return;
    this.#build();
    this.tracking = true;
    const headings = [...this.links.keys()].map((id) => document.getElementById(id)).filter(Boolean);
    let pending = false;
    const update = () => {
      pending = false;
      const line = headerHeight() + 16;
      const end = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
      let at = null;
      for (const el of headings) {
        const top = el.getBoundingClientRect().top;
        if (top > (end ? window.innerHeight : line)) break;
        at = el.id;
      }
      if (at === this.current) return;
      this.links.get(this.current)?.removeAttribute('aria-current');
      this.current = at;
      this.links.get(at)?.setAttribute('aria-current', 'location');
      this.#keepInView();
    };
    const later = () => {
      if (!pending) { pending = true; requestAnimationFrame(update); }
    };
    addEventListener('scroll', later, { passive: true });
    // The page also moves under a still reader: blocks laid out late (web/src/notebook.js) change its height.
    new ResizeObserver(later).observe(document.querySelector('main') ?? document.body);
    update();
  }

  // Beside the text the contents scroll on their own: keep the marked section in their view.
  #keepInView() {
    const link = this.links.get(this.current);
    const nav = this.el;
    if (!link || nav.scrollHeight <= nav.clientHeight) return;
    if (link.offsetTop < nav.scrollTop || link.offsetTop > nav.scrollTop + nav.clientHeight - 24) {
      nav.scrollTop = Math.max(0, link.offsetTop - nav.clientHeight / 3);
    }
  }
}

// The flat list of headings as parts (the first level used) with everything below a part as its sections.
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

// Page entry: "/" lists the chapters, "/?chapter=<id>&lang=<zh|en>" opens one.
import { Notebook, startKernel, SCRATCH_CHAPTER } from './notebook.js';
import { h, trackStickyHeader } from './dom.js';
import { t, LANGS } from './i18n.js';
import { loadLang, saveLang, passedCount, ranCount } from './storage.js';
import { themeMenu } from './theme.js';

const app = document.getElementById('app');

function pickLang(params, available = LANGS) {
  const wanted = [params.get('lang'), loadLang(), navigator.language?.startsWith('zh') ? 'zh' : 'en', 'en'];
  return wanted.find((l) => l && available.includes(l)) ?? available[0];
}

async function fetchJson(path) {
  const res = await fetch(path);
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  return res.json();
}

// save: false when the page shows a language the reader did not choose (a chapter written in one language):
// the reader's choice stays for the next chapter.
function setLang(lang, { save = true } = {}) {
  document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  // The page shell (web/build.mjs) is written in English: its skip link follows the reader's language.
  const skip = document.querySelector('.skip-link');
  if (skip) skip.textContent = t(lang, 'skipLink');
  if (save) saveLang(lang);
}

async function showIndex(params) {
  const lang = pickLang(params);
  setLang(lang);
  const chapters = await fetchJson('chapters/index.json');
  const other = lang === 'zh' ? 'en' : 'zh';
  document.title = t(lang, 'appName');
  app.replaceChildren(
    h('header', { class: 'chapter-header' },
      h('nav', { class: 'topnav', 'aria-label': 'Tensorpad' },
        h('span', { class: 'brand', text: 'Tensorpad' }),
        h('span', { class: 'topnav-end' }, themeMenu(lang),
          h('a', { href: `./?lang=${other}`, class: 'lang-switch', 'data-testid': 'lang-switch', lang: other, hreflang: other, title: t(lang, 'otherLangLabel') }, t(lang, 'otherLang')))),
      h('h1', { text: t(lang, 'chapters') })),
    h('main', { id: 'main', tabindex: '-1' },
      chapters.length
        ? h('ol', { class: 'chapter-list', 'data-testid': 'chapter-list' }, chapters.map((c) => chapterItem(c, lang)))
        : h('p', { text: t(lang, 'noChapters') })));
  trackStickyHeader(app.querySelector('.chapter-header'));
  refreshCounts();
}

// One chapter of the list: its title (a link), the line on what the reader will do, the progress (exercises
// passed, cells run) and its parts, each a link into the chapter with the exercises passed in it.
function chapterItem(c, lang) {
  const l = c.langs.includes(lang) ? lang : c.langs[0];
  const href = `./?chapter=${encodeURIComponent(c.id)}&lang=${l}`;
  // A chapter not written in the reader's language opens in its own, and the list says so.
  const only = l !== lang ? h('span', { class: 'chapter-lang', 'data-testid': 'chapter-lang' }, t(lang, 'chapterOnlyIn', { language: t(lang, `lang-${l}`) })) : null;
  const progress = c.exercises?.length ? h('span', { class: 'chapter-progress', 'data-testid': 'chapter-progress' }) : null;
  if (progress) counts.push(() => { progress.textContent = t(lang, 'exercisesPassed', { passed: passedCount(c.id, c.exercises), total: c.exercises.length }); });
  const cellIds = c.cells ?? [];
  const ran = cellIds.length ? h('span', { class: 'chapter-progress', 'data-testid': 'chapter-cells-run' }) : null;
  if (ran) counts.push(() => { ran.textContent = t(lang, 'cellsRun', { ran: ranCount(c.id, cellIds), total: cellIds.length }); });
  const meta = [only, progress, ran].filter(Boolean).flatMap((el, i) => (i ? [' · ', el] : [el]));
  const summary = c.summaries?.[l];
  const sections = c.sections?.[l] ?? [];
  const sectionList = sections.length
    ? h('ol', { class: 'chapter-sections', 'data-testid': 'chapter-sections', lang: l !== lang ? l : null, 'aria-label': t(lang, 'chapterSections', { title: c.titles[l] }) }, sections.map((s) => {
      const badge = s.exercises.length ? h('span', { class: 'section-progress' }) : null;
      if (badge) {
        counts.push(() => {
          const done = passedCount(c.id, s.exercises);
          badge.dataset.complete = String(done === s.exercises.length);
          badge.replaceChildren(h('span', { 'aria-hidden': 'true' }, ` ${done === s.exercises.length ? '✓ ' : ''}${done}/${s.exercises.length}`),
            h('span', { class: 'sr-only' }, `, ${t(lang, 'exercisesPassed', { passed: done, total: s.exercises.length })}`));
        });
      }
      // The title as the chapter renders it (a formula in KaTeX), from the build's sanitized HTML.
      return h('li', {}, h('a', { href: `${href}#${encodeURIComponent(s.id)}`, html: s.title }), badge);
    }))
    : null;
  return h('li', { class: 'chapter-entry' },
    h('h2', { class: 'chapter-title' }, h('a', { href, 'data-chapter': c.id, lang: l }, c.titles[l])),
    meta.length ? h('p', { class: 'chapter-meta muted' }, ...meta) : null,
    summary ? h('p', { class: 'chapter-summary', 'data-testid': 'chapter-summary', lang: l !== lang ? l : null, text: summary }) : null,
    sectionList);
}

// The chapter list's counts of passed exercises: written when the list is drawn, and again when another
// tab changes them or the back/forward cache restores the page.
const counts = [];
const refreshCounts = () => counts.forEach((write) => write());

async function showChapter(params) {
  const id = params.get('chapter');
  // The cell worker boots (fetches and compiles the core) while the chapter is fetched and rendered.
  const workerUrl = new URL('worker.js', document.baseURI);
  const kernel = startKernel(workerUrl);
  // Fetch the chapter in the likely language while the index arrives (the first cell renders sooner).
  const guess = pickLang(params);
  const chapterUrl = (l) => `chapters/${encodeURIComponent(id)}/${l}.json`;
  const early = id === SCRATCH_CHAPTER ? Promise.resolve(null) : fetchJson(chapterUrl(guess));
  early.catch(() => {});
  const chapters = await fetchJson('chapters/index.json');
  // The scratch chapter (where an opened .ipynb lands) has no file: it is the reader's cells alone.
  const entry = id === SCRATCH_CHAPTER ? { id, langs: LANGS } : chapters.find((c) => c.id === id);
  const lang = pickLang(params, entry?.langs ?? LANGS);
  const wanted = pickLang(params);
  setLang(lang, { save: lang === wanted });
  if (!entry) {
    kernel.dispose();
    app.replaceChildren(h('main', { id: 'main' }, h('p', { role: 'alert', text: t(lang, 'notFound', { id }) }), h('a', { href: './' }, t(lang, 'back'))));
    return;
  }
  if (params.get('lang') !== lang) history.replaceState(null, '', `?chapter=${encodeURIComponent(id)}&lang=${lang}${location.hash}`);
  const chapter = id === SCRATCH_CHAPTER
    ? { id, lang, title: t(lang, 'scratchChapter'), order: 0, blocks: [], toc: [] }
    : await (lang === guess ? early : fetchJson(chapterUrl(lang)));
  document.title = `${chapter.title} · Tensorpad`;
  const other = entry.langs.find((l) => l !== lang);
  const notebook = new Notebook(app, chapter, {
    lang,
    workerUrl,
    kernel,
    focusId: location.hash ? decodeURIComponent(location.hash.slice(1)) : null,
    otherLangHref: other ? `./?chapter=${encodeURIComponent(id)}&lang=${other}` : null,
  });
  globalThis.tensorpad = { notebook };
  if (wanted !== lang) {
    // Said in the reader's language, about the only language the chapter has.
    const el = notebook.notice(t(wanted, 'chapterOnlyInNotice', { language: t(wanted, `lang-${lang}`) }), { id: 'lang-fallback' });
    el.lang = wanted === 'zh' ? 'zh-CN' : 'en';
  }
  if (location.hash) holdInView(document.getElementById(decodeURIComponent(location.hash.slice(1))));
}

// A link to a place in the chapter (#sec-…, or the #b… the language switch carries): cells, widgets and
// fonts render after the first scroll and push the place down, so it is scrolled back into view as the
// page grows, until the reader scrolls, clicks or types, or the page has been still for a second.
function holdInView(target) {
  if (!target) return;
  const main = document.querySelector('main') ?? document.body;
  let idle;
  const observer = new ResizeObserver(() => {
    target.scrollIntoView();
    clearTimeout(idle);
    idle = setTimeout(stop, 1000);
  });
  const stop = () => {
    observer.disconnect();
    clearTimeout(idle);
    for (const type of ['wheel', 'touchstart', 'keydown', 'pointerdown']) removeEventListener(type, stop, true);
  };
  for (const type of ['wheel', 'touchstart', 'keydown', 'pointerdown']) addEventListener(type, stop, { capture: true, passive: true });
  target.scrollIntoView();
  observer.observe(main);
}

// The service worker (web/src/sw.js) keeps a copy of the site for reading offline. It registers once the
// page has loaded, so that its downloads do not compete with the page's own.
function keepForOffline() {
  navigator.serviceWorker.register('sw.js').catch((e) => console.warn(`Tensorpad: this page will not open offline (${e.message})`));
  navigator.serviceWorker.addEventListener('message', (e) => {
    if (e.data?.type === 'tensorpad-offline-failed') console.warn(e.data.message);
  });
}
if ('serviceWorker' in navigator && window.isSecureContext) {
  if (document.readyState === 'complete') keepForOffline();
  else addEventListener('load', keepForOffline, { once: true });
}

const params = new URLSearchParams(location.search);
if (!params.get('chapter')) {
  addEventListener('storage', (e) => { if (/^tensorpad:v1:(chapter|ran):/.test(e.key ?? '')) refreshCounts(); });
  addEventListener('pageshow', (e) => { if (e.persisted) refreshCounts(); });
}
(params.get('chapter') ? showChapter(params) : showIndex(params)).catch((e) => {
  app.replaceChildren(h('main', { id: 'main' }, h('p', { role: 'alert', class: 'notice notice-warning', text: String(e.message) })));
});

// Parses one chapter file (web/chapters/<id>/<lang>.md) into blocks the page renders, collecting every
// author mistake as { file, line, message } so the build can name them all at once. The site build and
// the CLI (an exercise's order, `tensorpad check`) both read chapters through it.
import MarkdownIt from 'markdown-it';
import mathPlugin from './md-math.mjs';
import { transformCell } from '../runtime/cells.js';

// A :::details block's summary when the author gives none, per language.
const DETAILS_SUMMARY = { en: 'Answer', zh: '答案' };
export const DIRECTIVES = ['widget', 'exercise', 'details'];
const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([^`\s]*)(.*)$/;
const DIRECTIVE = /^:::\s*([A-Za-z][\w-]*)?\s*(.*)$/;
const CELL_ATTRS = ['id'];

export function createMarkdown() {
  const md = new MarkdownIt({ html: true, linkify: false, typographer: false }).use(mathPlugin);
  md.renderer.rules.heading_open = (tokens, i, options, env, self) => {
    const level = headingLevel(Number(tokens[i].tag.slice(1)), env);
    tokens[i].tag = `h${level}`;
    const close = tokens.slice(i + 1).find((t) => t.type === 'heading_close');
    if (close) close.tag = `h${level}`;
    // A heading of the chapter's own text (env.toc) gets an id to link to and an entry in its contents.
    if (env?.toc) {
      const inline = tokens[i + 1];
      const words = inline.children.filter((t) => t.type === 'text' || t.type === 'code_inline').map((t) => t.content).join(' ');
      const id = uniqueId(slug(words), env.toc.ids);
      tokens[i].attrSet('id', id);
      // A title with a formula also gets a plain-text label (the formula as its TeX): a link's accessible
      // name leaves out KaTeX's MathML.
      const math = inline.children.some((t) => t.type === 'math_inline');
      const label = math ? inline.children.map((t) => (t.type === 'math_inline' ? t.content : t.content ?? '')).join('').replace(/\s+/g, ' ').trim() : undefined;
      env.toc.entries.push({ level, id, html: self.renderInline(inline.children, options, env), label, exercises: [] });
    }
    return self.renderToken(tokens, i, options);
  };
  return md;
}

// The page title is the chapter's only h1, so a chapter's "# Part" is an h2, its "##" an h3, and so on
// (h6 at most). env.headings = { last } carries the level of the previous heading through a chapter's
// pieces of Markdown; a heading is never more than one level below it (h1 → h3 is not a skip readers
// can follow), so "## Check yourself first" before the first "#" is an h2 too.
function headingLevel(written, env) {
  let level = Math.min(6, written + 1);
  if (env?.headings) {
    level = Math.min(level, env.headings.last + 1);
    env.headings.last = level;
  }
  return level;
}

// A heading's id: the words of its text (its formulas are left out by the caller), lower-case, joined by
// "-" (letters of any script kept), after "sec-" so that no heading can take an id the page uses itself
// (main, app, b3, …).
export function slug(text) {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return `sec-${words.join('-') || 'section'}`;
}

function uniqueId(base, taken) {
  let id = base;
  for (let k = 2; taken.has(id); k++) id = `${base}-${k}`;
  taken.add(id);
  return id;
}

/** key=value key="with spaces" flag → { key: 'value', ..., flag: true }; onError hears of an unclosed quote. */
export function parseAttrs(text, onError = () => {}) {
  const attrs = {};
  const re = /([A-Za-z_][\w-]*)(?:=("([^"]*)"|'([^']*)'|\S+))?/g;
  let m;
  while ((m = re.exec(text))) {
    if (m[3] === undefined && m[4] === undefined && /^["']/.test(m[2] ?? '')) {
      onError(`the value of "${m[1]}" opens a quote (${m[2][0]}) that the line never closes`);
      break;
    }
    attrs[m[1]] = m[2] === undefined ? true : (m[3] ?? m[4] ?? m[2]);
  }
  return attrs;
}

export const LANGUAGES = ['en', 'zh'];

/** The languages an exercise is written in: its "languages", else those its title has (en first). */
export function exerciseLanguages(ex) {
  if (Array.isArray(ex?.languages) && ex.languages.length) return ex.languages;
  const have = LANGUAGES.filter((l) => typeof ex?.title?.[l] === 'string');
  return have.length ? have : ['en'];
}

function parseFrontMatter(lines, error) {
  if (lines[0]?.trim() !== '---') {
    error(1, 'missing front matter: the file must start with a line "---", then id, title and order, then "---"');
    return { meta: {}, bodyStart: 0, closed: true };  // the whole file is body, checked as such
  }
  const close = lines.findIndex((l, k) => k > 0 && l.trim() === '---');
  if (close < 0) {
    // Every later line would otherwise read as a bad "key: value"; one error names the cause.
    error(1, 'front matter opened here is not closed by a line "---"');
    return { meta: {}, bodyStart: lines.length, closed: false };
  }
  const meta = {};
  let i = 1;
  for (; i < close; i++) {
    const line = lines[i];
    if (!line.trim() || line.trim().startsWith('#')) continue;
    const m = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!m) { error(i + 1, `front matter: expected "key: value", got ${JSON.stringify(line)}`); continue; }
    let v = m[2].trim();
    if (/^".*"$/.test(v)) { try { v = JSON.parse(v); } catch { error(i + 1, `front matter: bad string ${v}`); } }
    else if (/^'.*'$/.test(v)) v = v.slice(1, -1);
    else if (/^-?\d+(\.\d+)?$/.test(v)) v = Number(v);
    meta[m[1]] = v;
  }
  return { meta, bodyStart: close + 1, closed: true };
}

/**
 * parseChapter(text, { file, dirId, lang, widgets, exercises, md })
 *   widgets: Set of widget names; exercises: Map id → exercise.json object (or null if unreadable).
 * Returns { meta, blocks, toc, errors }; toc: [{ level, id, html, label? (a title with a formula, as text),
 *   exercises: [exercise ids] }].
 */
export function parseChapter(text, { file, dirId, lang, widgets = new Set(), exercises = new Map(), md = createMarkdown() }) {
  const errors = [];
  const error = (line, message) => errors.push({ file, line, message });
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const { meta, bodyStart, closed } = parseFrontMatter(lines, error);
  if (!closed) return { meta, blocks: [], errors };
  if (meta.id === undefined) error(1, 'front matter: missing "id"');
  else if (dirId && meta.id !== dirId) error(1, `front matter: id "${meta.id}" does not match the folder name "${dirId}"`);
  if (!meta.title) error(1, 'front matter: missing "title"');
  if (typeof meta.order !== 'number') error(1, 'front matter: "order" must be a number');
  // languages: the languages the chapter is written in ("en", "[en, zh]"); without it, both. A chapter in one
  // language is built alone, and the page says so to a reader who asked for the other.
  if (meta.languages !== undefined) {
    const list = String(meta.languages).replace(/^\[|\]$/g, '').split(/[\s,]+/).filter(Boolean);
    const bad = list.filter((l) => !LANGUAGES.includes(l));
    if (!list.length || bad.length) error(1, `front matter: "languages" must list ${LANGUAGES.join(' and/or ')}, got ${JSON.stringify(String(meta.languages))}`);
    else if (lang && !list.includes(lang)) error(1, `front matter: "languages" is ${list.join(', ')} but this file is the ${lang} text`);
    meta.languages = list;
  }

  const root = { children: [] };
  const stack = [root];
  const top = () => stack.at(-1);
  let mdLines = [];
  let mdStart = 0;
  let cellCount = 0;
  const cellIds = new Set();

  // KaTeX errors (collected by md-math into env.errors, each with its line in text) become author errors.
  // at: the chapter line of the text's first line, or { line, prefix } for text from elsewhere (an
  // exercise statement), whose errors all point at the chapter line that shows it.
  const reportMath = (env, at) => {
    const seen = new Set();
    for (const e of env.errors) {
      const key = `${e.line}:${e.message}`;
      if (!seen.has(key)) error(typeof at === 'number' ? at + e.line : at.line, (at.prefix ?? '') + e.message);
      seen.add(key);
    }
  };
  const headings = { last: 1 }; // the chapter's title is the h1
  // The contents: the headings of the chapter's own text outside :::details, in order, each with the
  // exercises between it and the next heading.
  const toc = { entries: [], ids: new Set() };
  const placed = new Map();  // exercise id → the line that places it
  const renderMarkdown = (text, at, { own = false } = {}) => {
    // An exercise's statement has headings of its own (if any): they do not move the chapter's.
    const env = { errors: [], headings: own ? { last: headings.last + 1 } : headings, toc: own || stack.length > 1 ? null : toc };
    const htmlOut = md.render(text, env);
    reportMath(env, at);
    return htmlOut;
  };
  // Every block records subLevel: the level of a heading the page would add just before it (the
  // weights panel's title, an exercise's title), one below the section heading in effect there.
  const push = (block) => {
    block.subLevel = Math.min(6, headings.last + 1);
    top().children.push(block);
  };
  const flush = () => {
    const text = mdLines.join('\n');
    if (text.trim()) {
      const subLevel = Math.min(6, headings.last + 1);  // before this text's own headings
      top().children.push({ type: 'md', md: text, html: renderMarkdown(text, mdStart), line: mdStart, subLevel });
    }
    mdLines = [];
  };
  const pushMd = (line, n) => {
    if (!mdLines.length) mdStart = n;
    mdLines.push(line);
  };

  for (let i = bodyStart; i < lines.length; i++) {
    const line = lines[i];
    const n = i + 1;
    const fence = FENCE.exec(line);
    if (fence) {
      const [, indent, marker, info, rest] = fence;
      const closeRe = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
      let j = i + 1;
      while (j < lines.length && !closeRe.test(lines[j])) j++;
      if (j >= lines.length) {
        error(n, `unclosed code fence ${marker}${info}: no closing ${marker} before the end of the file`);
        break;
      }
      // A fence of the same kind with a language inside this one (```js id=next) is almost surely the
      // next block's opening line: the closing line before it is missing. (Show fences inside a fence
      // by using a longer one outside, as FORMAT.md does.)
      const sameOpener = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length}}\\s*[^\\s\`~]`);
      const inner = lines.slice(i + 1, j).findIndex((l) => sameOpener.test(l));
      if (inner >= 0) {
        error(n, `code fence ${marker}${info} is not closed before line ${i + 2 + inner}, which opens another fence`);
      }
      const lang = info.toLowerCase();
      if ((lang === 'js' || lang === 'javascript') && indent.length === 0) {
        flush();
        const attrs = parseAttrs(rest);
        for (const key of Object.keys(attrs).filter((k) => !CELL_ATTRS.includes(k))) {
          error(n, `unknown cell attribute "${key}" (known: ${CELL_ATTRS.join(', ')}; an id is written id=my-cell)`);
        }
        if (attrs.id === true) error(n, 'cell attribute "id" needs a value, e.g. id=my-cell');
        const id = typeof attrs.id === 'string' ? attrs.id : `c${cellCount + 1}`;
        cellCount++;
        if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) error(n, `cell id "${id}" must be 1-64 letters, digits, - or _`);
        if (cellIds.has(id)) error(n, `duplicate cell id "${id}"`);
        cellIds.add(id);
        const source = lines.slice(i + 1, j).join('\n');
        try {
          transformCell(source); // the cell runner's own parse: what fails here fails in the reader's page
        } catch (e) {
          error(n + (e.line ?? 1), `cell "${id}": ${e.name ?? 'SyntaxError'}: ${e.message}`);
        }
        push({ type: 'cell', id, source, line: n, info: line.trim().slice(marker.length) });
      } else {
        for (let k = i; k <= j; k++) pushMd(lines[k], k + 1);
      }
      i = j;
      continue;
    }
    const dir = line.startsWith(':::') ? DIRECTIVE.exec(line) : null;
    if (!dir) { pushMd(line, n); continue; }
    const [, name, arg] = dir;
    flush();
    if (!name) {
      if (stack.length === 1) error(n, '":::" closes nothing: no :::details is open');
      else stack.pop();
      continue;
    }
    switch (name) {
      case 'widget': {
        const [wname, ...restArgs] = arg.trim().split(/\s+/);
        if (!wname) error(n, ':::widget needs a name, e.g. ":::widget slider"');
        else if (!widgets.has(wname)) error(n, `unknown widget "${wname}" (known: ${[...widgets.keys()].sort().join(', ') || 'none'})`);
        const props = parseAttrs(restArgs.join(' '), (message) => error(n, message));
        const takes = widgets instanceof Map ? widgets.get(wname) : null;
        for (const key of takes ? Object.keys(props).filter((k) => !takes.includes(k)) : []) {
          const near = takes.find((t) => t.toLowerCase() === key.toLowerCase() || t.startsWith(key) || key.startsWith(t));
          error(n, `widget "${wname}" takes no prop "${key}"${near ? ` (did you mean ${near}?)` : ''}; its props: ${takes.join(', ') || 'none'}`);
        }
        push({ type: 'widget', name: wname, props, line: n, raw: line });
        break;
      }
      case 'exercise': {
        const id = arg.trim();
        if (!id) { error(n, ':::exercise needs an exercise id, e.g. ":::exercise lora-params"'); break; }
        if (/\s/.test(id)) { error(n, `:::exercise takes one exercise id, got "${id}"`); break; }
        if (!exercises.has(id)) { error(n, `unknown exercise "${id}" (no exercises/${id}/exercise.json)`); break; }
        if (placed.has(id)) error(n, `exercise "${id}" is already placed on line ${placed.get(id)}: a reader's attempt is kept once per exercise`);
        else placed.set(id, n);
        if (exercises.get(id) === null) break;  // invalid: its own error says why
        const ex = exercises.get(id);
        // An exercise written in other languages only (its "languages") is shown in its first one, marked.
        const exLangs = exerciseLanguages(ex);
        const shownLang = exLangs.includes(lang) ? lang : exLangs[0];
        for (const field of ['title', 'statement']) {
          if (typeof ex[field]?.[shownLang] !== 'string' || !ex[field][shownLang].trim()) {
            error(n, `exercise "${id}" has no ${shownLang} ${field} (exercises/${id}/exercise.json "${field}": {"${shownLang}": ...})`);
          }
        }
        const pick = (v) => (v && typeof v === 'object' && !Array.isArray(v) ? v[shownLang] ?? v.en ?? Object.values(v)[0] : v);
        const statement = pick(ex.statement);
        toc.entries.at(-1)?.exercises.push(id);
        push({
          type: 'exercise', id, line: n, raw: line,
          title: pick(ex.title) ?? id,
          ...(shownLang !== lang ? { textLang: shownLang } : {}),
          exercise: ex,
          // A formula error in the statement is the exercise's, reported where the chapter shows it.
          statementHtml: typeof statement === 'string'
            ? renderMarkdown(statement, { line: n, prefix: `in the ${shownLang} statement of exercises/${id}/exercise.json: ` }, { own: true }) : '',
        });
        break;
      }
      case 'details': {
        const summaryEnv = { errors: [] };
        const summaryHtml = md.renderInline(arg.trim() || (DETAILS_SUMMARY[lang] ?? DETAILS_SUMMARY.en), summaryEnv);
        reportMath(summaryEnv, n);
        const block = { type: 'details', summary: arg.trim(), summaryHtml, children: [], line: n };
        push(block);
        stack.push(block);
        break;
      }
      default:
        error(n, `unknown directive ":::${name}" (known: ${DIRECTIVES.join(', ')})`);
    }
  }
  flush();
  for (const open of stack.slice(1)) error(open.line, ':::details is never closed by a line ":::"');
  return { meta, blocks: root.children, toc: toc.entries, errors };
}


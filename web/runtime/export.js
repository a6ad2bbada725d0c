// Exports of a chapter with the reader's current cells: Markdown in the chapter format, and Jupyter
// nbformat 4.5. Pure functions of the chapter JSON the build writes (no DOM), so Node tests can call them.

/** The chapter's Markdown again, with each cell's source replaced by `sources[cellId]` when given. */
export function chapterToMarkdown(chapter, sources = {}) {
  const out = ['---', `id: ${chapter.id}`, `title: ${JSON.stringify(chapter.title)}`, `order: ${chapter.order}`, '---', ''];
  const walk = (blocks) => {
    for (const b of blocks) {
      if (b.type === 'md') out.push(b.md, '');
      else if (b.type === 'cell') out.push('```' + b.info, sources[b.id] ?? b.source, '```', '');
      else if (b.type === 'details') { out.push(`:::details ${b.summary}`.trimEnd(), ''); walk(b.children); out.push(':::', ''); }
      else out.push(b.raw, '');
    }
  };
  walk(chapter.blocks);
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

function outputToJupyter(o) {
  switch (o.kind) {
    case 'stream': return { output_type: 'stream', name: o.name === 'stderr' ? 'stderr' : 'stdout', text: o.text };
    case 'text': case 'tensor': return { output_type: 'display_data', data: { 'text/plain': o.text }, metadata: {} };
    case 'html': return { output_type: 'display_data', data: { 'text/html': o.html, 'text/plain': '[HTML]' }, metadata: {} };
    case 'table': {
      const esc = (v) => String(v).replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);
      const htmlTable = `<table><thead><tr>${o.columns.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>` +
        o.rows.map((r) => `<tr>${r.map((v) => `<td>${esc(v)}</td>`).join('')}</tr>`).join('') + '</tbody></table>';
      const plain = [o.columns.join('\t'), ...o.rows.map((r) => r.join('\t'))].join('\n');
      return { output_type: 'display_data', data: { 'text/html': htmlTable, 'text/plain': plain }, metadata: {} };
    }
    case 'plot': {
      const data = { 'text/plain': o.description ?? `[${o.spec?.kind ?? ''} plot]` };
      if (o.svg) data['image/svg+xml'] = o.svg;
      return { output_type: 'display_data', data, metadata: {} };
    }
    case 'error': return { output_type: 'error', ename: o.error.name ?? 'Error', evalue: o.error.message ?? '', traceback: [`${o.error.name}: ${o.error.message}${o.error.line ? ` (line ${o.error.line})` : ''}`] };
    default: return null;
  }
}

/** A localized field ({ en, zh } or a string) in `lang`, else English, else any. */
function localized(field, lang) {
  if (field == null || typeof field === 'string') return field ?? '';
  return field[lang] ?? field.en ?? Object.values(field)[0] ?? '';
}

/** The Markdown of blocks inside :::details, as one piece (code cells as fenced code). */
function detailsMarkdown(blocks, sources) {
  return blocks.map((b) => {
    if (b.type === 'md') return b.md.trim();
    if (b.type === 'cell') return '```js\n' + (sources[b.id] ?? b.source) + '\n```';
    if (b.type === 'details') return `<details><summary>${b.summary}</summary>\n\n${detailsMarkdown(b.children, sources)}\n\n</details>`;
    return '';
  }).filter(Boolean).join('\n\n');
}

/**
 * toIpynb(chapter, { sources, outputs, counts, reader, exercises, version }) → an nbformat 4.5 notebook object.
 * sources[cellId] overrides a cell's text; outputs[cellId] is the list of page outputs; counts[cellId] its
 * run number. reader: the reader's own cells, { top: [cell], after: Map(block → [cell]) } with cell =
 * { id, type: 'code' | 'md', source, outputs?, count? }. exercises[id]: the reader's answer (else the
 * starter is exported). An exercise becomes its statement (Markdown) and a code cell with the answer; a
 * :::details block becomes one collapsed Markdown block.
 */
export function toIpynb(chapter, { sources = {}, outputs = {}, counts = {}, reader = {}, exercises = {}, version = null } = {}) {
  const lang = chapter.lang ?? 'en';
  const cells = [];
  let mdCount = 0;
  const markdown = (text, metadata = {}) => {
    if (!text.trim()) return;
    cells.push({ cell_type: 'markdown', id: `md-${++mdCount}`, metadata, source: text });
  };
  const code = (id, source, { outs = [], count = null, metadata = {} } = {}) => {
    cells.push({ cell_type: 'code', id, metadata, execution_count: count, source, outputs: outs.map(outputToJupyter).filter(Boolean) });
  };
  const readerCells = (list) => {
    for (const c of list ?? []) {
      const metadata = { tensorpad: { reader: true } };
      if (c.type === 'md') cells.push({ cell_type: 'markdown', id: c.id, metadata, source: c.source });
      else code(c.id, c.source, { outs: c.outputs ?? [], count: c.count ?? null, metadata });
    }
  };
  const walk = (blocks) => {
    for (const b of blocks) {
      if (b.type === 'md') markdown(b.md);
      else if (b.type === 'cell') code(b.id, sources[b.id] ?? b.source, { outs: outputs[b.id] ?? [], count: counts[b.id] ?? null });
      else if (b.type === 'details') markdown(`<details><summary>${b.summary}</summary>\n\n${detailsMarkdown(b.children, sources)}\n\n</details>`);
      else if (b.type === 'widget') markdown(`*(Interactive widget \`${b.name}\`: open the chapter in Tensorpad to use it.)*`);
      else if (b.type === 'exercise') {
        const ex = b.exercise ?? {};
        markdown(`**${lang === 'zh' ? '练习' : 'Exercise'}: ${b.title ?? ex.id ?? b.id}** (\`${b.id}\`)\n\n${localized(ex.statement, lang)}`.trim(), { tensorpad: { exercise: b.id } });
        code(`exercise-${b.id}`, exercises[b.id] ?? localized(ex.starter, lang), { metadata: { tensorpad: { exercise: b.id } } });
      }
      readerCells(reader.after?.get(b));
    }
  };
  readerCells(reader.top);
  walk(chapter.blocks);
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'javascript', display_name: 'JavaScript (Tensorpad)', language: 'javascript' },
      language_info: { name: 'javascript', file_extension: '.js', mimetype: 'text/javascript' },
      tensorpad: { chapter: chapter.id, lang, title: chapter.title, version },
    },
    cells,
  };
}

/**
 * fromIpynb(notebook) → { cells: [{ type: 'code' | 'md', source }], meta } for an nbformat 4 notebook whose
 * code is JavaScript; throws an Error with `reason` ('not-json' | 'not-notebook' | 'python' | 'language')
 * and a message naming what was found.
 */
export function fromIpynb(notebook) {
  let nb = notebook;
  if (typeof nb === 'string') {
    try {
      nb = JSON.parse(nb);
    } catch (e) {
      throw Object.assign(new Error(`not a notebook: the file is not JSON (${e.message})`), { reason: 'not-json' });
    }
  }
  if (!nb || typeof nb !== 'object' || !Array.isArray(nb.cells) || typeof nb.nbformat !== 'number') {
    throw Object.assign(new Error('not a notebook: an .ipynb file has "nbformat" and a list of "cells"'), { reason: 'not-notebook' });
  }
  if (nb.nbformat !== 4) throw Object.assign(new Error(`nbformat ${nb.nbformat} notebooks cannot be opened here (nbformat 4 can)`), { reason: 'not-notebook' });
  const language = String(nb.metadata?.kernelspec?.language ?? nb.metadata?.language_info?.name ?? 'javascript').toLowerCase();
  if (language === 'python') throw Object.assign(new Error('this is a Python notebook: its code cells cannot run here, where cells are JavaScript'), { reason: 'python', language });
  if (!['javascript', 'js', 'typescript'].includes(language)) throw Object.assign(new Error(`this notebook's code is ${language}: cells here are JavaScript`), { reason: 'language', language });
  const text = (src) => (Array.isArray(src) ? src.join('') : String(src ?? ''));
  const cells = nb.cells.flatMap((c) => {
    if (c.cell_type === 'code') return [{ type: 'code', source: text(c.source) }];
    if (c.cell_type === 'markdown' || c.cell_type === 'raw') return [{ type: 'md', source: text(c.source) }];
    return [];
  });
  return { cells, meta: nb.metadata?.tensorpad ?? null };
}

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

/**
 * toIpynb(chapter, { sources, outputs, counts }) → an nbformat 4.5 notebook object.
 * sources[cellId] overrides a cell's text; outputs[cellId] is the list of page outputs; counts[cellId] its run number.
 */
export function toIpynb(chapter, { sources = {}, outputs = {}, counts = {} } = {}) {
  const cells = [];
  let mdCount = 0;
  const markdown = (text) => {
    if (!text.trim()) return;
    cells.push({ cell_type: 'markdown', id: `md-${++mdCount}`, metadata: {}, source: text });
  };
  const walk = (blocks) => {
    for (const b of blocks) {
      if (b.type === 'md') markdown(b.md);
      else if (b.type === 'cell') {
        cells.push({
          cell_type: 'code', id: b.id, metadata: {}, execution_count: counts[b.id] ?? null,
          source: sources[b.id] ?? b.source,
          outputs: (outputs[b.id] ?? []).map(outputToJupyter).filter(Boolean),
        });
      } else if (b.type === 'details') {
        markdown(`<details><summary>${b.summary}</summary>\n`);
        walk(b.children);
        markdown('</details>');
      } else if (b.type === 'widget') markdown(`*(Interactive widget \`${b.name}\`: open the chapter in Tensorpad to use it.)*`);
      else if (b.type === 'exercise') markdown(`**Exercise \`${b.id}\`**${b.title ? `: ${b.title}` : ''}`);
    }
  };
  walk(chapter.blocks);
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'javascript', display_name: 'JavaScript (Tensorpad)', language: 'javascript' },
      language_info: { name: 'javascript', file_extension: '.js', mimetype: 'text/javascript' },
      tensorpad: { chapter: chapter.id, lang: chapter.lang, title: chapter.title },
    },
    cells,
  };
}

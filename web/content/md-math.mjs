// A markdown-it plugin for KaTeX math: inline $…$ and \(…\), display $$…$$ and \[…\] (inline or as blocks).
// A KaTeX error is recorded in env.errors with its line (relative to the rendered text) instead of rendering.
import katex from 'katex';

function inlineMath(state, silent) {
  const src = state.src;
  const start = state.pos;
  let open, close, display;
  if (src.startsWith('$$', start)) { open = '$$'; close = '$$'; display = true; }
  else if (src[start] === '$') { open = '$'; close = '$'; display = false; }
  else if (src.startsWith('\\(', start)) { open = '\\('; close = '\\)'; display = false; }
  else if (src.startsWith('\\[', start)) { open = '\\['; close = '\\]'; display = true; }
  else return false;
  const from = start + open.length;
  if (open === '$') {
    // Pandoc's rule: no space after the opening $, none before the closing $, no digit right after it.
    if (/\s/.test(src[from] ?? ' ')) return false;
  }
  let end = from;
  for (;;) {
    end = src.indexOf(close, end);
    if (end < 0) return false;
    if (src[end - 1] === '\\' && open === '$') { end += 1; continue; }
    if (open === '$' && (/\s/.test(src[end - 1]) || /\d/.test(src[end + 1] ?? ''))) { end += 1; continue; }
    break;
  }
  if (end === from) return false;
  if (!silent) {
    const token = state.push('math_inline', 'math', 0);
    token.content = src.slice(from, end);
    token.markup = open;
    token.meta = { display, pos: start };
  }
  state.pos = end + close.length;
  return true;
}

function blockMath(state, startLine, endLine, silent) {
  const lineText = (n) => state.src.slice(state.bMarks[n] + state.tShift[n], state.eMarks[n]);
  const first = lineText(startLine);
  let open, close;
  if (first.startsWith('$$')) { open = '$$'; close = '$$'; }
  else if (first.startsWith('\\[')) { open = '\\['; close = '\\]'; }
  else return false;
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  let content;
  let line = startLine;
  const rest = first.slice(open.length);
  const sameLine = rest.indexOf(close);
  if (sameLine >= 0) {
    if (rest.slice(sameLine + close.length).trim()) return false;
    content = rest.slice(0, sameLine);
  } else {
    const parts = [rest];
    let found = false;
    while (++line < endLine) {
      const t = lineText(line);
      const at = t.indexOf(close);
      if (at >= 0) {
        parts.push(t.slice(0, at));
        found = true;
        break;
      }
      parts.push(t);
    }
    if (!found) {
      (state.env.errors ??= []).push({ line: startLine, message: `unclosed display math ${open}: no ${close} after it` });
      return false;
    }
    content = parts.join('\n');
  }
  if (silent) return true;
  const token = state.push('math_block', 'math', 0);
  token.block = true;
  token.content = content;
  token.markup = open;
  token.map = [startLine, line + 1];
  state.line = line + 1;
  return true;
}

// Give each inline math token the line it sits on: its block's first line plus the newlines before it.
function markLines(state) {
  for (const block of state.tokens) {
    if (block.type !== 'inline' || !block.map || !block.children) continue;
    for (const t of block.children) {
      if (t.type === 'math_inline') {
        const before = block.content.slice(0, t.meta.pos);
        t.meta.line = block.map[0] + (before.match(/\n/g)?.length ?? 0);
      }
    }
  }
}

function render(tex, displayMode, line, env) {
  try {
    return katex.renderToString(tex, { displayMode, throwOnError: true, strict: 'ignore', output: 'htmlAndMathml' });
  } catch (e) {
    // KaTeX underlines the culprit with U+0332; plain text reads better in a terminal.
    (env.errors ??= []).push({ line, message: `KaTeX: ${String(e.message).replace(/^KaTeX parse error: /, '').replace(/\u0332/g, '')}` });
    return `<code class="math-error">${tex.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c])}</code>`;
  }
}

export default function mathPlugin(md) {
  md.inline.ruler.before('escape', 'math_inline', inlineMath);
  md.block.ruler.before('fence', 'math_block', blockMath, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
  md.core.ruler.after('inline', 'math_lines', markLines);
  // Chinese punctuation right after a formula stays on the formula's line: a browser may break between a
  // formula (an inline block) and a full-width "；", which would start a line with it. The mark moves into
  // the formula's token once, when the text is parsed: a heading's tokens are rendered twice (the page and
  // the contents).
  md.core.ruler.after('inline', 'math_cjk_punct', (state) => {
    for (const block of state.tokens) {
      const kids = block.type === 'inline' ? block.children ?? [] : [];
      kids.forEach((t, i) => {
        const next = kids[i + 1];
        const punct = t.type === 'math_inline' && !t.meta.display && next?.type === 'text' && /^[，。；：！？、）」』”’]/.exec(next.content)?.[0];
        if (!punct) return;
        t.meta.after = punct;
        next.content = next.content.slice(punct.length);
      });
    }
  });
  md.renderer.rules.math_inline = (tokens, i, _o, env) => {
    const { content, meta } = tokens[i];
    const html = render(content, meta.display, meta.line ?? 0, env);
    return meta.after ? `<span class="math-nobr">${html}${meta.after}</span>` : html;
  };
  md.renderer.rules.math_block = (tokens, i, _o, env) => `<div class="math-display">${render(tokens[i].content, true, tokens[i].map[0], env)}</div>\n`;
}

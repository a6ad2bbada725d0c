// Reads a solution's source before it runs, with the evaluator's own reading of it (web/runtime/module.js):
// syntax errors with their line and a caret, and the required functions it does not export.
//   inspectSolution(source, required, filename, lang) → { ok: true, exported } | { ok: false, kind, message, line? }
// Messages are in the reader's language (lang, default English); the parser's own text stays as it is.

import { tokenizer } from 'acorn';
import { moduleShape } from '../../runtime/module.js';
import { messages, DEFAULT_LANG } from './messages.js';

const PARSE_OPTIONS = { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true, locations: true };
const OPENERS = new Set(['{', '(', '[', '${']);
const CLOSERS = new Set(['}', ')', ']']);

// Errors an unclosed bracket explains, though the parser reports them later, where it notices: a missing
// `}` makes the next `export` nested ("may only appear at the top level"), or the input end too early.
function blamesUnclosedBracket(err, source) {
  return /^'import' and 'export' may only appear at the top level/.test(err.message) ||
    (/^Unexpected token/.test(err.message) && source.slice(err.pos).trim() === '');
}

// The innermost bracket still open where the parser stopped: { bracket, line } or null.
function unclosedBracketBefore(source, pos) {
  const open = [];
  try {
    for (const token of tokenizer(source, PARSE_OPTIONS)) {
      if (token.start >= pos) break;
      const label = token.type.label;
      if (OPENERS.has(label)) open.push({ bracket: label, line: token.loc.start.line });
      else if (CLOSERS.has(label)) open.pop();
    }
  } catch {
    // a token that does not lex ends the scan; the brackets open before it still count
  }
  return open.at(-1) ?? null;
}

function syntaxMessage(err, source, filename, M) {
  const line = err.line ?? undefined;
  const column = err.column ? err.column - 1 : 0;
  const text = err.message;
  let message = `${filename}:${line}:${column + 1}: SyntaxError: ${text}`;
  if (line) {
    const code = source.split('\n')[line - 1] ?? '';
    message += `\n  ${line} | ${code}\n  ${' '.repeat(String(line).length)} | ${' '.repeat(column)}^`;
  }
  if (blamesUnclosedBracket(err, source)) message += `\n${M.unclosedBracket(unclosedBracketBefore(source, err.pos))}`;
  return { ok: false, kind: 'syntax', message, line, column: column + 1 };
}

export function inspectSolution(source, required, filename = 'solution.js', lang = DEFAULT_LANG) {
  const M = messages(lang);
  let shape;
  try {
    shape = moduleShape(source);
  } catch (err) {
    if (err.name !== 'SyntaxError') throw err;
    return syntaxMessage(err, source, filename, M);
  }
  if (!shape.star) {
    const missing = required.filter((n) => !shape.exports.includes(n));
    if (missing.length) {
      const declaredOnly = missing.filter((n) => shape.declared.includes(n));
      let message = M.missingExport(filename, missing.map((n) => `\`${n}\``).join(', '), required.join(', '));
      if (declaredOnly.length) message += M.declaredNotExported(declaredOnly.join(', '));
      if (/\bmodule\.exports\b|\bexports\.\w+\s*=/.test(source)) message += M.commonJs;
      return { ok: false, kind: 'missing-export', message, missing };
    }
  }
  return { ok: true, exported: shape.star ? null : shape.exports };
}

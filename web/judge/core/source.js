// Reads a solution's source before it runs: syntax errors with their line, the names it exports,
// and, for code typed in the page's editor, plain top-level declarations turned into exports.
//   inspectSolution(source, required, filename, lang) → { ok: true, source, exported } | { ok: false, kind, message, line? }
// Messages are in the reader's language (lang, default English); the parser's own text stays as it is.

import { parse, tokenizer } from 'acorn';
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
  const line = err.loc ? err.loc.line : undefined;
  const column = err.loc ? err.loc.column : 0;
  const text = err.message.replace(/\s*\(\d+:\d+\)$/, '');
  let message = `${filename}:${line}:${column + 1}: SyntaxError: ${text}`;
  if (line) {
    const code = source.split('\n')[line - 1] ?? '';
    message += `\n  ${line} | ${code}\n  ${' '.repeat(String(line).length)} | ${' '.repeat(column)}^`;
  }
  if (blamesUnclosedBracket(err, source)) message += `\n${M.unclosedBracket(unclosedBracketBefore(source, err.pos))}`;
  return { ok: false, kind: 'syntax', message, line, column: column + 1 };
}

function declaredNames(node, out) {
  if (node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') {
    if (node.id) out.add(node.id.name);
  } else if (node.type === 'VariableDeclaration') {
    for (const d of node.declarations) if (d.id.type === 'Identifier') out.add(d.id.name);
  }
}

export function inspectSolution(source, required, filename = 'solution.js', lang = DEFAULT_LANG) {
  const M = messages(lang);
  let ast;
  try {
    ast = parse(source, PARSE_OPTIONS);
  } catch (err) {
    return syntaxMessage(err, source, filename, M);
  }
  const declared = new Set();
  const exported = new Set();
  let hasExports = false;
  let starExport = false;
  for (const node of ast.body) {
    declaredNames(node, declared);
    if (node.type === 'ExportNamedDeclaration') {
      hasExports = true;
      if (node.declaration) declaredNames(node.declaration, exported);
      for (const s of node.specifiers || []) exported.add(s.exported.name ?? s.exported.value);
      if (node.declaration) declaredNames(node.declaration, declared);
    } else if (node.type === 'ExportDefaultDeclaration') {
      hasExports = true;
    } else if (node.type === 'ExportAllDeclaration') {
      hasExports = true;
      starExport = true;
    }
  }
  let out = source;
  if (!hasExports) {
    // Code typed like a notebook cell: export the required functions it declares at top level.
    const names = required.filter((n) => declared.has(n));
    if (names.length) out = `${source}\n;export { ${names.join(', ')} };\n`;
    names.forEach((n) => exported.add(n));
  }
  if (!starExport) {
    const missing = required.filter((n) => !exported.has(n));
    if (missing.length) {
      const declaredOnly = missing.filter((n) => declared.has(n));
      let message = M.missingExport(filename, missing.map((n) => `\`${n}\``).join(', '), required.join(', '));
      if (declaredOnly.length) message += M.declaredNotExported(declaredOnly.join(', '));
      if (/\bmodule\.exports\b|\bexports\.\w+\s*=/.test(source)) message += M.commonJs;
      return { ok: false, kind: 'missing-export', message, missing };
    }
  }
  return { ok: true, source: out, exported: starExport ? null : [...exported] };
}

// Node reports a module's syntax error in the first line of its stack: "file:///x.mjs:3".
export function lineFromModuleError(err) {
  const m = /:(\d+)(?::(\d+))?\s*\n/.exec(String(err && err.stack));
  return m ? Number(m[1]) : undefined;
}

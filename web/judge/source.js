// Reads a solution's source before it runs: syntax errors with their line, the names it exports,
// and, for code typed in the page's editor, plain top-level declarations turned into exports.
//   inspectSolution(source, required, filename) → { ok: true, source, exported } | { ok: false, kind, message, line? }

import { parse } from 'acorn';

function syntaxMessage(err, source, filename) {
  const line = err.loc ? err.loc.line : undefined;
  const column = err.loc ? err.loc.column : 0;
  const text = err.message.replace(/\s*\(\d+:\d+\)$/, '');
  let message = `${filename}:${line}:${column + 1}: SyntaxError: ${text}`;
  if (line) {
    const code = source.split('\n')[line - 1] ?? '';
    message += `\n  ${line} | ${code}\n  ${' '.repeat(String(line).length)} | ${' '.repeat(column)}^`;
  }
  return { ok: false, kind: 'syntax', message, line, column: column + 1 };
}

function declaredNames(node, out) {
  if (node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') {
    if (node.id) out.add(node.id.name);
  } else if (node.type === 'VariableDeclaration') {
    for (const d of node.declarations) if (d.id.type === 'Identifier') out.add(d.id.name);
  }
}

export function inspectSolution(source, required, filename = 'solution.js') {
  let ast;
  try {
    ast = parse(source, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true, locations: true });
  } catch (err) {
    return syntaxMessage(err, source, filename);
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
      let message = `${filename} does not export ${missing.map((n) => `\`${n}\``).join(', ')}` +
        ` (required: ${required.join(', ')})`;
      if (declaredOnly.length) message += `; ${declaredOnly.join(', ')} is declared but not exported`;
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

// Where a solution imports from: every import declaration, re-export and import() expression in its source,
// found by parsing (acorn). The page refuses a solution that has any; the CLI's sandbox grants read access to
// the files they name.
//   importsIn(source) → [{ line, what, specifier }]   specifier: the string literal, or null (import(expr))
// A source that does not parse imports nothing: the judge reports the syntax error itself.

import { parse } from 'acorn';

const PARSE_OPTIONS = { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true, locations: true };

export function importsIn(source) {
  let ast;
  try {
    ast = parse(source, PARSE_OPTIONS);
  } catch {
    return [];
  }
  const found = [];
  const literal = (node) => (node?.type === 'Literal' && typeof node.value === 'string' ? node.value : null);
  // every node, by its object-valued fields (no walker dependency for four node types)
  const stack = [ast];
  while (stack.length) {
    const node = stack.pop();
    if (Array.isArray(node)) { stack.push(...node); continue; }
    if (!node || typeof node.type !== 'string') continue;
    const line = node.loc?.start.line;
    if (node.type === 'ImportExpression') found.push({ line, what: 'import()', specifier: literal(node.source) });
    else if (node.type === 'ImportDeclaration' || ((node.type === 'ExportNamedDeclaration' || node.type === 'ExportAllDeclaration') && node.source)) {
      found.push({ line, what: `import from ${JSON.stringify(node.source.value)}`, specifier: literal(node.source) });
    }
    for (const key in node) if (key !== 'loc' && node[key] && typeof node[key] === 'object') stack.push(node[key]);
  }
  return found.sort((a, b) => a.line - b.line);
}

// The files a solution imports by relative path ('./helper.js'), found by parsing (acorn), transitively,
// and only inside the solution's own folder: the files the sandbox lets it read (one by one, never the folder).
//   importClosure(file, source, neighbours = []) → [relative path of each helper]  (never the solution itself)
// neighbours: files it may not have even when it imports them (the other submissions of a batch).
// Specifiers that are not string literals (`import('./' + name)`) name no file and grant nothing.

import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve, relative, isAbsolute } from 'node:path';
import { parse } from 'acorn';

function specifiers(source) {
  let ast;
  try {
    ast = parse(source, { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true, allowAwaitOutsideFunction: true });
  } catch {
    return [];   // a syntax error is the judge's to report; it imports nothing
  }
  const found = [];
  const literal = (node) => { if (node?.type === 'Literal' && typeof node.value === 'string') found.push(node.value); };
  const IMPORTS = new Set(['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration', 'ImportExpression']);
  // every node, by its object-valued fields (no walker dependency for four node types)
  const stack = [ast];
  while (stack.length) {
    const node = stack.pop();
    if (Array.isArray(node)) { stack.push(...node); continue; }
    if (!node || typeof node.type !== 'string') continue;
    if (IMPORTS.has(node.type)) literal(node.source);
    for (const key in node) if (node[key] && typeof node[key] === 'object') stack.push(node[key]);
  }
  return found;
}

const isFile = (p) => { try { return statSync(p).isFile(); } catch { return false; } };

export function importClosure(file, source, neighbours = []) {
  const root = dirname(resolve(file));
  const seen = new Set([resolve(file), ...neighbours.map((f) => resolve(f))]);
  const out = [];
  const visit = (from, text) => {
    for (const spec of specifiers(text)) {
      if (!/^\.\.?\//.test(spec)) continue;
      const target = resolve(dirname(from), decodeURIComponent(spec.replace(/[?#].*$/, '')));
      const rel = relative(root, target);
      if (!rel || rel.startsWith('..') || isAbsolute(rel) || seen.has(target) || !isFile(target)) continue;
      seen.add(target);
      out.push(rel);
      visit(target, readFileSync(target, 'utf8'));
    }
  };
  visit(resolve(file), source);
  return out;
}

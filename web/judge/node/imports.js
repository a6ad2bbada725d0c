// The files a solution imports by relative path ('./helper.js'), found by parsing (acorn), transitively,
// and only inside the solution's own folder: the files the sandbox lets it read (one by one, never the folder).
//   importClosure(file, source, neighbours = []) → [relative path of each helper]  (never the solution itself)
// neighbours: files it may not have even when it imports them (the other submissions of a batch).
// Specifiers that are not string literals (`import('./' + name)`) name no file and grant nothing.

import { readFileSync, statSync } from 'node:fs';
import { dirname, resolve, relative, isAbsolute } from 'node:path';
import { importsIn } from '../core/imports.js';

const specifiers = (source) => importsIn(source).map((i) => i.specifier).filter((s) => s !== null);

const isFile = (p) => { try { return statSync(p).isFile(); } catch { return false; } };

export function importClosure(file, source, neighbours = []) {
  const root = dirname(resolve(file));
  const seen = new Set([resolve(file), ...neighbours.map((f) => resolve(f))]);
  const out = [];
  const visit = (from, text) => {
    for (const spec of specifiers(text)) {
      if (!/^\.\.?\//.test(spec)) continue;
      let path;
      try {
        path = decodeURIComponent(spec.replace(/[?#].*$/, ''));
      } catch {
        continue;   // a malformed escape names no file
      }
      const target = resolve(dirname(from), path);
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

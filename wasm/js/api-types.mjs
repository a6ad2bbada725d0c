#!/usr/bin/env node
// Writes the package's TypeScript declarations (types/*.d.ts) from the one description of the API,
// wasm/js/api-doc.json. Usage: node wasm/js/api-types.mjs [--check]   (--check: exit 1 if a file is stale)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const API_DOC = path.join(root, 'wasm/js/api-doc.json');
const HEAD = '// Generated from wasm/js/api-doc.json by wasm/js/api-types.mjs: edit those, not this file.\n';

const comment = (text, indent) => `${indent}/** ${text.replace(/\*\//g, '*\\/')} */\n`;

/** The member lines of a class or interface for a list of entries. */
function members(list, indent) {
  let out = '';
  for (const m of list) {
    out += comment(`${m.doc}${m.env ? ` (${m.env} only)` : ''} @example ${m.example}`, indent);
    if (m.kind === 'getter') out += `${indent}readonly ${m.name}: ${m.type};\n`;
    else if (m.kind === 'property') out += `${indent}${m.env ? `${m.name}?` : m.name}: ${m.type};\n`;
    else if (m.kind === 'class') out += `${indent}${m.name}: ${m.signatures[0]};\n`;
    else for (const s of m.signatures) out += `${indent}${m.name}${s};\n`;
  }
  return out;
}

const ifaceName = (ns) => (ns === 'tp' ? 'Tp' : `Tp${ns.split('.').slice(1).map((w) => w[0].toUpperCase() + w.slice(1)).join('')}`);

/** { 'types/tp.d.ts': text, 'types/node.d.ts': text, 'types/browser.d.ts': text } */
export function generate(doc = JSON.parse(fs.readFileSync(API_DOC, 'utf8'))) {
  let tp = HEAD;
  for (const [name, type] of Object.entries(doc.types)) tp += `export type ${name} = ${type};\n`;
  tp += '\n/** The one error type of the API: the message names the operation ("matmul: shapes ..."), as does .op. */\n';
  tp += 'export declare class TensorpadError extends Error {\n  readonly op: string | null;\n  constructor(message: string, opts?: { op?: string });\n}\n\n';
  for (const [cls, list] of Object.entries(doc.classes)) {
    tp += `export declare class ${cls} {\n  private constructor();\n${members(list, '  ')}}\n\n`;
  }
  const spaces = Object.keys(doc.namespaces);
  for (const ns of spaces) {
    const children = spaces.filter((c) => c.startsWith(`${ns}.`) && c.split('.').length === ns.split('.').length + 1);
    // tp.linalg.norm and friends: one interface per namespace, the root holding the others.
    tp += `export interface ${ifaceName(ns)} {\n${members(doc.namespaces[ns], '  ')}`;
    for (const c of children) tp += `  ${c.split('.').pop()}: ${ifaceName(c)};\n`;
    tp += '}\n\n';
  }
  const entry = (env) => {
    let out = env === 'judge' ? `${HEAD}import type { JudgeResults } from './tp.js';\nexport type { JudgeResults } from './tp.js';\n\n`
      : `${HEAD}import type { Tp } from './tp.js';\nexport * from './tp.js';\n\n`;
    for (const m of doc.entries[env]) {
      out += comment(`${m.doc} @example ${m.example}`, '');
      if (m.kind === 'class' && env !== 'judge') out += `export { ${m.name} } from './tp.js';\n`;
      else if (m.kind === 'class') out += `export declare class ${m.name} extends Error {}\n`;
      else if (m.kind === 'constant') out += `export declare const ${m.name}: ${m.signatures[0]};\n`;
      else for (const s of m.signatures) out += `export declare function ${m.name}${s};\n`;
    }
    return out;
  };
  return Object.fromEntries([['types/tp.d.ts', tp.trimEnd() + '\n'], ...Object.keys(doc.entries).map((env) => [`types/${env}.d.ts`, entry(env)])]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  let stale = 0;
  for (const [rel, text] of Object.entries(generate())) {
    const file = path.join(root, rel);
    const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
    if (old === text) continue;
    if (check) { console.error(`api-types: ${rel} is stale: run "node wasm/js/api-types.mjs"`); stale++; continue; }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    console.log(`api-types: wrote ${rel}`);
  }
  process.exitCode = stale ? 1 : 0;
}

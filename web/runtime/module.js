// The one evaluator of a solution's source, for the page's judge and the CLI's alike: source text in, its
// exports out, with the semantics of a strict ES module (see web/judge/README.md, "How a solution runs").
//   moduleShape(source)                        → { exports: [name], declared: [name], explicit, star } or throws ModuleSyntaxError
//   evaluateModule(source, { file, baseUrl })  → Promise<exports>   (a null-prototype object, like a namespace)
//   locateError(err, file)                     → { line, column } in the source, or null
// It runs the code in the calling thread: the judge calls it inside its workers. No DOM, no Node API.
import { parse } from 'acorn';
import { patternNames } from './cells.js';

const AsyncFunction = (async () => {}).constructor;
const PARSE_OPTIONS = { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true, locations: true };
// Module code is strict; the body of an async function runs it with the same rules (no sloppy globals).
const PROLOGUE = "'use strict';";

/** A source that does not parse as a module: the parser's message, with the 1-based line and column. */
export class ModuleSyntaxError extends SyntaxError {
  constructor(message, { line = null, column = null, pos = null } = {}) {
    super(message);
    this.name = 'SyntaxError';
    this.line = line;
    this.column = column;
    this.pos = pos;
  }
}

function parseModule(source) {
  try {
    return parse(source, PARSE_OPTIONS);
  } catch (e) {
    throw new ModuleSyntaxError(String(e.message).replace(/\s*\(\d+:\d+\)$/, ''),
      { line: e.loc?.line ?? null, column: e.loc ? e.loc.column + 1 : null, pos: e.pos ?? null });
  }
}

function declaredBy(node, out) {
  if (node.type === 'VariableDeclaration') for (const d of node.declarations) patternNames(d.id, out);
  else if ((node.type === 'FunctionDeclaration' || node.type === 'ClassDeclaration') && node.id) out.push(node.id.name);
  return out;
}

const nameOf = (n) => n.name ?? n.value;   // an export name may be a string literal: export { a as "b-c" }

/**
 * What a module declares and exports, read from its syntax alone. A source with no `export` at all (code
 * typed like a notebook cell) exports its top-level declarations; `explicit` says which case applies.
 */
export function moduleShape(source) {
  return shapeOf(parseModule(source));
}

function shapeOf(ast) {
  const declared = [];
  const exported = [];
  let explicit = false;
  let star = false;
  for (const node of ast.body) {
    declaredBy(node, declared);
    if (node.type === 'ExportNamedDeclaration') {
      explicit = true;
      if (node.declaration) declaredBy(node.declaration, exported);
      for (const s of node.specifiers) exported.push(nameOf(s.exported));
      if (node.declaration) declaredBy(node.declaration, declared);
    } else if (node.type === 'ExportDefaultDeclaration') {
      explicit = true;
      exported.push('default');
    } else if (node.type === 'ExportAllDeclaration') {
      explicit = true;
      if (node.exported) exported.push(nameOf(node.exported));
      else star = true;
    }
  }
  const uniq = (a) => [...new Set(a)];
  return { exports: explicit ? uniq(exported) : uniq(declared), declared: uniq(declared), explicit, star };
}

/**
 * The function body that runs a module: imports become `await import()`, `export` keywords go, and a last
 * line returns the exports. Every edit keeps the newlines it replaces, so a line in the body is the same
 * line in the source (the prologue shares line 1).
 */
export function transformModule(source, { baseUrl = null } = {}) {
  const ast = parseModule(source);
  const shape = shapeOf(ast);
  const edits = [];
  const replace = (start, end, text) => {
    const newlines = source.slice(start, end).split('\n').length - 1;
    edits.push([start, end, text + '\n'.repeat(newlines)]);
  };
  const resolve = (literal) => {
    const spec = literal.value;
    const relative = /^\.{0,2}\//.test(spec);
    return JSON.stringify(relative && baseUrl ? new URL(spec, baseUrl).href : spec);
  };
  let imports = 0;
  const fresh = () => `__tp_import_${++imports}__`;
  const entries = [];   // [exported name, local expression]
  const stars = [];
  if (source.startsWith('#!')) replace(0, source.indexOf('\n') < 0 ? source.length : source.indexOf('\n'), '');

  for (const node of ast.body) {
    switch (node.type) {
      case 'ImportDeclaration': {
        const ns = fresh();
        const parts = [`const ${ns} = await import(${resolve(node.source)});`];
        for (const s of node.specifiers) {
          const from = s.type === 'ImportNamespaceSpecifier' ? ns
            : `${ns}[${JSON.stringify(s.type === 'ImportDefaultSpecifier' ? 'default' : nameOf(s.imported))}]`;
          parts.push(`const ${s.local.name} = ${from};`);
        }
        replace(node.start, node.end, parts.join(' '));
        break;
      }
      case 'ExportNamedDeclaration':
        if (node.declaration) {
          replace(node.start, node.declaration.start, '');
          for (const n of declaredBy(node.declaration, [])) entries.push([n, n]);
        } else if (node.source) {
          const ns = fresh();
          replace(node.start, node.end, `const ${ns} = await import(${resolve(node.source)});`);
          for (const s of node.specifiers) entries.push([nameOf(s.exported), `${ns}[${JSON.stringify(nameOf(s.local))}]`]);
        } else {
          replace(node.start, node.end, ';');
          for (const s of node.specifiers) entries.push([nameOf(s.exported), s.local.name]);
        }
        break;
      case 'ExportDefaultDeclaration': {
        const d = node.declaration;
        if ((d.type === 'FunctionDeclaration' || d.type === 'ClassDeclaration') && d.id) {
          replace(node.start, d.start, '');
          entries.push(['default', d.id.name]);
        } else {
          replace(node.start, d.start, 'const __tp_default__ = (');
          replace(d.end, node.end, ');');
          entries.push(['default', '__tp_default__']);
        }
        break;
      }
      case 'ExportAllDeclaration': {
        const ns = fresh();
        replace(node.start, node.end, `const ${ns} = await import(${resolve(node.source)});`);
        if (node.exported) entries.push([nameOf(node.exported), ns]);
        else stars.push(ns);
        break;
      }
    }
  }
  // import.meta is module syntax a function body refuses: give it the one field a solution may read.
  visitMeta(ast, (n) => replace(n.start, n.end, `({ url: ${JSON.stringify(baseUrl)} })`));

  if (!shape.explicit) for (const n of shape.declared) entries.push([n, n]);
  edits.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let body = '';
  let pos = 0;
  for (const [start, end, text] of edits) {
    body += source.slice(pos, start) + text;
    pos = Math.max(pos, end);
  }
  body += source.slice(pos);
  // Computed keys, so that an export named __proto__ is a property, not the object's prototype.
  const fields = entries.map(([name, local]) => `[${JSON.stringify(name)}]: ${local}`).join(', ');
  const ret = `\n;return Object.assign(Object.create(null), ${[...stars, `{ ${fields} }`].join(', ')});`;
  return { code: PROLOGUE + body + ret, shape };
}

function visitMeta(node, fn) {
  if (!node || typeof node.type !== 'string') return;
  if (node.type === 'MetaProperty' && node.meta.name === 'import') { fn(node); return; }
  for (const k of Object.keys(node)) {
    if (k === 'loc') continue;
    const v = node[k];
    if (Array.isArray(v)) for (const c of v) visitMeta(c, fn);
    else if (v && typeof v === 'object' && typeof v.type === 'string') visitMeta(v, fn);
  }
}

// The name stack frames give the code: the file name as the caller knows it (no newline can end the comment).
const sourceName = (file) => String(file).replace(/[\r\n\u2028\u2029]/g, '_');

/**
 * Runs a module's source and resolves to its exports. `file` names it in stack traces ("solution.js:3:5");
 * `baseUrl` (the file's URL, in Node) resolves its relative imports and is its import.meta.url.
 * Rejects with a ModuleSyntaxError if it does not parse, or with whatever its top level throws.
 */
export async function evaluateModule(source, { file = 'solution.js', baseUrl = null } = {}) {
  const { code } = transformModule(source, { baseUrl });
  let fn;
  try {
    fn = new AsyncFunction(`${code}\n//# sourceURL=${sourceName(file)}`);
  } catch (e) {
    // What the parser accepts and a function body refuses (rare: the parser knows module syntax).
    throw new ModuleSyntaxError(String(e.message));
  }
  try {
    return await fn();
  } catch (e) {
    throw renamed(e, file);
  }
}

// An import that fails names the module that asked for it: this file (the code runs from here), which
// means nothing to the reader; the solution's file name takes its place.
const SELF = [import.meta.url, import.meta.url.startsWith('file:') ? decodeURIComponent(new URL(import.meta.url).pathname) : null]
  .filter(Boolean);
function renamed(e, file) {
  if (e && typeof e.message === 'string' && SELF.some((s) => e.message.includes(s))) {
    try {
      e.message = SELF.reduce((m, s) => m.split(s).join(sourceName(file)), e.message);
    } catch {
      // a frozen error stays as it is
    }
  }
  return e;
}

// How many lines the Function constructor puts before the body (engine-specific; measured once).
let headerLines = null;
function functionHeaderLines() {
  if (headerLines !== null) return headerLines;
  headerLines = 0;
  try {
    new Function('throw new Error("probe")\n//# sourceURL=tp-module-probe.js')();
  } catch (e) {
    const m = /tp-module-probe\.js:(\d+):\d+/.exec(String(e.stack));
    if (m) headerLines = Number(m[1]) - 1;
  }
  return headerLines;
}

/** Where in the source an error from evaluateModule's code was thrown: its first frame in `file`. */
export function locateError(err, file = 'solution.js') {
  const name = sourceName(file);
  const stack = String(err && err.stack);
  const i = stack.indexOf(`${name}:`);
  if (i < 0) return null;
  const m = /^:(\d+):(\d+)/.exec(stack.slice(i + name.length));
  if (!m) return null;
  const line = Number(m[1]) - functionHeaderLines();
  if (line < 1) return null;
  const column = line === 1 ? Math.max(1, Number(m[2]) - PROLOGUE.length) : Number(m[2]);
  return { line, column };
}

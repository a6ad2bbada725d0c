// The notebook's REPL core, run by the cell worker: a cell's top-level declarations are rewritten into
// one shared scope object, so later cells see them and re-running a cell redefines them.
// (The judge evaluates solutions with module.js instead: strict, one module, no shared scope.)
// Usable in any JS engine with acorn; nothing here touches the DOM or Node APIs.
import { parse } from 'acorn';

export const SCOPE_PARAM = '__tp_scope__';
/** The name interruptible cell code calls at each loop iteration and after each await (see runCell's `check`). */
export const CHECK_PARAM = '__tp_check__';
const AsyncFunction = (async () => {}).constructor;
const PARSE_OPTIONS = { ecmaVersion: 'latest', sourceType: 'module', allowAwaitOutsideFunction: true, locations: true };

// A scope is a prototype-less object so `with` never resolves names like `toString` to Object.prototype.
export function createScope(initial = {}) {
  return Object.assign(Object.create(null), initial);
}

// An error raised by a cell, carried as a value: message plus the 1-based line/column in that cell.
export class CellError extends Error {
  constructor(name, message, { line = null, column = null, file = null, stack = '' } = {}) {
    super(message);
    this.name = name;
    this.line = line;
    this.column = column;
    this.file = file;
    this.cellStack = stack;
  }
  toJSON() {
    return { name: this.name, message: this.message, line: this.line, column: this.column, file: this.file };
  }
}

export function patternNames(node, out) {
  if (!node) return out;
  switch (node.type) {
    case 'Identifier': out.push(node.name); break;
    case 'ObjectPattern': for (const p of node.properties) patternNames(p.type === 'RestElement' ? p.argument : p.value, out); break;
    case 'ArrayPattern': for (const e of node.elements) patternNames(e, out); break;
    case 'RestElement': patternNames(node.argument, out); break;
    case 'AssignmentPattern': patternNames(node.left, out); break;
  }
  return out;
}

// Every identifier the cell mentions in a reading position (an over-approximation: locals count too).
function identifiers(ast) {
  const seen = new Set();
  const visit = (node, parent, key) => {
    if (!node || typeof node.type !== 'string') return;
    if (node.type === 'Identifier') {
      const isKey = (parent?.type === 'MemberExpression' && key === 'property' && !parent.computed) ||
        ((parent?.type === 'Property' || parent?.type === 'MethodDefinition' || parent?.type === 'PropertyDefinition') &&
          key === 'key' && !parent.computed && !parent.shorthand);
      if (!isKey) seen.add(node.name);
      return;
    }
    for (const k of Object.keys(node)) {
      if (k === 'loc') continue;
      const v = node[k];
      if (Array.isArray(v)) for (const c of v) visit(c, node, k);
      else if (v && typeof v === 'object' && typeof v.type === 'string') visit(v, node, k);
    }
  };
  visit(ast, null, null);
  return seen;
}

function importRewrite(node, src) {
  const from = src.slice(node.source.start, node.source.end);
  const names = [];
  const parts = [];
  let namespace = null;
  for (const s of node.specifiers) {
    names.push(s.local.name);
    if (s.type === 'ImportNamespaceSpecifier') namespace = s.local.name;
    else if (s.type === 'ImportDefaultSpecifier') parts.push(`default: ${s.local.name}`);
    else parts.push(`${src.slice(s.imported.start, s.imported.end)}: ${s.local.name}`);
  }
  const stmts = [];
  if (namespace) stmts.push(`${namespace} = await import(${from});`);
  if (parts.length) stmts.push(`({${parts.join(', ')}} = await import(${from}));`);
  if (!node.specifiers.length) stmts.push(`await import(${from});`);
  return { names, code: stmts.join(' ') };
}

/**
 * transformCell(source) rewrites a cell for runCell. Returns { code, declared, reads, hasValue }.
 * Top-level `const/let/var` become assignments into the scope, `class C` becomes `C = class C`,
 * function declarations stay (hoisted) and are copied into the scope before the body runs, `import`
 * becomes `await import()`, `export` is dropped, and a final expression statement is returned.
 * Lines are preserved so error positions map back to the cell. Throws CellError on a syntax error.
 * With `interruptible`, every loop body starts with a call of CHECK_PARAM and every `await x` becomes
 * CHECK_PARAM(await x), in functions the cell defines too, so that a flag set from outside stops the cell.
 */
export function transformCell(source, { interruptible = false } = {}) {
  let ast;
  try {
    ast = parse(source, PARSE_OPTIONS);
  } catch (e) {
    const msg = String(e.message).replace(/\s*\(\d+:\d+\)$/, '');
    throw new CellError('SyntaxError', msg, { line: e.loc?.line ?? null, column: e.loc ? e.loc.column + 1 : null });
  }
  const edits = []; // [start, end, text], non-overlapping
  const declared = [];
  const hoisted = [];
  const replace = (start, end, text) => edits.push([start, end, text]);

  const rewriteDeclaration = (decl, stmtStart, stmtEnd) => {
    switch (decl.type) {
      case 'VariableDeclaration': {
        for (const d of decl.declarations) patternNames(d.id, declared);
        replace(stmtStart, decl.declarations[0].start, ';(');
        for (const d of decl.declarations) if (!d.init) replace(d.end, d.end, ' = void 0');
        replace(decl.declarations.at(-1).end, stmtEnd, ');');
        break;
      }
      case 'FunctionDeclaration':
        declared.push(decl.id.name);
        hoisted.push(decl.id.name);
        if (stmtStart !== decl.start) replace(stmtStart, decl.start, '');
        break;
      case 'ClassDeclaration':
        declared.push(decl.id.name);
        replace(stmtStart, decl.start, `;${decl.id.name} = `);
        replace(decl.end, stmtEnd, ';');
        break;
    }
  };

  const body = ast.body;
  body.forEach((node, i) => {
    const last = i === body.length - 1;
    switch (node.type) {
      case 'VariableDeclaration': case 'FunctionDeclaration': case 'ClassDeclaration':
        rewriteDeclaration(node, node.start, node.end);
        break;
      case 'ImportDeclaration': {
        const { names, code } = importRewrite(node, source);
        declared.push(...names);
        replace(node.start, node.end, code);
        break;
      }
      case 'ExportNamedDeclaration':
        if (node.declaration) rewriteDeclaration(node.declaration, node.start, node.end);
        else replace(node.start, node.end, ';');
        break;
      case 'ExportDefaultDeclaration':
        declared.push('default');
        replace(node.start, node.declaration.start, `${SCOPE_PARAM}.default = (`);
        replace(node.declaration.end, node.end, ');');
        break;
      case 'ExportAllDeclaration':
        replace(node.start, node.end, ';');
        break;
      case 'ExpressionStatement':
        if (last && !node.directive) {
          replace(node.expression.start, node.expression.start, ';return (');
          replace(node.expression.end, node.expression.end, ')');
        }
        break;
    }
  });

  if (interruptible) instrument(ast, edits);
  // At one position: the instrumentation's closing text (innermost first), then the rewrite's edits in the
  // order they were made, then the instrumentation's opening text (outermost first).
  const group = (e) => (e[3] === 'close' ? 0 : e[3] === 'open' ? 2 : 1);
  edits.forEach((e, i) => { e[4] = i; });
  edits.sort((a, b) => a[0] - b[0] || group(a) - group(b) || (group(a) === 0 ? b[4] - a[4] : a[4] - b[4]));
  let code = '';
  let pos = 0;
  for (const [start, end, text] of edits) {
    code += source.slice(pos, start) + text;
    pos = Math.max(pos, end);
  }
  code += source.slice(pos);
  const prologue = `with (${SCOPE_PARAM}) {` + hoisted.map((n) => `${SCOPE_PARAM}.${n} = ${n};`).join('');
  const unique = [...new Set(declared)];
  const column = columnMapper(source, edits, prologue.length);
  const last = body.at(-1);
  return {
    code: prologue + code + '\n}',
    declared: unique,
    reads: [...identifiers(ast)].filter((n) => !unique.includes(n)),
    hasValue: !!last && last.type === 'ExpressionStatement' && !last.directive,
    prologueLength: prologue.length,
    column,
  };
}

// Calls CHECK_PARAM at the start of every loop body and around every await, anywhere in the cell (a loop in a
// function the cell defines runs when a later cell calls it). Only insertions: lines and the rest are kept.
function instrument(ast, edits) {
  const open = (at, text) => edits.push([at, at, text, 'open']);
  const close = (at, text) => edits.push([at, at, text, 'close']);
  const LOOPS = new Set(['ForStatement', 'ForInStatement', 'ForOfStatement', 'WhileStatement', 'DoWhileStatement']);
  const visit = (node) => {
    if (!node || typeof node.type !== 'string') return;
    if (LOOPS.has(node.type)) {
      const body = node.body;
      if (body.type === 'BlockStatement') open(body.start + 1, `${CHECK_PARAM}();`);
      else { open(body.start, `{${CHECK_PARAM}();`); close(body.end, '}'); }
    } else if (node.type === 'AwaitExpression') {
      open(node.start, `${CHECK_PARAM}(`);
      close(node.end, ')');
    }
    for (const k of Object.keys(node)) {
      if (k === 'loc') continue;
      const v = node[k];
      if (Array.isArray(v)) for (const c of v) visit(c);
      else if (v && typeof v === 'object' && typeof v.type === 'string') visit(v);
    }
  };
  visit(ast);
}

/** Thrown by the check of an interruptible cell when its flag is set: the cell stops, the scope stays. */
export class Interrupted extends Error {
  constructor() {
    super('interrupted');
    this.name = 'Interrupted';
  }
}

// The rewrite keeps lines but moves columns (`const ` becomes `;(`, `return (` is inserted, the prologue
// shares line 1): column(line, generatedColumn) → the 1-based column in the reader's text. A position
// inside inserted text maps to where it was inserted.
function columnMapper(source, edits, prologueLength) {
  const lineStarts = [0];
  for (let i = 0; i < source.length; i++) if (source.charCodeAt(i) === 10) lineStarts.push(i + 1);
  const lineOf = (offset) => {
    let lo = 0, hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid] <= offset) lo = mid; else hi = mid - 1;
    }
    return lo + 1;
  };
  const byLine = new Map();
  for (const [start, end, text] of edits) {
    const line = lineOf(start);
    if (!byLine.has(line)) byLine.set(line, []);
    byLine.get(line).push({ col: start - lineStarts[line - 1], removed: end - start, inserted: text.length });
  }
  return (line, column) => {
    if (!line || !column) return column;
    let delta = line === 1 ? prologueLength : 0;
    const g = column - 1;
    for (const e of byLine.get(line) ?? []) {
      const at = e.col + delta;
      if (g < at) break;
      if (g < at + e.inserted) return e.col + 1;
      delta += e.inserted - e.removed;
    }
    return Math.max(1, g - delta + 1);
  };
}

// How many lines the Function constructor puts before the body (engine-specific; measured once).
let headerLines = null;
function functionHeaderLines() {
  if (headerLines !== null) return headerLines;
  headerLines = 0;
  try {
    new Function('throw new Error("probe")\n//# sourceURL=tp-probe.js')();
  } catch (e) {
    const m = /tp-probe\.js:(\d+):\d+/.exec(String(e.stack));
    if (m) headerLines = Number(m[1]) - 1;
  }
  return headerLines;
}

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// Turns anything thrown by a cell into a CellError with the line inside the first cell file on the stack.
export function toCellError(err, file = null) {
  if (err instanceof CellError) return err;
  const isError = err instanceof Error || (err && typeof err === 'object' && 'message' in err && 'stack' in err);
  const name = isError ? err.name || 'Error' : 'Error';
  const message = isError ? String(err.message) : `Uncaught ${typeof err === 'string' ? JSON.stringify(err) : String(err)}`;
  const stack = isError ? String(err.stack || '') : '';
  let line = null, column = null, where = null;
  const re = /(cell-[\w.-]+?\.js):(\d+):(\d+)/g;
  const m = re.exec(stack);
  if (m) {
    where = m[1];
    line = Number(m[2]) - functionHeaderLines();
    column = Number(m[3]);
    if (line < 1) line = null;
  } else if (file) {
    const m2 = new RegExp(escapeRe(file) + ':(\\d+):(\\d+)').exec(stack);
    if (m2) { where = file; line = Number(m2[1]) - functionHeaderLines(); column = Number(m2[2]); }
  }
  return new CellError(name, message, { line, column, file: where, stack });
}

/** The source-URL name runCell gives a cell's code, so stack frames point at "cell-<id>.js". */
export function cellFileName(cellId) {
  return `cell-${String(cellId).replace(/[^\w.-]/g, '_')}.js`;
}

/**
 * runCell(source, scope, { cellId, check }) runs one cell in the shared scope.
 * Resolves to { value, declared, reads }, { error: CellError } or, when `check` (a function called at
 * every loop iteration and await; it throws to stop the cell) threw Interrupted, { interrupted: true } —
 * it never throws. Awaits a returned thenable so `fetchSomething()` as the last line shows its result.
 */
export async function runCell(source, scope, { cellId = 'anon', check = null } = {}) {
  const file = cellFileName(cellId);
  let t;
  try {
    t = transformCell(source, { interruptible: !!check });
  } catch (e) {
    return { error: toCellError(e), declared: [], reads: [] };
  }
  for (const n of t.declared) if (!Object.hasOwn(scope, n)) scope[n] = undefined;
  let fn;
  try {
    fn = new AsyncFunction(SCOPE_PARAM, CHECK_PARAM, `${t.code}\n//# sourceURL=${file}`);
  } catch (e) {
    return { error: toCellError(e, file), declared: t.declared, reads: t.reads };
  }
  try {
    let value = await fn(scope, check ?? (() => {}));
    if (value && typeof value.then === 'function') value = await value;
    return { value, hasValue: t.hasValue, declared: t.declared, reads: t.reads };
  } catch (e) {
    if (e instanceof Interrupted) return { interrupted: true, declared: t.declared, reads: t.reads };
    const error = toCellError(e, file);
    if (error.file === file) error.column = t.column(error.line, error.column);
    return { error, declared: t.declared, reads: t.reads };
  }
}

/** The names a cell reads but does not declare at top level (for re-running cells bound to a widget). */
export function cellReads(source) {
  try {
    return transformCell(source).reads;
  } catch {
    return [];
  }
}

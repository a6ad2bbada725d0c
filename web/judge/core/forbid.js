// What an exercise forbids a solution to call (exercise.json's `forbid`, minus its `allow`), enforced twice:
// the solution's tp lacks those paths (a call fails at run time, however it is spelled), and a static pass
// over the source finds the calls by name, so the hint can say which call and on which line.
//   forbidRules(exercise)                 → { forbid: [path], allow: [path] } (empty lists when none)
//   forbiddenBy(path, rules)              → the forbid entry that covers path, or null
//   restrictTp(tp, rules)                 → the tp a solution gets: forbidden paths absent (Tensor.prototype ones
//                                           deleted from the prototype of tp's tensors, in this worker only)
//   findForbiddenCalls(source, rules)     → [{ path, line, column }] in source order, one per use
// A path is `tp.a.b` (a namespace forbids all of it: 'tp.linalg') or `Tensor.prototype.method`.

import { parse } from 'acorn';

const PROTO = 'Tensor.prototype.';
const PARSE_OPTIONS = { ecmaVersion: 'latest', sourceType: 'module', allowHashBang: true, locations: true };

export function forbidRules(exercise) {
  return { forbid: [...(exercise?.forbid ?? [])], allow: [...(exercise?.allow ?? [])] };
}

const covers = (entry, path) => path === entry || path.startsWith(`${entry}.`);

export function forbiddenBy(path, { forbid = [], allow = [] } = {}) {
  if (allow.some((a) => covers(a, path))) return null;
  return forbid.find((f) => covers(f, path)) ?? null;
}

// ---- the solution's tp ----------------------------------------------------------------------------------

const isNamespace = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) &&
  Object.getPrototypeOf(v) === Object.prototype;

// A copy of namespace `obj` (at `path`) without its forbidden members; a namespace nothing touches is shared.
function strip(obj, path, rules, out = {}) {
  for (const k of Object.keys(obj)) {
    const p = `${path}.${k}`;
    const v = obj[k];
    const below = (list) => list.some((x) => x.startsWith(`${p}.`));
    if (forbiddenBy(p, rules)) {
      if (isNamespace(v) && below(rules.allow)) out[k] = strip(v, p, rules);   // keeps only what allow names
    } else {
      out[k] = isNamespace(v) && below(rules.forbid) ? strip(v, p, rules) : v;
    }
  }
  return out;
}

export function restrictTp(tp, rules) {
  if (!rules?.forbid?.length) return tp;
  const methods = rules.forbid.filter((f) => f.startsWith(PROTO) && forbiddenBy(f, rules)).map((f) => f.slice(PROTO.length));
  if (methods.length) {
    const t = tp.zeros([1]);
    let proto = Object.getPrototypeOf(t);
    t.dispose?.();
    // wherever the class chain defines it (this worker's tensors only: it is torn down after one judgement)
    for (; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const m of methods) if (Object.prototype.hasOwnProperty.call(proto, m)) delete proto[m];
    }
  }
  return strip(tp, 'tp', rules, Object.create(Object.getPrototypeOf(tp)));
}

// ---- the static pass ------------------------------------------------------------------------------------

// `tp.a.b` for a member chain rooted at the identifier `tp` (computed string keys too: tp['nn'].x), else null.
function tpPath(node) {
  const parts = [];
  while (node.type === 'MemberExpression') {
    const key = memberKey(node);
    if (key === null) return null;
    parts.unshift(key);
    node = node.object;
  }
  if (node.type === 'ChainExpression') return tpPath(node.expression);
  return node.type === 'Identifier' && node.name === 'tp' ? ['tp', ...parts].join('.') : null;
}

function memberKey(node) {
  if (!node.computed && node.property.type === 'Identifier') return node.property.name;
  if (node.computed && node.property.type === 'Literal' && typeof node.property.value === 'string') return node.property.value;
  return null;
}

function children(node) {
  const out = [];
  for (const key of Object.keys(node)) {
    if (key === 'loc' || key === 'start' || key === 'end') continue;
    const v = node[key];
    if (Array.isArray(v)) for (const x of v) { if (x && typeof x.type === 'string') out.push(x); }
    else if (v && typeof v.type === 'string') out.push(v);
  }
  return out;
}

export function findForbiddenCalls(source, rules) {
  if (!rules?.forbid?.length) return [];
  let ast;
  try {
    ast = parse(source, PARSE_OPTIONS);
  } catch {
    return [];   // a syntax error is reported on its own, before anything runs
  }
  const protoMethods = new Set(rules.forbid.filter((f) => f.startsWith(PROTO)).map((f) => f.slice(PROTO.length))
    .filter((m) => forbiddenBy(PROTO + m, rules)));
  const found = [];
  const seen = new Set();
  const add = (path, node) => {
    const key = `${path}@${node.start}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push({ path, line: node.loc.start.line, column: node.loc.start.column + 1, at: node.start });
  };
  const visit = (node, parent) => {
    if (node.type === 'MemberExpression') {
      const path = tpPath(node);
      // the longest chain is the one named: tp.linalg.svd, not tp.linalg, when both are forbidden
      if (path && !(parent?.type === 'MemberExpression' && parent.object === node && tpPath(parent))) {
        if (forbiddenBy(path, rules) && !rules.allow.some((a) => a.startsWith(`${path}.`))) add(path, node);
      } else if (!path) {
        const key = memberKey(node);
        if (key !== null && protoMethods.has(key)) add(PROTO + key, node.property);
      }
    }
    // const { svd } = tp.linalg  /  const { linalg } = tp
    if (node.type === 'VariableDeclarator' && node.id.type === 'ObjectPattern' && node.init) {
      const base = node.init.type === 'Identifier' && node.init.name === 'tp' ? 'tp'
        : node.init.type === 'MemberExpression' ? tpPath(node.init) : null;
      if (base) {
        for (const p of node.id.properties) {
          const key = p.type === 'Property' && !p.computed ? (p.key.name ?? p.key.value) : null;
          if (key && forbiddenBy(`${base}.${key}`, rules)) add(`${base}.${key}`, p);
        }
      }
    }
    for (const c of children(node)) visit(c, node);
  };
  visit(ast, null);
  return found.sort((a, b) => a.at - b.at).map(({ path, line, column }) => ({ path, line, column }));
}

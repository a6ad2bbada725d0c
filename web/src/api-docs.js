// The one description of the tp API (wasm/js/api-doc.json, which also generates the .d.ts) read as
// completion and hover documentation, so that what the editor says cannot drift from the code. Pure
// functions of the parsed JSON (Node tests call them); the page loads the JSON on first use.

/** Indexes the description: owner ('tp', 'tp.linalg', 'Tensor', …) → name → entry; plus its named types. */
export function indexDocs(doc) {
  const owners = new Map();
  for (const [owner, list] of [...Object.entries(doc.namespaces ?? {}), ...Object.entries(doc.classes ?? {})]) {
    owners.set(owner, new Map(list.map((e) => [e.name, e])));
  }
  return { owners, types: doc.types ?? {} };
}

let loading = null;
/** The indexed description, loaded once (a chunk of its own: the page pays for it at the first completion). */
export function loadDocs() {
  loading ??= import('../../wasm/js/api-doc.json').then((m) => indexDocs(m.default ?? m));
  return loading;
}

/** The entry of `owner.name`; a namespace (tp.linalg) is described by its own list. */
export function docFor(index, owner, name) {
  const entry = index?.owners.get(owner)?.get(name);
  if (entry) return entry;
  const ns = `${owner}.${name}`;
  if (index?.owners.has(ns)) return { name, kind: 'namespace', type: `namespace ${ns}`, doc: `${index.owners.get(ns).size} functions: ${[...index.owners.get(ns).keys()].slice(0, 6).join(', ')}, …` };
  return null;
}

/** One line for a completion's detail: the first signature, or a getter's type. */
export function signatureLine(entry) {
  if (!entry) return '';
  if (entry.signatures?.length) return `${entry.name}${entry.signatures[0]}`;
  return entry.type ? `${entry.name}: ${entry.type}` : entry.name;
}

/**
 * The keys an options object may take at argument `argIndex` of the entry's signatures (a `{ key?: …; … }`
 * literal, or a named type of the description that is one), e.g. ['keepdim'] for Tensor.sum's second.
 */
export function optionKeys(index, entry, argIndex) {
  const keys = new Set();
  for (const sig of entry?.signatures ?? []) {
    const params = splitParams(sig);
    const p = params[argIndex];
    if (!p) continue;
    let type = p.slice(p.indexOf(':') + 1).trim();
    if (/^[A-Z]\w*$/.test(type) && index.types[type]) type = index.types[type];
    const literal = /^\{([^]*)\}$/.exec(type.replace(/\s*\|\s*null$/, '').trim());
    if (!literal) continue;
    for (const m of literal[1].matchAll(/(?:^|[;{,])\s*([A-Za-z_$][\w$]*)\??\s*:/g)) keys.add(m[1]);
  }
  return [...keys];
}

// "(a: X, opts?: { k?: number; j?: (x: number) => void }): T" → ['a: X', 'opts?: { … }'], by depth.
function splitParams(sig) {
  const open = sig.indexOf('(');
  let depth = 0;
  let start = open + 1;
  const out = [];
  for (let i = open + 1; i < sig.length; i++) {
    const ch = sig[i];
    if ('({[<'.includes(ch)) depth++;
    else if (')}]>'.includes(ch)) {
      if (depth === 0) { if (sig.slice(start, i).trim()) out.push(sig.slice(start, i).trim()); break; }
      depth--;
    } else if (ch === ',' && depth === 0) {
      out.push(sig.slice(start, i).trim());
      start = i + 1;
    }
  }
  return out;
}

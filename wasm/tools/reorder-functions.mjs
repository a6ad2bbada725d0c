// Reorders a finished WebAssembly module's functions so that similar ones sit side by side, for gzip.
//   node wasm/tools/reorder-functions.mjs in.wasm [out.wasm]   (out defaults to in)
// Why: gzip (deflate) finds repeats only within its last 32 KB, and the linker lays functions out in
// an order that has nothing to do with their likeness: the template instances of one loop, the guard
// lambdas of the bindings or the dtype paths of an op are spread over 500 KB of code. Placed near each
// other, the same module compresses ~5% smaller (zlib -9 on 250ffd2: web 217,367 -> 206,631, web-mt
// 227,970 -> 216,706; the raw size within a few bytes).
// What changes: only the order of the defined functions (the function and code sections) and so their
// indices, rewritten wherever a function index appears: call/return_call/ref.func in every body, the
// exports, the start function and the element segments (the table's contents keep their slots, so
// call_indirect and the JS glue's table indices are unchanged). Imports, types, exports' names, memory
// and data are untouched; every body is byte-for-byte the same but for the remapped indices.
// The order (below) is deterministic: a build gives the same bytes every time.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

// bytes: a module (Buffer). Returns { bytes: the reordered module, order: for each new position of a
// defined function its old index, imported: the number of imported functions }. pin: the functions with
// indices under it keep theirs when the most called (128: every one-byte LEB index).
export function reorderFunctions(bytes, { pin = 128 } = {}) {
  // ---- reading ----
  function readU(b, i) {  // unsigned LEB128 -> [value, next]
    let r = 0, s = 0, x;
    do { x = b[i++]; r += (x & 0x7f) * 2 ** s; s += 7; } while (x & 0x80);
    return [r, i];
  }
  function skipLeb(b, i) { while (b[i++] & 0x80); return i; }
  function encU(v) {  // unsigned LEB128
    const out = [];
    do { let x = v % 128; v = Math.floor(v / 128); if (v) x |= 0x80; out.push(x); } while (v);
    return out;
  }

  if (bytes.readUInt32LE(0) !== 0x6d736100 || bytes.readUInt32LE(4) !== 1) throw new Error('not a wasm module');
  const sections = [];
  for (let i = 8; i < bytes.length;) {
    const id = bytes[i];
    const [n, start] = readU(bytes, i + 1);
    sections.push({ id, start, end: start + n, head: i });
    i = start + n;
  }
  const sec = (id) => sections.find((s) => s.id === id);
  if (sections.some((s) => s.id === 0 && /^name$/.test(bytes.subarray(s.start + 1, s.start + 1 + bytes[s.start]).toString())))
    throw new Error('a name section: strip it first (its function indices are not rewritten)');

  // Imported functions keep indices 0..imported-1.
  let imported = 0;
  if (sec(2)) {
    const s = sec(2);
    let [n, i] = readU(bytes, s.start);
    for (; n > 0; n--) {
      let len;
      [len, i] = readU(bytes, i); i += len;
      [len, i] = readU(bytes, i); i += len;
      const kind = bytes[i++];
      if (kind === 0) { imported++; i = skipLeb(bytes, i); }
      else if (kind === 1) { i++; const flags = bytes[i++]; i = skipLeb(bytes, i); if (flags & 1) i = skipLeb(bytes, i); }
      else if (kind === 2) { const flags = bytes[i++]; i = skipLeb(bytes, i); if (flags & 1) i = skipLeb(bytes, i); }
      else if (kind === 3) i += 2;
      else if (kind === 4) { i++; i = skipLeb(bytes, i); }
      else throw new Error(`import kind ${kind}`);
    }
  }

  // Function section: each defined function's type index.
  const fsec = sec(3), csec = sec(10);
  let [nfun, fi] = readU(bytes, fsec.start);
  const types = [];
  for (let k = 0; k < nfun; k++) { let t; [t, fi] = readU(bytes, fi); types.push(t); }
  let [ncode, ci] = readU(bytes, csec.start);
  if (ncode !== nfun) throw new Error('function and code sections disagree');
  const bodies = [];
  for (let k = 0; k < nfun; k++) { let n; [n, ci] = readU(bytes, ci); bodies.push(bytes.subarray(ci, ci + n)); ci += n; }

  // ---- the function indices inside a body: [offset, end, index] of every call/return_call/ref.func ----
  const BLOCK_TYPES = new Set([0x40, 0x7f, 0x7e, 0x7d, 0x7c, 0x7b, 0x70, 0x6f]);
  function funcRefs(b) {
    const refs = [];
    let [nl, i] = readU(b, 0);
    for (; nl > 0; nl--) { i = skipLeb(b, i); i++; }
    const memarg = (j) => skipLeb(b, skipLeb(b, j));
    while (i < b.length) {
      const op = b[i++];
      if (op === 0x10 || op === 0x12 || op === 0xd2) {  // call, return_call, ref.func
        const [idx, j] = readU(b, i);
        refs.push([i, j, idx]);
        i = j;
      } else if (op === 0x02 || op === 0x03 || op === 0x04 || op === 0x06) {  // block, loop, if, try
        i = BLOCK_TYPES.has(b[i]) ? i + 1 : skipLeb(b, i);
      } else if (op === 0x07 || op === 0x08 || op === 0x09 || op === 0x18 || op === 0x0c || op === 0x0d ||
                 (op >= 0x20 && op <= 0x26)) {  // catch, throw, rethrow, delegate, br, br_if, locals, globals, tables
        i = skipLeb(b, i);
      } else if (op === 0x0e) {  // br_table
        let n;
        [n, i] = readU(b, i);
        for (; n >= 0; n--) i = skipLeb(b, i);
      } else if (op === 0x11 || op === 0x13) {  // call_indirect, return_call_indirect
        i = skipLeb(b, skipLeb(b, i));
      } else if (op === 0x1c) {  // select t*
        let n;
        [n, i] = readU(b, i);
        i += n;
      } else if (op >= 0x28 && op <= 0x3e) {
        i = memarg(i);
      } else if (op === 0x3f || op === 0x40 || op === 0xd0) {
        i++;
      } else if (op === 0x41 || op === 0x42) {
        i = skipLeb(b, i);
      } else if (op === 0x43) {
        i += 4;
      } else if (op === 0x44) {
        i += 8;
      } else if (op === 0xfc) {  // saturating truncations, bulk memory, tables
        let sub;
        [sub, i] = readU(b, i);
        if (sub <= 7) {} else if (sub === 8) { i = skipLeb(b, i); i++; } else if (sub === 9) i = skipLeb(b, i);
        else if (sub === 10) i += 2; else if (sub === 11) i++;
        else if (sub === 12 || sub === 14) i = skipLeb(b, skipLeb(b, i));
        else if (sub === 13 || (sub >= 15 && sub <= 17)) i = skipLeb(b, i);
        else throw new Error(`0xfc ${sub}`);
      } else if (op === 0xfd) {  // SIMD
        let sub;
        [sub, i] = readU(b, i);
        if (sub <= 0x0b || sub === 0x5c || sub === 0x5d) i = memarg(i);
        else if (sub === 0x0c || sub === 0x0d) i += 16;
        else if (sub >= 0x15 && sub <= 0x22) i++;
        else if (sub >= 0x54 && sub <= 0x5b) i = memarg(i) + 1;
      } else if (op === 0xfe) {  // threads
        let sub;
        [sub, i] = readU(b, i);
        if (sub === 0x03) i++;
        else i = memarg(i);
      } else if ((op >= 0x45 && op <= 0xc4) || op === 0x00 || op === 0x01 || op === 0x05 || op === 0x0b ||
                 op === 0x0f || op === 0x19 || op === 0x1a || op === 0x1b || op === 0xd1) {
        // no immediates
      } else {
        throw new Error(`opcode 0x${op.toString(16)} at ${i - 1}`);
      }
    }
    return refs;
  }
  const refs = bodies.map(funcRefs);

  // ---- the order ----
  // Greedy, as deflate reads: after the functions placed so far, the next one is the unplaced function
  // whose distinct 6-byte sequences the last 32 KB placed (deflate's window) hold most, counted as a
  // share of its own sequences^0.7 (a plain share favoured small functions that match whole but save
  // little). Incremental: a function's count changes only when a sequence enters or leaves the window
  // (an index from sequence to functions). Measured on 250ffd2's web and web-mt cores, zlib -9: against
  // the exponent 1, 0.6-0.8 took another 0.3-1.5 KB off each (0.5 and 1.1 did worse; the greedy's order
  // moves the result by ~0.5 KB either way); 5-, 8- to 12-byte sequences, windows of 16, 28, 36 or 48 KB,
  // and a MinHash nearest neighbour of the last function alone were 0.1-3 KB worse.
  const SEQ = 6, WINDOW = 32768, EXPONENT = 0.7;
  const seqs = bodies.map((b) => {
    const set = new Set();
    for (let i = 0; i + SEQ <= b.length; i++) {
      let h = 0x811c9dc5;  // FNV-1a
      for (let k = 0; k < SEQ; k++) h = Math.imul(h ^ b[i + k], 0x01000193);
      set.add(h | 0);
    }
    return Int32Array.from(set);
  });
  const holders = new Map();  // sequence -> the functions that contain it
  seqs.forEach((q, f) => {
    for (const h of q) {
      const list = holders.get(h);
      if (list) list.push(f);
      else holders.set(h, [f]);
    }
  });
  // The most called functions stay first, in Binaryen's order: an index under 128 is one byte of LEB at
  // every call (moved behind the others, the calls to malloc or fail grew the module by 8 KB raw).
  const calls = new Array(nfun).fill(0);
  for (const r of refs) for (const [, , idx] of r) if (idx >= imported) calls[idx - imported]++;
  const pinned = [...bodies.keys()].sort((a, c) => calls[c] - calls[a] || a - c).slice(0, Math.max(0, pin - imported));

  const order = [];
  const placed = new Uint8Array(nfun);
  const inWindow = new Float64Array(nfun);  // per function: how many of its sequences the window holds
  const windowCount = new Map();            // sequence -> how many functions in the window hold it
  const window = [];
  let windowBytes = 0;
  function place(f) {
    placed[f] = 1;
    order.push(f);
    for (const h of seqs[f]) {
      const c = windowCount.get(h) || 0;
      windowCount.set(h, c + 1);
      if (c === 0) for (const g of holders.get(h)) inWindow[g]++;
    }
    window.push(f);
    windowBytes += bodies[f].length;
    while (windowBytes - bodies[window[0]].length > WINDOW) {
      const old = window.shift();
      windowBytes -= bodies[old].length;
      for (const h of seqs[old]) {
        const c = windowCount.get(h);
        if (c > 1) { windowCount.set(h, c - 1); continue; }
        windowCount.delete(h);
        for (const g of holders.get(h)) inWindow[g]--;
      }
    }
  }
  for (const k of pinned.sort((a, c) => a - c)) place(k);
  while (order.length < nfun) {
    let best = -1, bestShare = -1;
    for (let f = 0; f < nfun; f++) {  // ties: the lowest index
      if (placed[f]) continue;
      const share = inWindow[f] / Math.pow(seqs[f].length || 1, EXPONENT);
      if (share > bestShare) { bestShare = share; best = f; }
    }
    place(best);
  }

  // ---- writing ----
  const newIndex = new Array(imported + nfun);
  for (let k = 0; k < imported; k++) newIndex[k] = k;
  order.forEach((old, pos) => { newIndex[imported + old] = imported + pos; });
  const remap = (idx) => {
    if (idx >= newIndex.length) throw new Error(`function index ${idx} out of range`);
    return newIndex[idx];
  };

  function section(id, payload) { return Buffer.concat([Buffer.from([id, ...encU(payload.length)]), payload]); }
  function rewriteBody(k) {
    const b = bodies[k], parts = [];
    let at = 0;
    for (const [s, e, idx] of refs[k]) {
      parts.push(b.subarray(at, s), Buffer.from(encU(remap(idx))));
      at = e;
    }
    parts.push(b.subarray(at));
    const body = Buffer.concat(parts);
    return Buffer.concat([Buffer.from(encU(body.length)), body]);
  }
  function rewriteExports(s) {
    const out = [];
    let [n, i] = readU(bytes, s.start);
    out.push(...encU(n));
    for (; n > 0; n--) {
      let len;
      [len, i] = readU(bytes, i);
      out.push(...encU(len), ...bytes.subarray(i, i + len)); i += len;
      const kind = bytes[i++];
      let idx;
      [idx, i] = readU(bytes, i);
      out.push(kind, ...encU(kind === 0 ? remap(idx) : idx));
    }
    return Buffer.from(out);
  }
  // A constant expression (offsets, element expressions): copied, with ref.func's index remapped.
  function constExpr(i, out) {
    for (;;) {
      const op = bytes[i++];
      out.push(op);
      if (op === 0x0b) return i;
      if (op === 0xd2) { let idx; [idx, i] = readU(bytes, i); out.push(...encU(remap(idx))); }
      else if (op === 0x41 || op === 0x42 || op === 0x23) { const j = skipLeb(bytes, i); out.push(...bytes.subarray(i, j)); i = j; }
      else if (op === 0xd0) out.push(bytes[i++]);
      else if (op === 0x44) { out.push(...bytes.subarray(i, i + 8)); i += 8; }
      else if (op === 0x43) { out.push(...bytes.subarray(i, i + 4)); i += 4; }
      else throw new Error(`constant expression opcode 0x${op.toString(16)}`);
    }
  }
  function rewriteElements(s) {
    const out = [];
    let [n, i] = readU(bytes, s.start);
    out.push(...encU(n));
    for (; n > 0; n--) {
      let flags;
      [flags, i] = readU(bytes, i);
      out.push(...encU(flags));
      if (flags === 2 || flags === 6) { const j = skipLeb(bytes, i); out.push(...bytes.subarray(i, j)); i = j; }  // table index
      if (!(flags & 1)) i = constExpr(i, out);  // active: the offset
      if (flags & 4) {  // expressions
        if (flags & 3) out.push(bytes[i++]);  // reftype
        let m;
        [m, i] = readU(bytes, i);
        out.push(...encU(m));
        for (; m > 0; m--) i = constExpr(i, out);
      } else {  // function indices
        if (flags & 3) out.push(bytes[i++]);  // elemkind
        let m;
        [m, i] = readU(bytes, i);
        out.push(...encU(m));
        for (; m > 0; m--) { let idx; [idx, i] = readU(bytes, i); out.push(...encU(remap(idx))); }
      }
    }
    return Buffer.from(out);
  }

  const parts = [bytes.subarray(0, 8)];
  for (const s of sections) {
    if (s.id === 3) parts.push(section(3, Buffer.from([...encU(nfun), ...order.flatMap((k) => encU(types[k]))])));
    else if (s.id === 10) parts.push(section(10, Buffer.concat([Buffer.from(encU(nfun)), ...order.map(rewriteBody)])));
    else if (s.id === 7) parts.push(section(7, rewriteExports(s)));
    else if (s.id === 8) { const [idx] = readU(bytes, s.start); parts.push(section(8, Buffer.from(encU(remap(idx))))); }
    else if (s.id === 9) parts.push(section(9, rewriteElements(s)));
    else parts.push(bytes.subarray(s.head, s.end));
  }
  return { bytes: Buffer.concat(parts), order: order.map((k) => imported + k), imported };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  const [input, output = input] = process.argv.slice(2);
  if (!input) {
    console.error('usage: node reorder-functions.mjs in.wasm [out.wasm]');
    process.exit(2);
  }
  fs.writeFileSync(output, reorderFunctions(fs.readFileSync(input)).bytes);
}

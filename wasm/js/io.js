// tp.io: tensor files (safetensors, .npy) read lazily from a File/Blob (browser) or a path (Node).
//
// API (every function also accepts a Uint8Array or ArrayBuffer holding a whole file):
//   const f = await tp.io.openSafetensors(fileOrPath)
//     f.format    'safetensors'
//     f.tensors   [{name, dtype, shape}] in the file's order; dtype is the stored one ('BF16', 'F32', ...)
//     f.metadata  {key: string} from "__metadata__"
//     f.size      the file's byte count
//     await f.get(name, {dtype}) → Tensor in its stored dtype: F32 float32, F64 float64, F16 float16,
//                 BF16 bfloat16, I64 int64, I32 int32, I16 int16, I8 int8, U8 uint8, BOOL bool; the types
//                 without a tensor dtype widen exactly (U16 → int32, U32 → int64) or become float32 (the
//                 FP8 types exactly, U64 rounded). {dtype: 'float32'} (any tensor dtype) converts while
//                 reading, as .to(dtype) would, without a copy in the stored dtype. Reads only that tensor's
//                 bytes: Blob.slice in the browser, a positioned read in Node, 16 MiB at a time.
//     await f.close()  releases the Node file handle; get() afterwards is an error.
//   const g = await tp.io.open(fileOrPath)       either format, told apart by the .npy magic bytes: the same
//     object with g.format 'safetensors' or 'npy'; an .npy lists one tensor named after the file
//     ("weights.npy" → "weights"; "array" for bytes), its metadata {version, descr, fortranOrder}.
//   await tp.io.loadNpy(fileOrPath, {dtype}) → Tensor   .npy v1/v2/v3, little-endian f2/f4/f8, i1/i2/i4/i8,
//                 u1/u2/u4/u8, b1, in its stored dtype as get() (or {dtype}); Fortran order becomes C order.
//   tp.io.saveNpy(tensor, {dtype}) → Uint8Array   .npy with the bytes numpy.save writes, in the tensor's dtype
//                 ('<f4', '<f8', '<f2', '<i8', '<i4', '<i2', '|i1', '|u1', '|b1') or {dtype}'s. numpy has no
//                 bfloat16: a bfloat16 tensor needs {dtype: 'float32'} (or io.saveSafetensors).
//   tp.io.saveSafetensors({name: tensor, ...}, {metadata, dtype}) → Uint8Array   safetensors, each tensor in its
//                 dtype, or {dtype} for every tensor, or per name ({'lm_head.weight': 'F32', ...}; names left out
//                 keep their own). metadata is {key: string}.
//   Writer dtypes are the safetensors spelling the readers report (f.tensors[i].dtype: 'F32', 'BF16', 'I64',
//   'BOOL', ...) or the tensor dtype names ('float32', 'bfloat16', 'int64', 'bool', ...). Converting follows
//   .to(dtype); from float32, F16 and BF16 round to nearest, ties to even, as numpy's astype(float16) and torch's
//   .to(bfloat16) do (in C++, cpp/src/io_dtype.cpp): too large becomes ±inf (F16 from 65520, halfway past
//   65504), too small a subnormal or ±0, NaN stays NaN (made quiet, sign kept). Reading the file back gives
//   exactly the rounded values.
// Limits: headers up to 100 MB; one tensor up to the core's size limit (larger ones are listed but get()
// refuses them before reading). For a drop zone: f = await tp.io.open(file),
// show f.tensors (name, dtype, shape), and bind a choice with await f.get(name).
// Malformed files reject with a TensorpadError naming the problem ("io.openSafetensors: safetensors:
// tensor 'w' has data_offsets [0, 800] outside the data section (400 bytes)"); the module stays usable.
// The bytes go to the C++ readers (cpp/src/io_*.cpp) through wasm/bind_io.cpp; only a safetensors header's
// JSON is read here (safetensors-json.js), and the core checks what it holds.
import { TensorpadError, fail, describe } from './errors.js';
import { options } from './checks.js';
import { dtypeName, dtypeCode } from './dtype.js';
import { safetensorsMembers } from './safetensors-json.js';

// A random-access byte source: {size, name, read(start, end, op) → Promise<Uint8Array>, close()}; name is
// the path or File name for error messages ('' for bytes and unnamed Blobs).
export async function openSource(op, source) {
  if (typeof Blob !== 'undefined' && source instanceof Blob) {
    return {
      size: source.size,
      name: typeof source.name === 'string' ? source.name : '',
      read: async (start, end) => new Uint8Array(await source.slice(start, end).arrayBuffer()),
      close: async () => {},
    };
  }
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    const bytes = source instanceof ArrayBuffer
      ? new Uint8Array(source)
      : new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
    return { size: bytes.length, name: '', read: async (start, end) => bytes.subarray(start, end), close: async () => {} };
  }
  const isUrl = typeof URL !== 'undefined' && source instanceof URL;
  if (typeof source === 'string' || isUrl) {
    if (typeof process === 'undefined' || !process.versions?.node) {
      fail(op, 'a path can only be opened in Node; in the browser pass a File or Blob (e.g. from a file input)');
    }
    // A computed specifier keeps browser bundlers from resolving node:fs.
    const fsName = 'node:fs/promises';
    const fs = await import(/* @vite-ignore */ fsName);
    let handle;
    try {
      handle = await fs.open(source, 'r');
    } catch (e) {
      fail(op, `cannot open ${describe(String(source))}: ${e.code ?? e.message}`);
    }
    const where = describe(String(source));
    const stat = await handle.stat();
    if (!stat.isFile()) {
      await handle.close();
      fail(op, `${where} is not a regular file`);
    }
    let closed = false;
    return {
      size: stat.size,
      name: String(isUrl ? source.pathname : source),
      async read(start, end, readOp = op) {
        const out = new Uint8Array(end - start);
        // read() may return fewer bytes than asked: loop until the range is filled or the file ends.
        for (let done = 0; done < out.length;) {
          let bytesRead;
          try {
            ({ bytesRead } = await handle.read(out, done, out.length - done, start + done));
          } catch (e) {
            fail(readOp, `cannot read ${where} at byte ${start + done}: ${e.code ?? e.message}`);
          }
          if (bytesRead === 0) fail(readOp, `file ended at byte ${start + done}, expected ${end} bytes (did it change?)`);
          done += bytesRead;
        }
        return out;
      },
      async close() {
        if (!closed) await handle.close();
        closed = true;
      },
    };
  }
  fail(op, `expects a File, Blob, Uint8Array, ArrayBuffer or (in Node) a path, got ${describe(source)}`);
}

// Reads and checks a safetensors file's header (tp.io and tp.model): {dataOffset, tensors: [{name, dtype,
// itemsize, shape, begin, end, error?}], metadata: [[key, value], ...]}; error says why get() cannot load
// that tensor. Errors read "<where>: safetensors: ..."; a failed read names op.
export async function readSafetensorsHeader(core, file, op, where = op) {
  const check = (fn) => {
    const r = fn();
    if (core.errorPending()) throw new TensorpadError(`${where}: ${core.takeError()}`, { op: where });
    return r;
  };
  const prefix = await file.read(0, Math.min(8, file.size), op);
  const n = check(() => core.ioSafetensorsHeaderSize(prefix, file.size));
  const json = await file.read(8, 8 + n, op);
  const members = safetensorsMembers(json, (message) => fail(where, `safetensors: ${message}`));
  return JSON.parse(check(() => core.ioSafetensorsCheckHeader(members, n, file.size)));
}

// Raw bytes read per step when loading a tensor (a multiple of every element size).
const CHUNK = 16 * 2 ** 20;

// The stored type (safetensors spelling) each tensor dtype is written as.
const STORED = { float32: 'F32', float64: 'F64', float16: 'F16', bfloat16: 'BF16', int64: 'I64', int32: 'I32',
  int16: 'I16', int8: 'I8', uint8: 'U8', bool: 'BOOL' };
// The writers' dtype names: the safetensors spelling, or a tensor dtype name (or torch alias) for it.
const WRITE_DTYPES = new Map(Object.values(STORED).map((s) => [s, s]));
const writeName = (value) => WRITE_DTYPES.get(value) ?? (() => {
  try { return STORED[dtypeName('', value)]; } catch { return undefined; }
})();
const SAFETENSORS_DTYPES = Object.values(STORED), NPY_DTYPES = SAFETENSORS_DTYPES.filter((s) => s !== 'BF16');
// An error met while reading a named file, with the file named (once) at its end.
function inFile(e, file) {
  if (!(e instanceof TensorpadError) || !file?.name) return e;
  const n = file.name;
  const where = JSON.stringify(n.length > 80 ? `…${n.slice(-79)}` : n);  // the end of a path says most
  if (e.message.includes(where) || e.message.includes(describe(n))) return e;  // already named (cannot open ...)
  return new TensorpadError(`${e.message} (file ${where})`, { op: e.op });
}
const quoted = (s) => `'${s.length > 60 ? s.slice(0, 60) + '…' : s}'`;
// A lone surrogate (half of a UTF-16 pair) has no UTF-8 form: the conversion to the core's UTF-8 would
// silently take the next character as its other half. With the u flag, a pair is one code point and
// does not match.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

export function io(rt) {
  const { core, wrap, Tensor } = rt;

  // Runs a core call and turns its pending error into a TensorpadError prefixed with the JS op.
  function call(op, fn) {
    const r = fn();
    if (core.errorPending()) throw new TensorpadError(`${op}: ${core.takeError()}`, { op });
    return r;
  }

  // Reads a tensor of nbytes at file offset start into a new Tensor (of dtype code `to`, -1: the stored one), CHUNK bytes at a time, so
  // neither JS nor the heap ever holds more than one chunk of raw bytes beside the tensor itself.
  async function readTensor(op, file, start, nbytes, dtype, size, shape, to) {
    const id = call(op, () => core.ioDecodeBegin(dtype, shape, to));
    try {
      const step = Math.max(size, CHUNK - (CHUNK % size));
      for (let done = 0; done < nbytes; done += step) {
        const end = Math.min(nbytes, done + step);
        const bytes = await file.read(start + done, start + end, op);
        call(op, () => core.ioDecodeChunk(id, dtype, done / size, bytes));
      }
    } catch (e) {
      core.release(id);
      throw e;
    }
    return wrap(id);
  }

  // The lazy file object both formats share: {format, tensors, metadata, size, get(name), close()}.
  function lazyFile(format, file, list, metadata, readOne) {
    const entries = new Map(list.map((t) => [t.name, t]));
    let closed = false;
    return {
      format,
      tensors: list.map(({ name, dtype, shape }) => ({ name, dtype, shape })),
      metadata,
      size: file.size,
      async get(name, opts) {
        const op = 'io.get';
        if (typeof name !== 'string') fail(op, `tensor name must be a string, got ${describe(name)}`);
        const to = loadAs(op, opts);
        if (closed) fail(op, `the file is closed; open it again to read ${describe(name)}`);
        const e = entries.get(name);
        if (!e) {
          const near = [...entries.keys()].filter((k) => k.includes(name) || name.includes(k)).slice(0, 5);
          fail(op, `no tensor named ${describe(name)} in this file (${entries.size} tensors` +
            (near.length ? `; similar: ${near.join(', ')})` : ')'));
        }
        try {
          return await readOne(op, e, to);
        } catch (err) {
          throw inFile(err, file);
        }
      },
      async close() {
        closed = true;
        await file.close();
      },
    };
  }

  async function safetensorsFrom(op, file) {
    const h = await readSafetensorsHeader(core, file, op);
    return lazyFile('safetensors', file, h.tensors, Object.fromEntries(h.metadata),
      (gop, e, to) => {
        if (e.error) fail(gop, e.error);  // the core's words: too large, or a dim JS cannot hold
        return readTensor(gop, file, h.dataOffset + e.begin, e.end - e.begin, e.dtype, e.itemsize, e.shape, to);
      });
  }

  // An .npy header, read and checked: {n (data offset), header (its bytes), h (the parsed fields)}.
  async function npyHeader(op, file) {
    const prefix = await file.read(0, Math.min(12, file.size), op);
    const n = call(op, () => core.ioNpyHeaderSize(prefix, file.size));
    const header = await file.read(0, n, op);
    return { n, header, h: call(op, () => core.ioNpyParseHeader(header, file.size)) };
  }
  async function npyRead(op, file, { n, header, h }, to) {
    if (!h.fortranOrder) return readTensor(op, file, n, file.size - n, h.dtype, h.itemsize, h.shape, to);
    // Fortran order is transposed in one piece.
    const data = await file.read(n, file.size, op);
    return wrap(call(op, () => core.ioNpyDecode(header, file.size, data, to)));
  }

  // An .npy file holds one array; it is listed under the file's name without ".npy" (or "array").
  async function npyFrom(op, file, name) {
    const hdr = await npyHeader(op, file);
    const { h } = hdr;
    return lazyFile('npy', file, [{ name, dtype: h.dtype, shape: h.shape }],
      { version: h.version, descr: h.descr, fortranOrder: String(h.fortranOrder) }, (gop, _e, to) => npyRead(gop, file, hdr, to));
  }

  const npyName = (source) => {
    const full = typeof source === 'string' ? source : source?.name ?? (source instanceof URL ? source.pathname : '');
    const base = String(full).split(/[\\/]/).pop() ?? '';
    return base.toLowerCase().endsWith('.npy') && base.length > 4 ? base.slice(0, -4) : 'array';
  };

  // Opens with fn, closing the source if opening fails.
  async function opening(op, source, fn) {
    const file = await openSource(op, source);
    try {
      return await fn(file);
    } catch (e) {
      await file.close();
      throw inFile(e, file);
    }
  }

  const openSafetensors = (source) => opening('io.openSafetensors', source, (f) => safetensorsFrom('io.openSafetensors', f));

  // Either format, told apart by the .npy magic bytes: what a drop zone wants.
  const open = (source) => opening('io.open', source, async (f) => {
    const magic = await f.read(0, Math.min(6, f.size), 'io.open');
    const isNpy = magic.length === 6 && magic[0] === 0x93 && String.fromCharCode(...magic.subarray(1)) === 'NUMPY';
    return isNpy ? npyFrom('io.open', f, npyName(source)) : safetensorsFrom('io.open', f);
  });

  async function loadNpy(source, opts) {
    const op = 'io.loadNpy';
    const to = loadAs(op, opts);
    const file = await openSource(op, source);
    try {
      return await npyRead(op, file, await npyHeader(op, file), to);
    } catch (e) {
      throw inFile(e, file);
    } finally {
      await file.close();
    }
  }

  // The {dtype} option of a reader → the tensor dtype's code, or -1 for the stored dtype.
  function loadAs(op, opts) {
    const { dtype } = options(op, opts, ['dtype']);
    return dtype === undefined ? -1 : dtypeCode(op, dtype);
  }

  // A writer's dtype option → its safetensors spelling, one of allowed; who is "" or " for tensor 'w'";
  // reasons gives a writer's own words for a known dtype it cannot store.
  function writeDtype(op, value, allowed, who, reasons = {}) {
    if (typeof value !== 'string') fail(op, `dtype${who} must be a string (${allowed.join(', ')}), got ${describe(value)}`);
    const dtype = writeName(value);
    if (dtype === undefined) fail(op, `unknown dtype ${quoted(value)}${who} (expected ${allowed.join(', ')} or a tensor dtype name)`);
    if (!allowed.includes(dtype)) {
      if (Object.hasOwn(reasons, dtype)) fail(op, `dtype ${quoted(value)}${who} ${reasons[dtype]}`);
      fail(op, `unsupported dtype ${quoted(value)}${who} (expected ${allowed.join(', ')})`);
    }
    return dtype;
  }

  function saveNpy(t, opts) {
    const op = 'io.saveNpy';
    if (!(t instanceof Tensor)) fail(op, `expects a Tensor, got ${describe(t)}`);
    const { dtype } = options(op, opts, ['dtype']);
    if (dtype === undefined && t.dtype === 'bfloat16') {
      fail(op, "a bfloat16 tensor has no .npy dtype: numpy has no bfloat16 (pass {dtype: 'float32'} or use io.saveSafetensors)");
    }
    const dt = writeDtype(op, dtype ?? t.dtype, NPY_DTYPES, '',
      { BF16: 'has no .npy descr: numpy has no bfloat16 (use F32 or F16, or io.saveSafetensors)' });
    return call(op, () => core.ioSaveNpy(t._id(op), dt));
  }

  // The dtype option of saveSafetensors → one dtype per name: a string for all, or {name: dtype} with
  // the names left out written in their tensor's dtype.
  function safetensorsDtypes(op, dtype, names, tensors) {
    const who = (name) => ` for tensor ${quoted(name)}`;
    const own = (name) => STORED[tensors[name].dtype];
    if (dtype === undefined) return names.map(own);
    if (typeof dtype === 'string') {
      if (!names.length) writeDtype(op, dtype, SAFETENSORS_DTYPES, '');  // refused even with nothing to write
      return names.map((name) => writeDtype(op, dtype, SAFETENSORS_DTYPES, who(name)));
    }
    if (!dtype || typeof dtype !== 'object' || Array.isArray(dtype) || dtype instanceof Tensor) {
      fail(op, `dtype must be a string (${SAFETENSORS_DTYPES.join(', ')}) or an object {name: dtype}, got ${describe(dtype)}`);
    }
    const known = new Set(names);
    for (const name of Object.keys(dtype)) {
      if (!known.has(name)) {
        fail(op, `dtype names tensor ${quoted(name)}, which is not being saved (tensors: ${names.slice(0, 5).join(', ')}` +
          `${names.length > 5 ? ', …' : ''})`);
      }
    }
    return names.map((name) => (Object.hasOwn(dtype, name) ? writeDtype(op, dtype[name], SAFETENSORS_DTYPES, who(name)) : own(name)));
  }

  function saveSafetensors(tensors, opts) {
    const op = 'io.saveSafetensors';
    if (!tensors || typeof tensors !== 'object' || Array.isArray(tensors) || tensors instanceof Tensor) {
      fail(op, `expects an object {name: tensor}, got ${describe(tensors)}`);
    }
    const { metadata = {}, dtype } = options(op, opts, ['metadata', 'dtype']);
    if (!metadata || typeof metadata !== 'object' || Array.isArray(metadata)) {
      fail(op, `metadata must be an object of strings, got ${describe(metadata)}`);
    }
    const utf8 = (what, s) => {
      const at = s.search(LONE_SURROGATE);
      if (at >= 0) {
        fail(op, `${what} ${JSON.stringify(s.length > 40 ? s.slice(0, 40) + '…' : s)} has a lone surrogate ` +
          `(\\u${s.charCodeAt(at).toString(16)} at index ${at}), which UTF-8 cannot encode`);
      }
    };
    const meta = Object.entries(metadata).map(([k, v]) => {
      if (typeof v !== 'string') fail(op, `metadata ${describe(k)} must be a string, got ${describe(v)}`);
      utf8('metadata key', k);
      utf8(`metadata ${describe(k)}`, v);
      return [k, v];
    });
    const names = Object.keys(tensors);
    names.forEach((name) => utf8('tensor name', name));
    const ids = names.map((k) => {
      const t = tensors[k];
      if (!(t instanceof Tensor)) fail(op, `${describe(k)} must be a Tensor, got ${describe(t)}`);
      return t._id(op);
    });
    const dtypes = safetensorsDtypes(op, dtype, names, tensors);
    return call(op, () => core.ioSaveSafetensors(names, ids, meta, dtypes));
  }

  return { open, openSafetensors, loadNpy, saveNpy, saveSafetensors };
}

// Reads a safetensors header's JSON (the bytes after its 8-byte length) into the members the core checks
// (check_safetensors_header, cpp/src/io_safetensors.cpp): the WebAssembly build's half of what
// parse_safetensors_header does natively with nlohmann (cpp/src/io_safetensors_json.cpp), with the same
// messages, positions included. It keeps the module free of a JSON parser and of strtod (about 15 KB gzipped).
// JSON.parse cannot stand in: it keeps the last of two equal names, rounds integers past 2^53, reads 2.0
// as 2, nests as deep as it is asked to and words its errors per engine.
//
// safetensorsMembers(bytes, refuse) → the members as the compact text wasm/bind_io.cpp reads, or
// refuse(message) (which throws) with "header is not JSON (parse error at line 1, column 12: ...)" and the
// other JSON-level problems parse_json names in C++.

const MAX_DEPTH = 16;  // a valid header nests 3 deep; deep nesting is only ever an attack
const HEX = '0123456789abcdef';

// A JSON number with a fraction or exponent (or an integer beyond 64 bits): never a size, and dumped as
// nlohmann writes a double. Integers are BigInts.
class JsonFloat {
  constructor(x) { this.x = x; }
}

// The offset of the first byte that is not well-formed UTF-8, or -1 (as invalid_utf8_at in C++).
function invalidUtf8At(s) {
  for (let i = 0; i < s.length;) {
    const c = s[i];
    let n, cp;
    if (c < 0x80) { i++; continue; }
    if (c >= 0xc2 && c <= 0xdf) n = 1, cp = c & 0x1f;
    else if (c >= 0xe0 && c <= 0xef) n = 2, cp = c & 0x0f;
    else if (c >= 0xf0 && c <= 0xf4) n = 3, cp = c & 0x07;
    else return i;
    if (i + n >= s.length) return i;
    for (let k = 1; k <= n; k++) {
      const d = s[i + k];
      if ((d & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (d & 0x3f);
    }
    if ((n === 2 && cp < 0x800) || (n === 3 && cp < 0x10000) || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return -1;
}

// UTF-8 bytes of a well-formed string (every string here came from valid UTF-8 or paired escapes).
function utf8Length(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 2 : 3;
  }
  return n;
}

// std::string's order (UTF-8 bytes), which is code point order; JS's < compares UTF-16 units.
function byBytes(a, b) {
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    const x = a.codePointAt(i), y = b.codePointAt(j);
    if (x !== y) return x - y;
    i += x > 0xffff ? 2 : 1;
    j += y > 0xffff ? 2 : 1;
  }
  return a.length - b.length || 0;
}

// 'name', cut to 80 UTF-8 bytes between characters (quote_name in C++).
export function quoteName(name) {
  if (utf8Length(name) <= 80) return `'${name}'`;
  const bytes = new TextEncoder().encode(name);
  let cut = 80;
  while (cut > 0 && (bytes[cut] & 0xc0) === 0x80) cut--;
  return `'${new TextDecoder().decode(bytes.subarray(0, cut))}...'`;
}

// nlohmann's type_name().
function typeName(v) {
  if (v === null) return 'null';
  if (v instanceof Map) return 'object';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'boolean';
  return 'number';
}

// A string as nlohmann's dump() escapes it: quotes, backslashes and control characters.
function dumpString(s) {
  let out = '"';
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    if (ch === '"' || ch === '\\') out += '\\' + ch;
    else if (c >= 0x20) out += ch;
    else out += { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' }[c] ?? `\\u00${HEX[c >> 4]}${HEX[c & 15]}`;
  }
  return out + '"';
}

// A double as nlohmann's dump() writes it (its to_chars: shortest digits, ".0" on integral values,
// exponent form outside 1e-4 .. 1e15, two exponent digits at least).
function dumpFloat(x) {
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mantissa, exp] = Math.abs(x).toExponential().split('e');
  const digits = mantissa.replace('.', ''), k = digits.length, n = Number(exp) + 1;
  let body;
  if (k <= n && n <= 15) body = digits + '0'.repeat(n - k) + '.0';
  else if (0 < n && n <= 15) body = `${digits.slice(0, n)}.${digits.slice(n)}`;
  else if (-4 < n && n <= 0) body = `0.${'0'.repeat(-n)}${digits}`;
  else {
    const e = n - 1, a = Math.abs(e);
    body = (k === 1 ? digits : `${digits[0]}.${digits.slice(1)}`) + `e${e < 0 ? '-' : '+'}${a < 10 ? '0' : ''}${a}`;
  }
  return sign + body;
}

// nlohmann's compact dump(): objects are std::maps, so their keys print sorted.
function dump(v) {
  if (v === null) return 'null';
  if (typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  if (typeof v === 'string') return dumpString(v);
  if (v instanceof JsonFloat) return dumpFloat(v.x);
  if (Array.isArray(v)) return `[${v.map(dump).join(',')}]`;
  return `{${[...v.keys()].sort(byBytes).map((k) => `${dumpString(k)}:${dump(v.get(k))}`).join(',')}}`;
}

// nlohmann's token names, for "unexpected ..." and "expected ...".
const TOKEN_NAMES = {
  '[': "'['", ']': "']'", '{': "'{'", '}': "'}'", ':': "':'", ',': "','", string: 'string literal', number: 'number literal',
  true: 'true literal', false: 'false literal', null: 'null literal', eof: 'end of input', error: '<parse error>',
  value: "'[', '{', or a literal",
};
const CONTROL_NAMES = ['NUL', 'SOH', 'STX', 'ETX', 'EOT', 'ENQ', 'ACK', 'BEL', 'BS', 'HT', 'LF', 'VT', 'FF', 'CR', 'SO', 'SI',
  'DLE', 'DC1', 'DC2', 'DC3', 'DC4', 'NAK', 'SYN', 'ETB', 'CAN', 'EM', 'SUB', 'ESC', 'FS', 'GS', 'RS', 'US'];
const SHORT_ESCAPES = { 8: 'b', 9: 't', 10: 'n', 12: 'f', 13: 'r' };
const INT64_MIN = -(2n ** 63n), UINT64_MAX = 2n ** 64n - 1n, INT64_MAX = 2n ** 63n - 1n;

// The JSON text parsed as nlohmann's SAX parser reads it: the root's type and, for an object, its members
// [key, value] in the file's order (objects below the root are Maps, last value of a key kept).
function parseJson(text, refuse) {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;  // a UTF-8 byte order mark, skipped as nlohmann does
  let tok, tokStart, last, value, lexError, numberEnd = false;
  // Where nlohmann's "last read" text starts: the last string or number token (its lexer resets the text
  // there), or the start; structural characters, literals and whitespace after it accumulate.
  let readFrom = 0;
  // Any other character encoded from 0xEF (U+F000..U+FFFF) is a bad byte order mark to nlohmann.
  const badBom = i === 0 && text.charCodeAt(0) >= 0xf000;

  // "parse error at line L, column C" where nlohmann's lexer stood: the last character it read (the end
  // of input counts as one), columns in bytes from 1, and a line feed read last at column 0 of the next line.
  function position() {
    const at = Math.min(last, text.length);
    let line = 1;
    for (let k = text.indexOf('\n'); k !== -1 && k < at; k = text.indexOf('\n', k + 1)) line++;
    if (text[at] === '\n' && at < text.length) return `line ${line + 1}, column 0`;
    // nlohmann's unget() after a number followed by a line feed leaves its column at 0.
    if (numberEnd && text[at + 1] === '\n') return `line ${line}, column 0`;
    return `line ${line}, column ${utf8Length(text.slice(text.lastIndexOf('\n', at - 1) + 1, at)) + 1}`;
  }
  function tokenString() {
    let s = '';
    for (const ch of text.slice(readFrom, Math.min(last + 1, text.length))) {
      const c = ch.charCodeAt(0);
      s += c <= 0x1f ? `<U+${c.toString(16).toUpperCase().padStart(4, '0')}>` : ch;
    }
    return s;
  }
  function syntaxError(expected, context) {
    let msg = `syntax error while parsing ${context} - `;
    msg += tok === 'error' ? `${lexError}; last read: '${tokenString()}'` : `unexpected ${TOKEN_NAMES[tok]}`;
    if (expected) msg += `; expected ${TOKEN_NAMES[expected]}`;
    notJson(`parse error at ${position()}: ${msg}`);
  }
  function notJson(what) {
    refuse(`header is not JSON (${what.length > 200 ? what.slice(0, 200) + '...' : what})`);
  }
  const isDigit = (c) => c >= '0' && c <= '9';
  const lexFail = (msg) => { lexError = msg; return 'error'; };

  const PLAIN = /[^"\\\x00-\x1f]+/y;  // a run of characters that stand for themselves
  function scanString() {
    readFrom = tokStart;
    let out = '';
    for (;;) {
      PLAIN.lastIndex = last + 1;
      if (PLAIN.test(text)) {
        out += text.slice(last + 1, PLAIN.lastIndex);
        last = PLAIN.lastIndex - 1;
      }
      const ch = text[++last];
      if (ch === undefined) return lexFail('invalid string: missing closing quote');
      if (ch === '"') { value = out; return 'string'; }
      const c = ch.charCodeAt(0);
      if (c <= 0x1f) {
        const hex = c.toString(16).toUpperCase().padStart(4, '0');
        return lexFail(`invalid string: control character U+${hex} (${CONTROL_NAMES[c]}) must be escaped to \\u${hex}` +
          (SHORT_ESCAPES[c] ? ` or \\${SHORT_ESCAPES[c]}` : ''));
      }
      if (ch !== '\\') { out += ch; continue; }
      const e = text[++last];
      if (e !== undefined && '"\\/'.includes(e)) { out += e; continue; }
      if (e !== undefined && 'bfnrt'.includes(e)) { out += { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' }[e]; continue; }
      if (e !== 'u') return lexFail('invalid string: forbidden character after backslash');
      const hex4 = () => {
        for (let k = 0; k < 4; k++) if (!/[0-9a-fA-F]/.test(text[++last] ?? '')) return -1;
        return parseInt(text.slice(last - 3, last + 1), 16);
      };
      const hexError = "invalid string: '\\u' must be followed by 4 hex digits";
      const cp = hex4();
      if (cp < 0) return lexFail(hexError);
      if (cp >= 0xd800 && cp <= 0xdbff) {
        if (text[++last] === '\\' && text[++last] === 'u') {
          const low = hex4();
          if (low < 0) return lexFail(hexError);
          if (low >= 0xdc00 && low <= 0xdfff) { out += String.fromCharCode(cp, low); continue; }
        }
        return lexFail('invalid string: surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF');
      }
      if (cp >= 0xdc00 && cp <= 0xdfff) return lexFail('invalid string: surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF');
      out += String.fromCharCode(cp);
    }
  }
  function scanNumber() {
    readFrom = tokStart;
    let k = last, integer = true;
    const digits = () => { while (isDigit(text[k + 1])) k++; };
    if (text[k] === '-') {
      k++;
      if (!isDigit(text[k])) { last = k; return lexFail("invalid number; expected digit after '-'"); }
    }
    if (text[k] !== '0') digits();
    if (text[k + 1] === '.') {
      integer = false;
      k += 2;
      if (!isDigit(text[k])) { last = k; return lexFail("invalid number; expected digit after '.'"); }
      digits();
    }
    if (text[k + 1] === 'e' || text[k + 1] === 'E') {
      integer = false;
      k += 2;
      if (text[k] === '+' || text[k] === '-') {
        k++;
        if (!isDigit(text[k])) { last = k; return lexFail('invalid number; expected digit after exponent sign'); }
      } else if (!isDigit(text[k])) {
        last = k;
        return lexFail("invalid number; expected '+', '-', or digit after exponent");
      }
      digits();
    }
    last = k;
    numberEnd = true;
    const source = text.slice(tokStart, k + 1);
    if (integer) {
      const n = BigInt(source);
      if (n >= INT64_MIN && n <= UINT64_MAX) { value = n; return 'number'; }
    }
    value = new JsonFloat(Number(source));  // infinite: refused when read as a value, as nlohmann does
    return 'number';
  }
  function scanLiteral(word) {
    for (let k = 1; k < word.length; k++) {
      if (text[++last] !== word[k]) return lexFail('invalid literal');
    }
    value = word === 'null' ? null : word === 'true';
    return word;
  }
  function next() {
    numberEnd = false;
    while (' \t\n\r'.includes(text[i]) && i < text.length) i++;
    tokStart = last = i;
    const ch = text[i];
    if (badBom && i === 0) tok = lexFail('invalid BOM; must be 0xEF 0xBB 0xBF if given');
    else if (ch === undefined || ch === '\0') tok = 'eof';
    else if ('[]{}:,'.includes(ch)) tok = ch;
    else if (ch === '"') tok = scanString();
    else if (ch === '-' || isDigit(ch)) tok = scanNumber();
    else if (ch === 't' || ch === 'f' || ch === 'n') tok = scanLiteral({ t: 'true', f: 'false', n: 'null' }[ch]);
    else tok = lexFail('invalid literal');
    i = last + 1;
    return tok;
  }

  // A value starting at the current token; depth counts the containers open around it.
  function parseValue(depth) {
    if (tok === '{' || tok === '[') {
      if (depth + 1 > MAX_DEPTH) refuse(`header nests deeper than ${MAX_DEPTH} levels`);
      return tok === '{' ? parseObject(depth + 1) : parseArray(depth + 1);
    }
    if (value instanceof JsonFloat && tok === 'number' && !Number.isFinite(value.x)) {
      notJson(`number overflow parsing '${text.slice(tokStart, last + 1)}'`);
    }
    if (tok === 'string' || tok === 'number' || tok === 'true' || tok === 'false' || tok === 'null') return value;
    return tok === 'error' ? syntaxError(null, 'value') : syntaxError('value', 'value');
  }
  // {"key": value, ...} as a Map (pairs: an array of [key, value] in order, for the root).
  function parseObject(depth, pairs) {
    const map = pairs ? null : new Map();
    if (next() === '}') return map;
    for (;;) {
      if (tok !== 'string') syntaxError('string', 'object key');
      const key = value;
      if (next() !== ':') syntaxError(':', 'object separator');
      next();
      const v = parseValue(depth);
      if (pairs) pairs.push([key, v]);
      else map.set(key, v);
      if (next() === ',') {
        next();
        continue;
      }
      if (tok === '}') return map;
      syntaxError('}', 'object');
    }
  }
  function parseArray(depth) {
    const out = [];
    if (next() === ']') return out;
    for (;;) {
      out.push(parseValue(depth));
      if (next() === ',') {
        next();
        continue;
      }
      if (tok === ']') return out;
      syntaxError(']', 'array');
    }
  }

  next();
  let root, pairs = null;
  if (tok === '{') {
    pairs = [];
    parseObject(1, pairs);
  } else {
    root = parseValue(0);
  }
  if (next() !== 'eof') syntaxError('eof', 'value');
  return { type: pairs ? 'object' : typeName(root), pairs };
}

const PROBLEM = { none: 0, notObject: 1, noDtype: 2, noShape: 3, negativeDim: 4, shapeNotSizes: 5, noOffsets: 6, metadataNotObject: 7 };
const isCount = (v) => typeof v === 'bigint' && v >= 0n && v <= INT64_MAX;

// One tensor's fields up to its first JSON-level problem (member() in io_safetensors_json.cpp).
function member(name, v) {
  const m = { problem: PROBLEM.none, name, dtype: '', text: '', detail: '', shape: [], begin: 0n, end: 0n };
  if (!(v instanceof Map)) return { ...m, problem: PROBLEM.notObject, text: typeName(v) };
  const dtype = v.get('dtype');
  if (typeof dtype !== 'string') return { ...m, problem: PROBLEM.noDtype };
  m.dtype = dtype;
  const shape = v.get('shape');
  if (!Array.isArray(shape)) return { ...m, problem: PROBLEM.noShape };
  for (const d of shape) {
    if (typeof d === 'bigint' && d < 0n) return { ...m, problem: PROBLEM.negativeDim, detail: String(d), text: dump(shape) };
    if (!isCount(d)) return { ...m, problem: PROBLEM.shapeNotSizes, text: dump(shape) };
  }
  m.shape = shape;
  const off = v.get('data_offsets');
  if (!Array.isArray(off) || off.length !== 2 || !isCount(off[0]) || !isCount(off[1])) return { ...m, problem: PROBLEM.noOffsets };
  m.begin = off[0];
  m.end = off[1];
  return m;
}

export function safetensorsMembers(bytes, refuse) {
  const bad = invalidUtf8At(bytes);
  if (bad >= 0) refuse(`header is not valid UTF-8 (byte 0x${HEX[bytes[bad] >> 4]}${HEX[bytes[bad] & 15]} at offset ${bad})`);
  const { type, pairs } = parseJson(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes), refuse);
  if (type !== 'object') refuse(`header is JSON but not an object (it is ${type})`);
  // A name given twice: the first in byte order, as the C++ reader names it.
  const seen = new Set(), twice = [];
  for (const [key] of pairs) {
    if (seen.has(key)) twice.push(key);
    seen.add(key);
  }
  if (twice.length) refuse(`header names ${quoteName(twice.sort(byBytes)[0])} twice`);

  const members = [];
  let metadata = [];
  for (const [key, v] of pairs) {
    if (key === '__metadata__') {
      if (!(v instanceof Map)) {
        members.push({ problem: PROBLEM.metadataNotObject, name: key, dtype: '', text: typeName(v), detail: '', shape: [], begin: 0n, end: 0n });
        break;
      }
      metadata = [...v.keys()].sort(byBytes).map((k) => [k, typeof v.get(k) === 'string' ? v.get(k) : dump(v.get(k))]);
      continue;
    }
    members.push(member(key, v));
    if (members.at(-1).problem !== PROBLEM.none) break;
  }
  // The compact text wasm/bind_io.cpp reads: numbers end with ';', strings are "<UTF-8 bytes>:<text>".
  const out = [`${members.length};`];
  const str = (s) => out.push(`${utf8Length(s)}:`, s);
  for (const m of members) {
    out.push(`${m.problem};`);
    str(m.name);
    str(m.dtype);
    str(m.text);
    str(m.detail);
    out.push(`${m.shape.length};`, ...m.shape.map((d) => `${d};`), `${m.begin};${m.end};`);
  }
  out.push(`${metadata.length};`);
  for (const [k, v] of metadata) str(k), str(v);
  return out.join('');
}

// The shipped Chinese font subset (web/fonts, made by make_cjk_subset.py) covers every CJK character the
// site can show, and is the file its manifest describes: a new character in a chapter, a widget, the
// page's strings or an exercise fails here until the subset is made again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const fonts = path.join(root, 'web', 'fonts');
const manifest = JSON.parse(fs.readFileSync(path.join(fonts, 'tensorpad-cjk-sc.json'), 'utf8'));
// The same folders and ranges as make_cjk_subset.py.
const SCAN = [['web/chapters', ['.md']], ['web/src', ['.js']], ['web/widgets', ['.js']], ['web/judge', ['.js']], ['web/content', ['.js']],
  ['web/runtime', ['.js']], ['exercises', ['.json', '.js', '.md']]];
const CJK = /[\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]/gu;

function* files(dir, exts) {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* files(p, exts);
    else if (exts.some((x) => e.name.endsWith(x))) yield p;
  }
}

test('the CJK font subset covers every CJK character in chapters, page strings, widgets and exercises', () => {
  const covered = new Set(manifest.characters);
  const missing = new Map();
  for (const [dir, exts] of SCAN)
    for (const f of files(path.join(root, dir), exts))
      for (const ch of fs.readFileSync(f, 'utf8').match(CJK) ?? [])
        if (!covered.has(ch)) missing.set(ch, path.relative(root, f));
  assert.equal(missing.size, 0, `not in web/fonts/tensorpad-cjk-sc.woff2: ${[...missing].slice(0, 20).map(([c, f]) => `${c} (${f})`).join(', ')}` +
    ' — run /usr/bin/python3 web/fonts/make_cjk_subset.py (needs fonts-noto-cjk, python3-fonttools, python3-brotli)');
});

test('the font file is the one its manifest describes, a WOFF2 well under a megabyte, with its license beside it', () => {
  const bytes = fs.readFileSync(path.join(fonts, 'tensorpad-cjk-sc.woff2'));
  assert.equal(bytes.subarray(0, 4).toString('latin1'), 'wOF2');
  assert.equal(crypto.createHash('sha256').update(bytes).digest('hex'), manifest.sha256);
  assert.ok(bytes.length < 400 * 1024, `${bytes.length} bytes`);
  assert.match(fs.readFileSync(path.join(fonts, 'LICENSE-NotoSansCJK.txt'), 'utf8'), /SIL OPEN FONT LICENSE Version 1\.1/);
});

#!/usr/bin/env node
// Builds the static site into web/dist: chapters parsed and pre-rendered (Markdown + KaTeX) to JSON,
// the page and the cell worker bundled with esbuild, KaTeX's CSS and fonts and the WASM copied in.
// An author mistake prints "file:line: message" for each and exits 1.
// Usage: node web/build.mjs [--check] [--chapters DIR]   (--check validates the chapters and writes nothing)
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import esbuild from 'esbuild';
import { parse as parseJs } from 'acorn';
import { parseChapter, createMarkdown } from './content/chapter.mjs';
import { EXERCISES_DIR, listExerciseIds, loadExercise } from './content/exercises.js';
import buildJudge from './judge/page/build-hook.mjs';

const web = path.dirname(fileURLToPath(import.meta.url));
const root = path.dirname(web);
// TENSORPAD_DIST moves the output (e.g. to build a private copy while others use web/dist).
const dist = path.resolve(process.env.TENSORPAD_DIST ?? path.join(web, 'dist'));
const LANGS = ['en', 'zh'];
const rel = (p) => path.relative(process.cwd(), p) || p;

const CSP = [
  "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:", "font-src 'self'", "connect-src 'self'", "worker-src 'self'",
  "object-src 'none'", "base-uri 'self'", "form-action 'self'",
].join('; ');

function listWidgets() {
  const dir = path.join(web, 'widgets');
  return new Map(fs.readdirSync(dir).filter((f) => f.endsWith('.js') && !f.startsWith('_')).map((f) => [f.slice(0, -3), path.join(dir, f)]));
}

// The props a widget's directive may set: its `export const props = ['name', ...]`, read without running
// the module (it needs a DOM). A widget that does not parse, or declares no props, is an author error.
function widgetProps(widgets, errors) {
  const props = new Map();
  for (const [name, file] of widgets) {
    let ast;
    try {
      ast = parseJs(fs.readFileSync(file, 'utf8'), { ecmaVersion: 'latest', sourceType: 'module', locations: true });
    } catch (e) {
      errors.push({ file: rel(file), line: e.loc?.line ?? 1, message: `does not parse: ${e.message.replace(/ \(\d+:\d+\)$/, '')}` });
      props.set(name, null);
      continue;
    }
    const decl = ast.body.flatMap((n) => (n.type === 'ExportNamedDeclaration' && n.declaration?.type === 'VariableDeclaration' ? n.declaration.declarations : []))
      .find((d) => d.id.name === 'props');
    const list = decl?.init?.type === 'ArrayExpression' && decl.init.elements.every((e) => e?.type === 'Literal' && typeof e.value === 'string')
      ? decl.init.elements.map((e) => e.value) : null;
    if (!list) errors.push({ file: rel(file), line: decl?.loc?.start.line ?? 1, message: "declares no props: add `export const props = ['name', ...]`, the keys its :::widget directive may set (a list of strings)" });
    props.set(name, list);
  }
  return props;
}

// Every exercise, validated as `tensorpad check` validates it first (schema, ids, examples, sources that
// parse), so a site never ships an exercise the page cannot show. A broken one maps to null: the chapter
// that places it is not told again that it does not exist.
function listExercises(errors, dir = EXERCISES_DIR) {
  const map = new Map();
  for (const id of listExerciseIds(dir)) {
    try {
      const { dir: _, ...json } = loadExercise(id, dir);
      map.set(id, json);
    } catch (e) {
      if (e.name !== 'ExerciseError') throw e;
      map.set(id, null);
      const [, file, line = '1'] = /^(.*?)(?::(\d+):\d+)?$/.exec(e.file);
      errors.push({ file, line: Number(line), message: e.message.slice(e.file.length + 2) });
    }
  }
  return map;
}

/** The parts of a chapter (its top-level headings), each { id, title (HTML, as the chapter renders it), exercises (ids under it) }. */
function chapterSections(toc) {
  if (!toc.length) return [];
  // The shallowest level with two headings or more (a chapter under one heading lists the ones below it).
  const levels = [...new Set(toc.map((e) => e.level))].sort((x, y) => x - y);
  const top = levels.find((l) => toc.filter((e) => e.level === l).length >= 2) ?? levels[0];
  const parts = [];
  for (const e of toc) {
    if (e.level < top) continue;
    if (e.level === top || !parts.length) parts.push({ id: e.id, title: e.html, exercises: [] });
    parts.at(-1).exercises.push(...e.exercises);
  }
  return parts;
}

/** Parses every chapter; returns { chapters, index, errors }. Exported for tests. widgets: a Set of names, or a
 *  Map name → the props its directive may set (null: unchecked); by default the widgets of web/widgets. */
export function loadChapters({ chaptersDir = path.join(web, 'chapters'), widgets, exercises } = {}) {
  const errors = [];
  widgets ??= widgetProps(listWidgets(), errors);
  exercises ??= listExercises(errors);
  const md = createMarkdown();
  const chapters = [];
  const index = [];
  for (const id of fs.existsSync(chaptersDir) ? fs.readdirSync(chaptersDir).sort() : []) {
    const dir = path.join(chaptersDir, id);
    if (!fs.statSync(dir).isDirectory()) continue;
    const entry = { id, order: 0, titles: {}, summaries: {}, sections: {}, langs: [], declared: null };
    for (const lang of LANGS) {
      const file = path.join(dir, `${lang}.md`);
      if (!fs.existsSync(file)) continue;
      const { meta, blocks, toc, errors: errs } = parseChapter(fs.readFileSync(file, 'utf8'), { file: rel(file), dirId: id, lang, widgets, exercises, md });
      errors.push(...errs);
      chapters.push({ id, lang, title: meta.title, order: meta.order, toc, blocks });
      entry.order = meta.order;
      entry.titles[lang] = meta.title;
      // The chapter list: a line on what the reader will do, and the chapter's parts with their exercises.
      if (typeof meta.summary === 'string') entry.summaries[lang] = meta.summary;
      entry.sections[lang] = chapterSections(toc);
      entry.cells = collectBlocks(blocks, 'cell').map((b) => b.id);
      // The chapter list shows the reader's progress: which exercises count (the same in both languages).
      entry.exercises = collectBlocks(blocks, 'exercise').map((b) => b.id);
      entry.langs.push(lang);
      entry.declared ??= meta.languages ?? null;
    }
    const unknown = fs.readdirSync(dir).filter((f) => f.endsWith('.md') && !LANGS.includes(f.slice(0, -3)));
    for (const f of unknown) errors.push({ file: rel(path.join(dir, f)), line: 1, message: `unknown language "${f.slice(0, -3)}" (expected ${LANGS.join(' or ')})` });
    if (entry.langs.length) index.push(entry);
    // A chapter is written in both languages unless its front matter declares fewer ("languages: en").
    const wanted = entry.declared ?? LANGS;
    const missing = entry.langs.length ? wanted.filter((l) => !entry.langs.includes(l)) : [];
    for (const l of missing) {
      errors.push({ file: rel(path.join(dir, `${entry.langs[0]}.md`)), line: 1,
        message: entry.declared
          ? `chapter "${id}" declares languages ${wanted.join(', ')} but has no ${l}.md`
          : `chapter "${id}" has no ${l}.md: a chapter is written in ${LANGS.join(' and ')}, with the same cells, exercises and headings, ` +
            `unless its front matter declares its languages (languages: ${entry.langs.join(', ')})` });
    }
    const extra = entry.declared ? entry.langs.filter((l) => !entry.declared.includes(l)) : [];
    for (const l of extra) errors.push({ file: rel(path.join(dir, `${l}.md`)), line: 1, message: `chapter "${id}" declares languages ${entry.declared.join(', ')}, not ${l}` });
    delete entry.declared;
  }
  // Cells must line up across languages, so a reader switching language lands on the same cell.
  for (const e of index) {
    const [a, b] = e.langs.map((l) => chapters.find((c) => c.id === e.id && c.lang === l));
    if (!b) continue;
    const zhFile = rel(path.join(chaptersDir, e.id, 'zh.md'));
    // The first item where zh.md's list differs from en.md's (by key), at its line in zh.md when it has one.
    const mismatch = (what, xs, ys, { key, show, rule }) => {
      const k = xs.findIndex((x, i) => i >= ys.length || key(x) !== key(ys[i]));
      if (k < 0 && xs.length === ys.length) return;
      const at = k < 0 ? xs.length : k;
      errors.push({ file: zhFile, line: xs[at]?.line ?? xs.at(-1)?.line ?? 1,
        message: `${what} ${at + 1} differs: zh.md has ${show(xs[at], 'zh.md')} where en.md has ${show(ys[at], 'en.md')}: ${rule}` });
    };
    // Cells, exercises and widgets: attempts are saved per cell and exercise, whichever language the reader uses.
    for (const type of ['cell', 'exercise', 'widget']) {
      const name = (x) => `${type} ${JSON.stringify(x.id ?? x.name ?? '(no id)')}`;
      mismatch(type, collectBlocks(b.blocks, type), collectBlocks(a.blocks, type), {
        key: name, show: (x, file) => (x ? `${name(x)} (${file}:${x.line})` : `nothing (the end of ${file})`),
        rule: `both languages need the same ${type}s in the same order`,
      });
    }
    // The contents too: a reader's progress per section is counted alike in both languages. Headings are
    // shown as written (a level-2 heading of the page is "#"), with the exercises placed under each.
    mismatch('heading', b.toc, a.toc, {
      key: (t) => `${t.level} ${t.exercises.join(' ')}`,
      show: (t) => (t ? `"${'#'.repeat(Math.max(1, t.level - 1))} ${t.label ?? t.html.replace(/<[^>]*>/g, '')}"` +
        (t.exercises.length ? ` over ${t.exercises.join(', ')}` : '') : 'no more headings'),
      rule: 'both languages need the same headings, at the same levels, over the same exercises',
    });
    if (a.order !== b.order) errors.push({ file: zhFile, line: 1, message: `order ${b.order} differs from en.md's ${a.order}` });
  }
  index.sort((x, y) => x.order - y.order || x.id.localeCompare(y.id));
  return { chapters, index, errors };
}

/** The blocks with each exercise's statementHtml and exercise moved into out[id] (as the page puts them back). */
function splitExercises(blocks, out) {
  return blocks.map((b) => {
    if (b.type === 'exercise') {
      const { statementHtml, exercise, ...rest } = b;
      out[b.id] = { statementHtml, exercise };
      return rest;
    }
    return b.children ? { ...b, children: splitExercises(b.children, out) } : b;
  });
}

function collectBlocks(blocks, type, out = []) {
  for (const b of blocks) {
    if (b.type === type) out.push(b);
    if (b.type === 'details') collectBlocks(b.children, type, out);
  }
  return out;
}

function virtualModules(widgets) {
  return {
    name: 'tensorpad-virtual',
    setup(build) {
      build.onResolve({ filter: /^tensorpad:/ }, (a) => ({ path: a.path, namespace: 'tensorpad-virtual' }));
      build.onLoad({ filter: /.*/, namespace: 'tensorpad-virtual' }, (a) => {
        if (a.path === 'tensorpad:widgets') {
          const lines = [...widgets].map(([name, file]) => `  ${JSON.stringify(name)}: () => import(${JSON.stringify(file)}),`);
          return { contents: `export const widgets = {\n${lines.join('\n')}\n};\n`, resolveDir: web, loader: 'js' };
        }
        return null;
      });
    },
  };
}

function tensorpadEntry() {
  if (process.env.TP_STUB === '1') return path.join(web, 'tools', 'tp-stub.js');
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const entry = path.join(root, pkg.exports['.'].browser.default);
  const core = path.join(root, 'build', 'wasm', 'web', 'tensorpad_core.js');
  if (!fs.existsSync(entry) || !fs.existsSync(core)) {
    throw new Error(`the WASM module is not built (need ${rel(entry)} and ${rel(core)}): build it first, or set TP_STUB=1 for a stub`);
  }
  return entry;
}

function copyDir(from, to, filter = () => true) {
  fs.mkdirSync(to, { recursive: true });
  for (const f of fs.readdirSync(from)) if (filter(f)) fs.copyFileSync(path.join(from, f), path.join(to, f));
}

// The one page shell for both languages. main.js sets <html lang> and the skip link's text from the
// reader's language; what shows before (or without) JavaScript says it in both.
// preloads: the chunks main.js imports statically, fetched with it rather than after it has been parsed.
// theme-boot.js, a classic script that blocks the parser, comes last: Chromium asked for nothing after it until it had
// arrived and run (one round trip, 50-350 ms at load 12-15, before the chapter's own download). Still in <head>, it
// runs before the body is parsed and before the first paint (which waits for the stylesheets above it anyway).
function indexHtml(preloads = []) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="referrer" content="no-referrer">
<title>Tensorpad</title>
<link rel="icon" href="data:,">
<script async src="assets/chapter-preload.js"></script>
<link rel="stylesheet" href="assets/style.css">
<link rel="stylesheet" href="katex/katex.min.css">
<link rel="preload" href="chapters/index.json" as="fetch" crossorigin="anonymous">
<script type="module" src="assets/main.js"></script>
${preloads.map((f) => `<link rel="modulepreload" href="${f}">\n`).join('')}<script src="assets/theme-boot.js"></script>
</head>
<body>
<a class="skip-link" href="#main">Skip to content</a>
<div id="app"><p class="loading"><span lang="en">Loading…</span> <span lang="zh-CN">加载中…</span></p></div>
<noscript><p lang="en">Tensorpad needs JavaScript to run its cells.</p><p lang="zh-CN">Tensorpad 需要 JavaScript 才能运行代码单元。</p></noscript>
</body>
</html>
`;
}

// Files the service worker does not keep: itself, and KaTeX's .woff and .ttf fonts, which only browsers
// without .woff2 (and so without service workers) ask for.
const NOT_KEPT_OFFLINE = /^(sw\.js|katex\/fonts\/.*\.(woff|ttf))$/;

function listFiles(dir, prefix = '') {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listFiles(path.join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]);
}

/**
 * Writes dist/sw.js: web/src/sw.js after the manifest of the build in dist (each file's SHA-256 prefix,
 * and a version that changes with any of them). Exported for tests, which change a file and re-write it.
 */
export function writeServiceWorker(dir = dist) {
  const hashOf = (file) => crypto.createHash('sha256').update(fs.readFileSync(path.join(dir, file))).digest('hex').slice(0, 16);
  const files = Object.fromEntries(listFiles(dir).filter((f) => !NOT_KEPT_OFFLINE.test(f)).sort().map((f) => [f, hashOf(f)]));
  const version = crypto.createHash('sha256').update(JSON.stringify(files)).digest('hex').slice(0, 16);
  const source = fs.readFileSync(path.join(web, 'src', 'sw.js'), 'utf8');
  fs.writeFileSync(path.join(dir, 'sw.js'), `const PRECACHE = ${JSON.stringify({ version, files })};\n${source}`);
  return { version, files };
}

export async function build({ quiet = false, check = false, chaptersDir, publicCases = 'all' } = {}) {
  const t0 = performance.now();
  const widgets = listWidgets();
  const { chapters, index, errors } = loadChapters({ chaptersDir });
  if (errors.length) {
    const err = new Error(errors.map((e) => `${e.file}:${e.line}: ${e.message}`).join('\n'));
    err.authorErrors = errors;
    throw err;
  }
  if (check) {
    if (!quiet) console.log(`web/build: ${chapters.length} chapter file(s) are valid`);
    return { chapters, index };
  }
  const tpEntry = tensorpadEntry();
  fs.rmSync(dist, { recursive: true, force: true });
  fs.mkdirSync(path.join(dist, 'chapters'), { recursive: true });
  for (const c of chapters) {
    fs.mkdirSync(path.join(dist, 'chapters', c.id), { recursive: true });
    // The exercises' statements (KaTeX HTML) and their data are half a long chapter's bytes: they go in a
    // file of their own, which the page fetches once its first screen is drawn (web/src/notebook.js).
    const exercises = {};
    const blocks = splitExercises(c.blocks, exercises);
    const exercisesFile = Object.keys(exercises).length ? `${c.lang}.exercises.json` : undefined;
    fs.writeFileSync(path.join(dist, 'chapters', c.id, `${c.lang}.json`), JSON.stringify({ ...c, blocks, exercisesFile }));
    if (exercisesFile) fs.writeFileSync(path.join(dist, 'chapters', c.id, exercisesFile), JSON.stringify(exercises));
  }
  // A chapter's assets/ folder (data its cells fetch, e.g. the passage a loaded model reads) ships beside it.
  for (const id of new Set(chapters.map((c) => c.id))) {
    const assets = path.join(chaptersDir ?? path.join(web, 'chapters'), id, 'assets');
    if (fs.existsSync(assets)) copyDir(assets, path.join(dist, 'chapters', id, 'assets'));
  }
  // A chapter written in fewer languages gets a placeholder for the others: the page fetches the likely
  // language before the index arrives, and a placeholder answers that without a 404 (the index says
  // which languages there are, and the page then loads one of those).
  for (const e of index) {
    for (const l of LANGS.filter((x) => !e.langs.includes(x))) {
      fs.writeFileSync(path.join(dist, 'chapters', e.id, `${l}.json`), JSON.stringify({ id: e.id, lang: l, missing: true, langs: e.langs }));
    }
  }
  fs.writeFileSync(path.join(dist, 'chapters', 'index.json'), JSON.stringify(index));

  const mtDir = path.join(root, 'build', 'wasm', 'web-mt');
  const mtFiles = ['tensorpad_core.js', 'tensorpad_core.worker.js', 'tensorpad_core.wasm'];
  const mtCore = process.env.TP_STUB !== '1' && mtFiles.every((f) => fs.existsSync(path.join(mtDir, f)));
  if (mtCore) copyDir(mtDir, path.join(dist, 'mt'), (f) => mtFiles.includes(f));

  // Every bundle that may load tp (the cell worker, tp.js, the judge's worker: all at the top of dist/)
  // finds the unbundled pthreads core in dist/mt/, or knows there is none: see wasm/js/browser.js.
  const common = {
    bundle: true, format: 'esm', platform: 'browser', conditions: ['browser'], target: 'es2022', minify: true,
    legalComments: 'none', logLevel: 'warning',
    define: { __TP_MT_CORE__: JSON.stringify(mtCore ? './mt/tensorpad_core.js' : null) },
  };
  const page = await esbuild.build({
    ...common,
    metafile: true,
    entryPoints: { main: path.join(web, 'src', 'main.js') },
    outdir: path.join(dist, 'assets'),
    splitting: true,
    chunkNames: 'chunk-[hash]',
    plugins: [virtualModules(widgets)],
  });
  await esbuild.build({
    ...common,
    // worker.js runs the cells; tp.js is the tp API alone, for other workers (the judge's) to import.
    entryPoints: { worker: path.join(web, 'src', 'worker.js'), tp: tpEntry },
    outdir: dist,
    alias: { tensorpad: tpEntry },
    external: ['module', 'fs', 'path', 'url', 'node:*', 'worker_threads', 'crypto'],
  });
  const wasmDir = path.join(root, 'build', 'wasm', 'web');
  if (process.env.TP_STUB !== '1') copyDir(wasmDir, dist, (f) => f.endsWith('.wasm'));

  const katexDist = path.join(root, 'node_modules', 'katex', 'dist');
  fs.mkdirSync(path.join(dist, 'katex'), { recursive: true });
  fs.copyFileSync(path.join(katexDist, 'katex.min.css'), path.join(dist, 'katex', 'katex.min.css'));
  copyDir(path.join(katexDist, 'fonts'), path.join(dist, 'katex', 'fonts'));
  fs.copyFileSync(path.join(web, 'src', 'style.css'), path.join(dist, 'assets', 'style.css'));
  // A classic script run before the first paint (it picks the colour theme), copied as written.
  fs.copyFileSync(path.join(web, 'src', 'theme-boot.js'), path.join(dist, 'assets', 'theme-boot.js'));
  // Another, which starts the download of the chapter the URL names before the modules have loaded.
  fs.copyFileSync(path.join(web, 'src', 'chapter-preload.js'), path.join(dist, 'assets', 'chapter-preload.js'));
  copyDir(path.join(web, 'fonts'), path.join(dist, 'fonts'), (f) => f.endsWith('.woff2') || f.startsWith('LICENSE'));
  // main.js's output by its name: with splitting, every chunk a dynamic import() loads is an entry point too
  // (the first such output was preloaded instead of main.js's own imports, which then waited for main.js).
  const mainOut = Object.entries(page.metafile.outputs).find(([f]) => path.resolve(f) === path.join(dist, 'assets', 'main.js'))?.[1];
  if (!mainOut) throw new Error('web/build: esbuild wrote no assets/main.js');
  const chunks = mainOut.imports.filter((i) => i.kind === 'import-statement').map((i) => path.relative(dist, path.resolve(i.path)));
  fs.writeFileSync(path.join(dist, 'index.html'), indexHtml(chunks));

  // The judge's own bundles (its isolated worker, exercise modules).
  await buildJudge({ esbuild, root, web, dist, common, publicCases });

  // Last, so that its manifest covers every file written above.
  writeServiceWorker(dist);

  if (!quiet) {
    const n = chapters.length;
    console.log(`web/build: ${n} chapter file${n === 1 ? '' : 's'}, ${widgets.size} widget(s) → ${rel(dist)} in ${Math.round(performance.now() - t0)} ms`);
  }
  return { chapters, index };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--chapters');
  const pc = args.indexOf('--public-cases');   // all (default) | examples: see web/judge/page/build-hook.mjs
  build({ check: args.includes('--check'), chaptersDir: at >= 0 ? path.resolve(args[at + 1]) : undefined,
    publicCases: pc >= 0 ? args[pc + 1] : undefined }).catch((e) => {
    // esbuild's own errors name file:line already; anything else is a bug of the build, with its stack.
    console.error(e.authorErrors ? `web/build: ${e.authorErrors.length} author error(s):\n${e.message}`
      : Array.isArray(e.errors) ? `web/build: ${e.message}` : `web/build: ${e.stack ?? e.message}`);
    process.exit(1);
  });
}

// The chapter format and the build (web/content/chapter.mjs, web/build.mjs) and the exports
// (web/runtime/export.js): author mistakes are errors naming file and line; .ipynb validates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import { parseChapter, slug } from '../../web/content/chapter.mjs';
import crypto from 'node:crypto';
import { loadChapters, writeServiceWorker } from '../../web/build.mjs';
import { toIpynb, chapterToMarkdown } from '../../web/runtime/export.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FM = '---\nid: t\ntitle: "T"\norder: 1\n---\n';
const parse = (body, extra = {}) => parseChapter(FM + body, { file: 't/en.md', dirId: 't', lang: 'en', widgets: new Set(['slider']), exercises: new Map([['ex1', { title: { en: 'Ex one' }, statement: { en: 'Find $x$.' } }]]), ...extra });
const lines = (r) => r.errors.map((e) => `${e.file}:${e.line}: ${e.message}`);

test('a chapter parses into markdown, cells, widgets, exercises and details', () => {
  const r = parse('Text $a^2$.\n\n```js\nconst a = 1;\n```\n\n:::widget slider name=k max=5 label="Rank k"\n\n:::exercise ex1\n\n:::details Answer\nIt is $2$.\n\n```js id=ans\na + 1\n```\n:::\n');
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.meta, { id: 't', title: 'T', order: 1 });
  assert.deepEqual(r.blocks.map((b) => b.type), ['md', 'cell', 'widget', 'exercise', 'details']);
  assert.match(r.blocks[0].html, /class="katex"/);
  assert.deepEqual(r.blocks[1], { type: 'cell', id: 'c1', source: 'const a = 1;', line: 8, info: 'js', subLevel: 2 });
  assert.deepEqual(r.blocks[2].props, { name: 'k', max: '5', label: 'Rank k' });
  assert.equal(r.blocks[3].title, 'Ex one');
  assert.match(r.blocks[3].statementHtml, /katex/);
  assert.equal(r.blocks[4].children[1].id, 'ans');
});

test('headings render one level down (the title is the h1), and each block says the level of a heading added before it', () => {
  const r = parse('# Part\n\n```js\n1\n```\n\n## Topic\n\n:::exercise ex1\n\n:::details More\n#### Deep\n\n:::exercise ex1\n:::\n');
  assert.match(r.blocks[0].html, /<h2[ >]/);
  assert.deepEqual(r.blocks.map((b) => [b.type, b.subLevel]), [['md', 2], ['cell', 3], ['md', 3], ['exercise', 4], ['details', 4]]);
  const inner = r.blocks[4].children;
  assert.match(inner[0].html, /<h4[ >]/, 'a heading never skips a level: #### under an h3 is an h4');
  assert.equal(inner[1].subLevel, 5);
});

test('the contents list the headings of the chapter text with unique ids, and the exercises under each', () => {
  const r = parse('# Part one\n\nText.\n\n## Why divide by $\\sqrt{d_k}$\n\n:::exercise ex1\n\n## Why divide by $d$\n\n:::details Answer\n## Hidden\n:::\n\n# Part one\n\n:::exercise ex2\n', {
    exercises: new Map(['ex1', 'ex2'].map((id) => [id, { title: { en: 'Ex one' }, statement: { en: '## Own heading\nFind $x$.' } }])),
  });
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.toc.map(({ level, id, exercises }) => [level, id, exercises]), [
    [2, 'sec-part-one', []],
    [3, 'sec-why-divide-by', ['ex1']],
    [3, 'sec-why-divide-by-2', []],
    [2, 'sec-part-one-2', ['ex2']],
  ], 'formulas leave the id, a repeated title gets -2, headings inside details and exercise statements are not listed');
  assert.match(r.toc[1].html, /^Why divide by <span class="katex">/, 'an entry shows its formula');
  assert.equal(r.toc[1].label, 'Why divide by \\sqrt{d_k}', 'and names it in words a link can carry');
  assert.equal(r.toc[0].label, undefined);
  assert.match(r.blocks[0].html, /<h2 id="sec-part-one">Part one<\/h2>/);
  assert.match(r.blocks[0].html, /<h3 id="sec-why-divide-by">/);
  assert.doesNotMatch(r.blocks.find((b) => b.type === 'exercise').statementHtml, /id=/);
  assert.equal(slug('从 token id 到向量：SVD'), 'sec-从-token-id-到向量-svd', 'letters of any script are kept');
  assert.equal(slug(''), 'sec-section');
  const math = parse('# Why divide by \\(\\sqrt{d_k}\\)\n\n# Costs $5 and $6 per token\n');
  assert.deepEqual(math.toc.map((e) => e.id), ['sec-why-divide-by', 'sec-costs-5-and-6-per-token'], 'formulas of any delimiter are left out, dollar amounts kept');
});

test('display math in \\[…\\] and $$…$$ renders', () => {
  const r = parse('\\[\nx^2\n\\]\n\n$$\n\\frac{1}{2}\n$$\n\nInline \\(y\\) and $z$.\n');
  assert.deepEqual(r.errors, []);
  assert.equal((r.blocks[0].html.match(/katex-display/g) ?? []).length, 2);
});

test('a dollar amount is not math', () => {
  const r = parse('It costs $5 and $6.\n');
  assert.deepEqual(r.errors, []);
  assert.doesNotMatch(r.blocks[0].html, /katex/);
});

test('an unknown directive is an error at its line', () => {
  assert.deepEqual(lines(parse('a\n\n:::figure x\n')), ['t/en.md:8: unknown directive ":::figure" (known: widget, exercise, details)']);
});

test('an unknown exercise id or widget is an error at its line', () => {
  assert.deepEqual(lines(parse(':::exercise nope\n')), ['t/en.md:6: unknown exercise "nope" (no exercises/nope/exercise.json)']);
  assert.match(lines(parse('\n:::widget nope\n'))[0], /^t\/en\.md:7: unknown widget "nope"/);
});

test('an unclosed fence is an error at the line that opened it', () => {
  assert.match(lines(parse('text\n\n```js\nconst a = 1;\n'))[0], /^t\/en\.md:8: unclosed code fence/);
  assert.match(lines(parse('```python\nx\n'))[0], /^t\/en\.md:6: unclosed code fence/);
});

test('a KaTeX error is an error at the line of the formula', () => {
  const l = lines(parse('one\n\ntwo $\\frac{1}{$ three\nfour $\\badmacro$\n'));
  assert.equal(l.length, 2);
  assert.match(l[0], /^t\/en\.md:8: KaTeX/);
  assert.match(l[1], /^t\/en\.md:9: KaTeX.*badmacro/);
  assert.match(lines(parse('\n$$\n\\sqrt{\n$$\n'))[0], /^t\/en\.md:7: KaTeX/);
});

test('unclosed display math is an error at its opening line', () => {
  assert.deepEqual(lines(parse('text\n\n$$\nx^2\n\nmore\n')), ['t/en.md:8: unclosed display math $$: no $$ after it']);
});

test('details must be closed and ":::" must close something', () => {
  assert.match(lines(parse(':::details A\ntext\n'))[0], /^t\/en\.md:6: :::details is never closed/);
  assert.match(lines(parse('text\n:::\n'))[0], /^t\/en\.md:7: ":::" closes nothing/);
});

test('front matter is required and checked', () => {
  const r = parseChapter('# no front matter\n', { file: 'x/en.md', dirId: 'x', lang: 'en' });
  assert.match(lines(r)[0], /^x\/en\.md:1: missing front matter/);
  const r2 = parseChapter('---\nid: y\ntitle: T\norder: first\n---\n', { file: 'x/en.md', dirId: 'x', lang: 'en' });
  assert.ok(lines(r2).some((l) => /id "y" does not match the folder name "x"/.test(l)));
  assert.ok(lines(r2).some((l) => /"order" must be a number/.test(l)));
});

test('duplicate cell ids are errors', () => {
  assert.match(lines(parse('```js id=a\n1\n```\n```js id=a\n2\n```\n'))[0], /^t\/en\.md:9: duplicate cell id "a"/);
});

test('a fence left open before the next cell is an error at its line, not a silently merged cell', () => {
  const l = lines(parse('```js id=a\nconst a = 1;\n\n```js id=b\nconst b = 2;\n```\n'));
  assert.equal(l[0], 't/en.md:6: code fence ```js is not closed before line 9, which opens another fence');
  assert.deepEqual(lines(parse('````text\n```js id=shown\n1\n```\n````\n')), [], 'a longer outer fence may show fences');
});

test('a cell with a syntax error, an unknown attribute or a bare id is an error at its line', () => {
  assert.deepEqual(lines(parse('```js id=s\nconst ok = 1;\nconst x = {;\n```\n')), ['t/en.md:8: cell "s": SyntaxError: Unexpected token']);
  assert.deepEqual(lines(parse('```js idd=a\n1\n```\n')), ['t/en.md:6: unknown cell attribute "idd" (known: id; an id is written id=my-cell)']);
  assert.match(lines(parse('```js id=norm a\n1\n```\n'))[0], /^t\/en\.md:6: unknown cell attribute "a"/);
  assert.match(lines(parse('```js id\n1\n```\n'))[0], /^t\/en\.md:6: cell attribute "id" needs a value/);
  assert.deepEqual(lines(parse('```js id=ok\nawait 1;\nimport { x } from "./y.js";\nexport const z = 2;\n```\n')), [], 'what the cell runner accepts');
});

test('formula errors in a details summary or an exercise statement are errors, naming the exercise file', () => {
  assert.match(lines(parse('text\n:::details Why $\\frac{1}{$ here?\nx\n:::\n'))[0], /^t\/en\.md:7: KaTeX/);
  const bad = new Map([['ex1', { title: { en: 'E' }, statement: { en: 'Find $\\foo$.' } }]]);
  assert.match(lines(parse('\n:::exercise ex1\n', { exercises: bad }))[0],
    /^t\/en\.md:7: in the en statement of exercises\/ex1\/exercise\.json: KaTeX: Undefined control sequence/);
  assert.deepEqual(lines(parse(':::exercise ex1 extra\n')), ['t/en.md:6: :::exercise takes one exercise id, got "ex1 extra"']);
  const zhOnly = new Map([['ex1', { title: { en: 'E', zh: '练习' }, statement: { zh: '求 $x$。' } }]]);
  assert.deepEqual(lines(parse(':::exercise ex1\n', { exercises: zhOnly })),
    ['t/en.md:6: exercise "ex1" has no en statement (exercises/ex1/exercise.json "statement": {"en": ...})']);
});

test('unclosed front matter is one error, not one per line after it', () => {
  const r = parseChapter('---\nid: t\ntitle: T\norder: 1\n\ntext\n```js\n1\n```\n', { file: 'x/en.md', dirId: 't', lang: 'en' });
  assert.deepEqual(lines(r), ['x/en.md:1: front matter opened here is not closed by a line "---"']);
});

test('both languages of a chapter must place the same exercises, widgets and headings and share its order', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-chapters-'));
  fs.mkdirSync(path.join(dir, 'two'));
  fs.writeFileSync(path.join(dir, 'two', 'en.md'), '---\nid: two\ntitle: Two\norder: 1\n---\n\n:::exercise lora-params\n');
  fs.writeFileSync(path.join(dir, 'two', 'zh.md'), '---\nid: two\ntitle: 二\norder: 2\n---\n\n:::exercise matmul-cost\n');
  const r = spawnSync(process.execPath, [path.join(root, 'web/build.mjs'), '--check', '--chapters', dir], { encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /two\/zh\.md:7: exercise 1 differs: zh\.md has exercise "matmul-cost" \(zh\.md:7\) where en\.md has exercise "lora-params" \(en\.md:7\)/);
  assert.match(r.stderr, /two\/zh\.md:1: order 2 differs from en\.md's 1/);
  fs.writeFileSync(path.join(dir, 'two', 'en.md'), '---\nid: two\ntitle: Two\norder: 1\n---\n\n# A\n\n## B\n\n:::exercise lora-params\n');
  fs.writeFileSync(path.join(dir, 'two', 'zh.md'), '---\nid: two\ntitle: 二\norder: 1\n---\n\n# 甲\n\n:::exercise lora-params\n\n## 乙\n');
  const h = spawnSync(process.execPath, [path.join(root, 'web/build.mjs'), '--check', '--chapters', dir], { encoding: 'utf8' });
  assert.equal(h.status, 1);
  assert.match(h.stderr, /two\/zh\.md:1: heading 1 differs: zh\.md has "# 甲" over lora-params where en\.md has "# A": both languages need the same headings/);
  fs.writeFileSync(path.join(dir, 'two', 'zh.md'), '---\nid: two\ntitle: 二\norder: 1\n---\n\n# 甲\n\n## 乙\n\n:::exercise lora-params\n\n## 丙\n');
  const more = spawnSync(process.execPath, [path.join(root, 'web/build.mjs'), '--check', '--chapters', dir], { encoding: 'utf8' });
  assert.match(more.stderr, /two\/zh\.md:1: heading 3 differs: zh\.md has "## 丙" where en\.md has no more headings/);
  fs.rmSync(path.join(dir, 'two', 'zh.md'));
  const alone = spawnSync(process.execPath, [path.join(root, 'web/build.mjs'), '--check', '--chapters', dir], { encoding: 'utf8' });
  assert.equal(alone.status, 1);
  assert.match(alone.stderr, /two\/en\.md:1: chapter "two" has no zh\.md: a chapter is written in en and zh, .* unless its front matter declares its languages \(languages: en\)/);
  fs.rmSync(dir, { recursive: true });
});

test('a chapter that declares one language builds alone; a declared language without its file, or a file outside the list, is an error', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-chapters-'));
  fs.mkdirSync(path.join(dir, 'solo'));
  fs.writeFileSync(path.join(dir, 'solo', 'en.md'), '---\nid: solo\ntitle: Solo\norder: 3\nlanguages: en\n---\n\n# Part\n\n```js id=a\n1 + 1\n```\n\n:::exercise lora-params\n');
  const { chapters, index, errors } = loadChapters({ chaptersDir: dir });
  assert.deepEqual(errors, []);
  assert.deepEqual(chapters.map((c) => c.lang), ['en']);
  assert.deepEqual(index.map((e) => [e.id, e.langs]), [['solo', ['en']]]);
  const check = (args = []) => spawnSync(process.execPath, [path.join(root, 'web/build.mjs'), '--check', '--chapters', dir, ...args], { encoding: 'utf8' });
  assert.equal(check().status, 0, check().stderr);
  fs.writeFileSync(path.join(dir, 'solo', 'en.md'), '---\nid: solo\ntitle: Solo\norder: 3\nlanguages: [en, zh]\n---\n\nText.\n');
  assert.match(check().stderr, /solo\/en\.md:1: chapter "solo" declares languages en, zh but has no zh\.md/);
  fs.writeFileSync(path.join(dir, 'solo', 'en.md'), '---\nid: solo\ntitle: Solo\norder: 3\nlanguages: fr\n---\n\nText.\n');
  assert.match(check().stderr, /solo\/en\.md:1: front matter: "languages" must list en and\/or zh, got "fr"/);
  fs.writeFileSync(path.join(dir, 'solo', 'en.md'), '---\nid: solo\ntitle: Solo\norder: 3\nlanguages: en\n---\n\nText.\n');
  fs.writeFileSync(path.join(dir, 'solo', 'zh.md'), '---\nid: solo\ntitle: 独\norder: 3\n---\n\n正文。\n');
  assert.match(check().stderr, /solo\/zh\.md:1: chapter "solo" declares languages en, not zh/);
  fs.rmSync(dir, { recursive: true });
});

test('an exercise written in one language is placed in a chapter of the other in its own language, marked', () => {
  const ex = new Map([['only-en', { languages: ['en'], title: { en: 'Only English' }, statement: { en: 'Find $x$.' } }]]);
  const r = parseChapter('---\nid: t\ntitle: "T"\norder: 1\n---\n\n:::exercise only-en\n', { file: 't/zh.md', dirId: 't', lang: 'zh', exercises: ex });
  assert.deepEqual(lines(r), []);
  const b = r.blocks.find((x) => x.type === 'exercise');
  assert.equal(b.title, 'Only English');
  assert.equal(b.textLang, 'en');
  assert.match(b.statementHtml, /katex/);
  const same = parse(':::exercise ex1\n');
  assert.equal(same.blocks.find((x) => x.type === 'exercise').textLang, undefined, 'no mark when the exercise has the chapter language');
});

test('the build exits non-zero naming file and line for each author mistake', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-chapters-'));
  fs.mkdirSync(path.join(dir, 'bad'));
  fs.writeFileSync(path.join(dir, 'bad', 'en.md'), '---\nid: bad\ntitle: Bad\norder: 1\n---\n\n:::nonsense\n\n```js\nlet a;\n');
  const r = spawnSync(process.execPath, [path.join(root, 'web/build.mjs'), '--check', '--chapters', dir], { encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /bad\/en\.md:7: unknown directive ":::nonsense"/);
  assert.match(r.stderr, /bad\/en\.md:9: unclosed code fence/);
  fs.rmSync(dir, { recursive: true });
});

test('the shipped chapters build without errors and line up across languages', () => {
  const { chapters, errors } = loadChapters();
  assert.deepEqual(errors, []);
  assert.ok(chapters.some((c) => c.id === 'demo' && c.lang === 'en'));
  assert.ok(chapters.some((c) => c.id === 'demo' && c.lang === 'zh'));
});

test("the service worker's manifest hashes every file of the build but itself and KaTeX's .woff/.ttf, and its version follows any file", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-sw-'));
  try {
    const put = (f, text) => { fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true }); fs.writeFileSync(path.join(dir, f), text); };
    put('index.html', '<!doctype html>');
    put('assets/main.js', 'main');
    put('katex/fonts/KaTeX_Main-Regular.woff2', 'w2');
    put('katex/fonts/KaTeX_Main-Regular.woff', 'w1');
    put('katex/fonts/KaTeX_Main-Regular.ttf', 'ttf');
    const first = writeServiceWorker(dir);
    const sha = (text) => crypto.createHash('sha256').update(text).digest('hex').slice(0, 16);
    assert.deepEqual(first.files, { 'assets/main.js': sha('main'), 'index.html': sha('<!doctype html>'), 'katex/fonts/KaTeX_Main-Regular.woff2': sha('w2') });
    const sw = fs.readFileSync(path.join(dir, 'sw.js'), 'utf8');
    assert.deepEqual(JSON.parse(sw.match(/^const PRECACHE = (.*);$/m)[1]), first);
    assert.match(sw, /addEventListener\('fetch'/);
    assert.equal(writeServiceWorker(dir).version, first.version, 'sw.js itself is not in the manifest');
    put('assets/main.js', 'main, edited');
    assert.notEqual(writeServiceWorker(dir).version, first.version);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('toIpynb produces nbformat 4.5 that validates against the schema', () => {
  const schema = JSON.parse(fs.readFileSync(path.join(root, 'tests/browser/fixtures/nbformat.v4.5.schema.json'), 'utf8'));
  delete schema.$schema;
  const validate = new Ajv({ strict: false, allErrors: true }).compile(schema);
  const { chapters } = loadChapters();
  const demo = chapters.find((c) => c.id === 'demo' && c.lang === 'en');
  const outputs = {
    c1: [{ kind: 'tensor', text: 'tensor([1.])' }, { kind: 'stream', name: 'stdout', text: 'hi\n' }],
    c2: [{ kind: 'table', columns: ['a'], rows: [[1]], total: 1 }, { kind: 'error', error: { name: 'TypeError', message: 'x', line: 2 } }],
    c3: [{ kind: 'plot', spec: { kind: 'line' }, svg: '<svg></svg>', description: 'Line chart' }, { kind: 'html', html: '<b>b</b>' }],
  };
  const nb = toIpynb(demo, { sources: { c1: 'edited()' }, outputs, counts: { c1: 1 } });
  assert.ok(validate(nb), JSON.stringify(validate.errors, null, 1));
  assert.equal(nb.cells.find((c) => c.id === 'c1').source, 'edited()');
  assert.ok(nb.cells.some((c) => c.cell_type === 'markdown'));
});

test('chapterToMarkdown round-trips through the parser with edits applied', () => {
  const { chapters } = loadChapters();
  const demo = chapters.find((c) => c.id === 'demo' && c.lang === 'en');
  const text = chapterToMarkdown(demo, { c1: 'const A = 1;' });
  const widgets = new Set(fs.readdirSync(path.join(root, 'web/widgets')).filter((f) => f.endsWith('.js')).map((f) => f.slice(0, -3)));
  const again = parseChapter(text, { file: 'demo/en.md', dirId: 'demo', lang: 'en', widgets });
  assert.deepEqual(again.errors, []);
  const cells = (bs) => bs.flatMap((b) => (b.type === 'cell' ? [b.source] : b.type === 'details' ? cells(b.children) : []));
  assert.equal(cells(again.blocks)[0], 'const A = 1;');
  assert.equal(cells(again.blocks).length, cells(demo.blocks).length);
});

test('a widget directive may set only the props its widget declares, with closed quotes', () => {
  const widgets = new Map([['slider', ['name', 'label', 'min']]]);
  const r = parse(':::widget slider nam=t10 min=1\n\n:::widget slider name=t label="T x 10\n', { widgets });
  assert.deepEqual(lines(r), [
    't/en.md:6: widget "slider" takes no prop "nam" (did you mean name?); its props: name, label, min',
    't/en.md:8: the value of "label" opens a quote (") that the line never closes',
  ]);
  assert.deepEqual(lines(parse(':::widget slider name=t label="T x 10" min=2\n', { widgets })), []);
});

test('placing one exercise twice in a chapter is an error at the second place', () => {
  assert.deepEqual(lines(parse(':::exercise ex1\n\ntext\n\n:::exercise ex1\n')),
    ["t/en.md:10: exercise \"ex1\" is already placed on line 6: a reader's attempt is kept once per exercise"]);
});

test('the build validates exercises as tensorpad check first does, and every widget parses and declares its props', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tp-author-build-'));
  try {
    const exercises = path.join(dir, 'exercises');
    fs.cpSync(path.join(root, 'tests/js/fixtures-exercises/frob-norm'), path.join(exercises, 'frob-norm'), { recursive: true });
    fs.cpSync(path.join(root, 'tests/js/fixtures-exercises/frob-norm'), path.join(exercises, 'no-functions'), { recursive: true });
    const json = JSON.parse(fs.readFileSync(path.join(exercises, 'no-functions', 'exercise.json'), 'utf8'));
    json.id = 'no-functions';
    delete json.functions;
    fs.writeFileSync(path.join(exercises, 'no-functions', 'exercise.json'), JSON.stringify(json, null, 2));
    fs.writeFileSync(path.join(exercises, 'frob-norm', 'reference.js'), 'export function frobNorm(A) {\n  return A.square(;\n}\n');
    const chapters = path.join(dir, 'chapters', 'c');
    fs.mkdirSync(chapters, { recursive: true });
    for (const [lang, title] of [['en', 'C'], ['zh', '丙']])
      fs.writeFileSync(path.join(chapters, `${lang}.md`), `---\nid: c\ntitle: ${title}\norder: 1\n---\n\n:::exercise no-functions\n\n:::exercise frob-norm\n`);
    const r = spawnSync(process.execPath, [path.join(root, 'web/build.mjs'), '--check', '--chapters', path.join(dir, 'chapters')],
      { encoding: 'utf8', env: { ...process.env, TENSORPAD_EXERCISES: exercises } });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /no-functions\/exercise\.json:1: field `functions` is missing/);
    assert.match(r.stderr, /frob-norm\/reference\.js:2: does not parse: Unexpected token/);
    assert.doesNotMatch(r.stderr, /unknown exercise|has no en title/, 'a broken exercise is reported once, by its own file');
  } finally {
    fs.rmSync(dir, { recursive: true });
  }
  const { errors } = loadChapters({ chaptersDir: path.join(root, 'web/chapters') });
  assert.deepEqual(errors, [], 'the shipped widgets parse and declare their props');
});

test('Chinese punctuation right after an inline formula is kept on its line with it', () => {
  const r = parse('设 $x$；那么 $y$。而 $z$ 不变。\n', { lang: 'zh', file: 't/zh.md' });
  assert.deepEqual(r.errors, []);
  const html = r.blocks[0].html;
  assert.match(html, /<span class="math-nobr"><span class="katex">.*?<\/span>；<\/span>那么/);
  assert.match(html, /<span class="math-nobr"><span class="katex">.*?<\/span>。<\/span>而/);
  assert.equal(html.split('math-nobr').length - 1, 2, 'a formula followed by a space is left alone');
  // A heading is rendered twice (the page, the contents): both keep the mark.
  const head = parse('# 设 $x$，求 $y$\n', { lang: 'zh', file: 't/zh.md' });
  assert.match(head.blocks[0].html, /<h2 id="[^"]+">设 <span class="math-nobr">.*?，<\/span>求 /);
  assert.match(head.toc[0].html, /^设 <span class="math-nobr">.*?，<\/span>求 /);
});

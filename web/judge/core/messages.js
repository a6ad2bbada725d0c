// Every message the judge writes for a learner, in English and in Chinese, in the form all the site's
// strings take (see web/src/i18n.js): a table per language keyed by name, each entry a string or a
// function of its parameters, so a translator sees the whole sentence and where each value goes.
//   messages(lang)        → { name(...params) → string } in that language (unknown languages get English)
//   localized(text, lang) → an author's text (a hint, a starter, an invariant check's verdict) in that
//                           language: a plain string as written, or { en, zh } picked by lang.

export const LANGS = ['en', 'zh'];
export const DEFAULT_LANG = 'en';

const en = {
  // comparing an answer with the reference (compare.js, values.js)
  expectedExactly: (want, got) => `expected ${want}, got ${got}`,
  expectedNumber: (got) => `expected a number, got ${got}`,
  expectedInteger: (got) => `expected an integer, got ${got}`,
  expectedShape: (want, got) => `expected shape ${want}, got ${got}`,
  expectedArray: (want, got) => `expected an array or a tensor of shape ${want}, got ${got}`,
  transposed: ' (transposed?)',
  value: 'value',
  valueAt: (index) => `value at ${index}`,
  gotNaN: (where, want) => `${where}: got NaN, want ${want}`,
  valueMismatch: ({ where, got, want, abs, rel, allowed }) =>
    `${where}: got ${got}, want ${want} (abs error ${abs}, rel error ${rel}; allowed ${allowed})`,
  allowed: (atol, rtol) => `atol ${atol} + rtol ${rtol}·|want|`,
  outOfTolerance: (bad, total) => `; ${bad} of ${total} values out of tolerance`,
  notANumberAt: (what, index) => `${what} at index ${index} is not a number`,
  ragged: (at, shape, first, firstShape) => `ragged array: element ${at} has shape ${shape} but element ${first} has shape ${firstShape}`,
  aNumber: (x) => `a number (${x})`,
  aString: (s) => `a string ${s}`,
  aBoolean: (b) => `a boolean (${b})`,
  aTensor: (shape) => `a tensor of shape ${shape}`,
  anArray: (shape) => `an array of shape ${shape}`,
  aBadArray: (length, error) => `an array of length ${length} (${error})`,
  aFunction: 'a function',
  aPromise: 'a Promise (did you forget await, or declare the function async?)',
  anObject: (keys) => `an object with keys {${keys}}`,
  tooDeep: 'a value nested deeper than 64 levels',
  tooLarge: (count) => `an answer of more than ${count} numbers, too large to compare`,

  // reading the solution's source (source.js)
  unclosedBracket: (open) => `hint: an unclosed { ( or [ above this line?` +
    (open ? ` The ${open.bracket} on line ${open.line} is never closed.` : ''),
  missingExport: (file, names, required) => `${file} does not export ${names} (required: ${required})`,
  declaredNotExported: (names) => `; ${names} is declared but not exported`,
  commonJs: '; module.exports is CommonJS, which the judge does not read: write `export function …`',

  // running it (judge.js, worker-core.js, node/worker.js, page/runner.js)
  caseName: (kind, n, label) => `${kind === 'example' ? 'example' : 'hidden'} ${n}${label ? ` (${label})` : ''}`,
  hint: 'hint: ',
  orHint: 'or: ',
  notRun: (reason) => (reason ? `not run: ${reason}` : 'not run'),
  loadFailed: (file, error) => `loading ${file} failed: ${error}`,
  caseTimeLimit: (ms) => `time limit exceeded (${ms} ms per case)`,
  totalTimeLimit: (ms) => `time limit exceeded: all cases together took more than ${ms} ms`,
  loadTimeLimit: (ms) => `time limit exceeded while loading the solution (${ms} ms)`,
  earlierTimeout: 'an earlier case exceeded the time limit',
  // what: 'heap' (V8's heap limit) | 'rss' (the process's resident size); measured: MB, or null when unknown.
  // One decimal: the resident size is killed as soon as it passes the limit, so 768.3 of a 768 MB limit
  // rounded to an integer would read "reached 768 MB, over its 768 MB limit".
  memoryLimit: (mb, measured, what = 'heap') => `memory limit exceeded: ${what === 'rss' ? 'resident memory' : 'JS heap'}` +
    `${measured != null ? ` reached ${measured.toFixed(1)} MB,` : ''} over its ${mb} MB limit`,
  workerCrashed: (error) => `the worker crashed: ${error}`,
  solutionStopped: (code) => `the solution stopped its worker (exit code ${code})`,
  threw: (error, at) => `threw ${error}${at ? ` (at ${at})` : ''}`,
  nonError: (value) => `a non-Error value ${value}`,
  notExportedAsFunction: (names) => `the solution does not export ${names} as a function`,
  exitNotAllowed: (code) => `process.exit(${code}) is not allowed in a solution`,
  abortNotAllowed: 'process.abort() is not allowed in a solution',
  killNotAllowed: 'process.kill() is not allowed in a solution',
  networkNotAllowed: 'network access is not allowed in a solution',
  forbiddenCall: (path, line) => `\`${path}\` (line ${line}) is not available in this exercise: build it from the operations the chapter shows`,
  forbiddenList: (paths) => `Not available in this exercise: ${paths}`,
  seedNote: (seed) => `hidden cases of seed ${seed}: run again with --seed ${seed} to get the same ones`,
  notInJudge: (what) => `${what} is not available to a solution in the page's judge`,
  importInPage: (line, what) => `line ${line}: ${what}: a solution in the page cannot import (the judge gives it tp, and nothing else)`,
  outputTruncated: '… (output truncated)',
  noInvariantCheck: (fn) => `no invariant check for ${fn}`,
  checkCouldNotRun: (error) => `the check could not evaluate this answer: ${error}`,
  invariantCheckFailed: (error) => `the invariant check failed: ${error}`,
  workerNotStarted: 'the judge worker did not start in time',
  workerExitedWhileStarting: 'the judge worker exited while starting',
  workerExited: (code) => `the worker exited (code ${code})`,
  workerFailed: (error) => `the judge worker failed${error ? `: ${error}` : ''}`,
  workerUnreadable: 'a message from the judge worker could not be read',
  tpInitFailed: (error) => `could not initialise tp: ${error}`,
  noAnswer: (ms) => `no answer within ${ms} ms`,
  oracleFailed: (id, error) => `exercise ${id}: generating cases or running the reference failed: ${error}`,
  summary: (passed, failed) => `${passed} passed, ${failed} failed`,

  // a broken exercise, found by the oracle worker (worker-core.js) while generating cases
  noGenerate: 'cases.js does not export a function generate({ seed, rng, tensorArg })',
  generateThrew: (error) => `cases.js: generate() threw ${error}`,
  generateNotArray: (what) => `generate() must return an array of cases { fn, args }, got ${what}`,
  caseNotObject: (n, what) => `hidden case ${n}: expected { fn, args }, got ${what}`,
  caseUnknownFn: (n, fn, names) => `hidden case ${n}: fn is ${fn}, not one of ${names}`,
  caseArgsNotArray: (n, fn, what) => `hidden case ${n} (${fn}): args must be an array, got ${what}`,
  caseBadArgument: (n, fn, k, param, at, what) => `hidden case ${n} (${fn}), argument ${k}${param ? ` (${param})` : ''}` +
    `${at ? ` at ${at}` : ''}: ${what}; arguments must be plain data (numbers, strings, booleans, null, arrays, ` +
    'plain objects) — use tensorArg(...) for tensors',
  caseBadLabel: (n, fn, field) => `hidden case ${n} (${fn}): ${field} must be a string or { en, zh }`,
  referenceMissing: (names) => `reference.js does not export ${names}`,
  referenceThrew: (title, error) => `${title}: reference.js threw ${error}`,
  aBigInt: (x) => `a BigInt (${x})`,
  aSymbol: 'a symbol',
  circular: 'a circular reference (an object that contains itself)',
  aLiveTensor: (shape) => `a tp tensor of shape ${shape}, which reaches the worker as {}`,
  anInstance: (name) => `an instance of ${name}`,
  badTensorMarker: 'a { $tensor } whose shape and data do not agree (make it with tensorArg(nested))',

  // the terminal (node/cli.js) and the page (page/exercise.js)
  titleSeparator: ': ',
  judgeLocally: (id) => `Judge locally: npx tensorpad judge ${id} solution.js`,
  functionsToWrite: 'Functions to write',
  tolerance: 'tolerance: ',
  examples: 'Examples',
  starterCode: 'Starter code',
  difficulty: { easy: 'easy', medium: 'medium', hard: 'hard' },
  listHeader: ['id', 'difficulty', 'title'],
};

// Chinese puts a space between Chinese and Latin text or numbers, none between Chinese words: a value
// described in words ("字符串 …") follows "得到" directly, "[3, 2]" or "undefined" after a space.
const gap = (text) => (/^[\u4e00-\u9fff]/.test(text) ? text : ` ${text}`);

const zh = {
  expectedExactly: (want, got) => `期望 ${want}，得到${gap(got)}`,
  expectedNumber: (got) => `期望一个数，得到${gap(got)}`,
  expectedInteger: (got) => `期望整数，得到 ${got}`,
  expectedShape: (want, got) => `期望形状 ${want}，得到${gap(got)}`,
  expectedArray: (want, got) => `期望形状为 ${want} 的数组或张量，得到${gap(got)}`,
  transposed: '（是不是转置了？）',
  value: '值',
  valueAt: (index) => `位置 ${index} 的值`,
  gotNaN: (where, want) => `${where}：得到 NaN，期望 ${want}`,
  valueMismatch: ({ where, got, want, abs, rel, allowed }) =>
    `${where}：得到 ${got}，期望 ${want}（绝对误差 ${abs}，相对误差 ${rel}；允许 ${allowed}）`,
  allowed: (atol, rtol) => `atol ${atol} + rtol ${rtol}·|期望值|`,
  outOfTolerance: (bad, total) => `；${total} 个值中有 ${bad} 个超出容差`,
  notANumberAt: (what, index) => `索引 ${index} 处不是数，而是${gap(what)}`,
  ragged: (at, shape, first, firstShape) => `参差数组：元素 ${at} 的形状是 ${shape}，而元素 ${first} 的形状是 ${firstShape}`,
  aNumber: (x) => `一个数（${x}）`,
  aString: (s) => `字符串 ${s}`,
  aBoolean: (b) => `布尔值（${b}）`,
  aTensor: (shape) => `形状为 ${shape} 的张量`,
  anArray: (shape) => `形状为 ${shape} 的数组`,
  aBadArray: (length, error) => `长度为 ${length} 的数组（${error}）`,
  aFunction: '一个函数',
  aPromise: '一个 Promise（是不是忘了 await，或者把函数声明成了 async？）',
  anObject: (keys) => `键为 {${keys}} 的对象`,
  tooDeep: '嵌套超过 64 层的值',
  tooLarge: (count) => `超过 ${count} 个数的答案，太大，无法比较`,

  unclosedBracket: (open) => `提示：上面是否有未闭合的 {、( 或 [？` +
    (open ? `第 ${open.line} 行的 ${open.bracket} 没有闭合。` : ''),
  missingExport: (file, names, required) => `${file} 没有导出 ${names}（需要导出：${required}）`,
  declaredNotExported: (names) => `；${names} 已声明但没有导出`,
  commonJs: '；module.exports 是 CommonJS 写法，判题器不读取它：请写 `export function …`',

  caseName: (kind, n, label) => `${kind === 'example' ? '示例' : '隐藏用例'} ${n}${label ? `（${label}）` : ''}`,
  hint: '提示：',
  orHint: '或者：',
  notRun: (reason) => (reason ? `未运行：${reason}` : '未运行'),
  loadFailed: (file, error) => `加载 ${file} 失败：${error}`,
  caseTimeLimit: (ms) => `超出时间限制（每个用例 ${ms} ms）`,
  totalTimeLimit: (ms) => `超出时间限制：所有用例合计超过 ${ms} ms`,
  loadTimeLimit: (ms) => `加载解答时超出时间限制（${ms} ms）`,
  earlierTimeout: '前面的用例超出了时间限制',
  memoryLimit: (mb, measured, what = 'heap') => `超出内存限制：${what === 'rss' ? '常驻内存' : 'JS 堆'}` +
    `${measured != null ? `达到 ${measured.toFixed(1)} MB，` : ''}超过 ${mb} MB 的上限`,
  workerCrashed: (error) => `worker 崩溃：${error}`,
  solutionStopped: (code) => `解答终止了它所在的 worker（退出码 ${code}）`,
  threw: (error, at) => `抛出了 ${error}${at ? `（位于 ${at}）` : ''}`,
  nonError: (value) => `一个不是 Error 的值 ${value}`,
  notExportedAsFunction: (names) => `解答没有把 ${names} 导出为函数`,
  exitNotAllowed: (code) => `解答中不允许调用 process.exit(${code})`,
  abortNotAllowed: '解答中不允许调用 process.abort()',
  killNotAllowed: '解答中不允许调用 process.kill()',
  networkNotAllowed: '解答中不允许访问网络',
  forbiddenCall: (path, line) => `本题不能用 \`${path}\`（第 ${line} 行）：请用本章讲过的运算自己实现`,
  forbiddenList: (paths) => `本题不能用：${paths}`,
  seedNote: (seed) => `本次隐藏用例的随机种子是 ${seed}：加上 --seed ${seed} 再运行，可得到同样的用例`,
  notInJudge: (what) => `页面判题中的解答不能使用 ${what}`,
  importInPage: (line, what) => `第 ${line} 行：${what}：页面里的解答不能导入模块（评测只提供 tp）`,
  outputTruncated: '…（输出已截断）',
  noInvariantCheck: (fn) => `${fn} 没有不变量检查`,
  checkCouldNotRun: (error) => `检查无法评估这个答案：${error}`,
  invariantCheckFailed: (error) => `不变量检查失败：${error}`,
  workerNotStarted: '判题 worker 没能按时启动',
  workerExitedWhileStarting: '判题 worker 在启动时退出了',
  workerExited: (code) => `worker 退出了（退出码 ${code}）`,
  workerFailed: (error) => `判题 worker 出错${error ? `：${error}` : ''}`,
  workerUnreadable: '无法读取判题 worker 发来的消息',
  tpInitFailed: (error) => `无法初始化 tp：${error}`,
  noAnswer: (ms) => `${ms} ms 内没有回应`,
  oracleFailed: (id, error) => `练习 ${id}：生成用例或运行参考答案失败：${error}`,
  summary: (passed, failed) => `${passed} 通过，${failed} 未通过`,

  noGenerate: 'cases.js 没有导出函数 generate({ seed, rng, tensorArg })',
  generateThrew: (error) => `cases.js：generate() 抛出了 ${error}`,
  generateNotArray: (what) => `generate() 必须返回用例 { fn, args } 的数组，得到${gap(what)}`,
  caseNotObject: (n, what) => `隐藏用例 ${n}：期望 { fn, args }，得到${gap(what)}`,
  caseUnknownFn: (n, fn, names) => `隐藏用例 ${n}：fn 是 ${fn}，不在 ${names} 之中`,
  caseArgsNotArray: (n, fn, what) => `隐藏用例 ${n}（${fn}）：args 必须是数组，得到${gap(what)}`,
  caseBadArgument: (n, fn, k, param, at, what) => `隐藏用例 ${n}（${fn}）的参数 ${k}${param ? `（${param}）` : ''}` +
    `${at ? ` 的 ${at} 处` : ''}：${what}；参数必须是普通数据（数、字符串、布尔值、null、数组、普通对象）——张量请用 tensorArg(...)`,
  caseBadLabel: (n, fn, field) => `隐藏用例 ${n}（${fn}）：${field} 必须是字符串或 { en, zh }`,
  referenceMissing: (names) => `reference.js 没有导出 ${names}`,
  referenceThrew: (title, error) => `${title}：reference.js 抛出了 ${error}`,
  aBigInt: (x) => `一个 BigInt（${x}）`,
  aSymbol: '一个 symbol',
  circular: '循环引用（对象包含它自己）',
  aLiveTensor: (shape) => `形状为 ${shape} 的 tp 张量，传到 worker 里会变成 {}`,
  anInstance: (name) => `${name} 的实例`,
  badTensorMarker: '形状和数据对不上的 { $tensor }（请用 tensorArg(nested) 生成）',

  titleSeparator: '：',   // a full-width colon in Chinese
  judgeLocally: (id) => `本地判题：npx tensorpad judge ${id} solution.js --lang zh`,
  functionsToWrite: '要写的函数',
  tolerance: '容差：',
  examples: '示例',
  starterCode: '起始代码',
  difficulty: { easy: '简单', medium: '中等', hard: '困难' },
  listHeader: ['编号', '难度', '标题'],
};

const CATALOG = { en, zh };

export function messages(lang) {
  return CATALOG[lang] ?? CATALOG[DEFAULT_LANG];
}

export function localized(text, lang) {
  if (text === null || typeof text !== 'object') return text;
  // An exercise written in one language only is shown in it to every reader.
  return text[lang] ?? text[DEFAULT_LANG] ?? Object.values(text)[0];
}

/** The languages an exercise is written in: its `languages`, by default both. */
export const exerciseLangs = (exercise) => exercise.languages ?? LANGS;

// JSON schema of exercises/<id>/exercise.json (validated with ajv in web/content/exercises.js).
// Text a reader sees is written per language ({ zh, en }); an exercise is in both unless its `languages`
// names fewer (web/content/exercises.js checks that every text field has exactly those). The starter code may be
// one string for every language or { zh, en } with comments in each (web/content/exercises.js checks that the two
// hold the same code).

export const EXERCISE_LANGS = ['en', 'zh'];

const bilingual = (what) => ({
  type: 'object',
  description: `${what} in each of the exercise's languages (en, zh)`,
  minProperties: 1,
  additionalProperties: false,
  properties: { zh: { type: 'string', minLength: 1 }, en: { type: 'string', minLength: 1 } },
});

// What a function returns. `tensorpad check` holds the reference to it; `array` and `tensor` are compared
// alike (a learner may return either), `integer` also requires a whole number from the learner.
export const KINDS = ['number', 'integer', 'array', 'tensor', 'boolean'];

// An API path a solution may be refused: tp.<name>[.<name>...] or Tensor.prototype.<method>.
const apiPath = { type: 'string', pattern: '^(tp(\\.[A-Za-z_$][A-Za-z0-9_$]*)+|Tensor\\.prototype\\.[A-Za-z_$][A-Za-z0-9_$]*)$' };

export const exerciseSchema = {
  $id: 'https://tensorpad.dev/schema/exercise.json',
  type: 'object',
  required: ['id', 'title', 'statement', 'difficulty', 'functions', 'starter', 'timeLimitMs', 'examples'],
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    id: { type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' },
    languages: { type: 'array', items: { enum: EXERCISE_LANGS }, minItems: 1, uniqueItems: true,
      description: 'the languages the exercise is written in (default both); every text field has exactly these' },
    title: bilingual('title'),
    statement: bilingual('statement (Markdown with $…$ math)'),
    difficulty: { enum: ['easy', 'medium', 'hard'] },
    section: { type: 'string', description: 'where the exercise sits in the chapter (section id)' },
    forbid: { type: 'array', items: apiPath, uniqueItems: true,
      description: 'what a solution may not call: tp paths (a namespace forbids all of it) or Tensor.prototype methods; the judge removes them from the solution\'s tp and names the call in its hint' },
    allow: { type: 'array', items: apiPath, uniqueItems: true,
      description: 'paths inside a forbidden namespace that stay available (forbid ["tp.linalg"], allow ["tp.linalg.norm"])' },
    points: { type: 'object', additionalProperties: false, minProperties: 1, maxProperties: 1,
      description: 'what `tensorpad grade` awards: perCase points for each case passed, or exercise points split over the cases (partial credit); default { perCase: 1 }',
      properties: { perCase: { type: 'number', exclusiveMinimum: 0 }, exercise: { type: 'number', exclusiveMinimum: 0 } } },
    tags: { type: 'array', items: { type: 'string' } },
    functions: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['name', 'params', 'signature', 'returns', 'atol', 'rtol'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', pattern: '^[A-Za-z_$][A-Za-z0-9_$]*$' },
          params: { type: 'array', items: { type: 'string' } },
          signature: { type: 'string', minLength: 1 },
          returns: { description: 'what the reference returns: a kind, or a list of kinds when it may return any of them',
            anyOf: [{ enum: KINDS }, { type: 'array', items: { enum: KINDS }, minItems: 1, uniqueItems: true }] },
          allowNonFinite: { type: 'boolean',
            description: 'the answer may be or hold NaN or ±Infinity (the judge then wants the same there); otherwise `tensorpad check` rejects them' },
          atol: { type: 'number', minimum: 0 },
          rtol: { type: 'number', minimum: 0 },
          compare: { enum: ['values', 'invariant'],
            description: 'values: elementwise against the reference; invariant: cases.js exports checks[name]' },
        },
      },
    },
    starter: {
      description: 'the code the editor starts with: one string, or { zh, en } differing only in comments',
      anyOf: [{ type: 'string', minLength: 1 }, bilingual('starter code')],
    },
    timeLimitMs: {
      type: 'object',
      required: ['perCase'],
      additionalProperties: false,
      properties: {
        perCase: { type: 'integer', minimum: 50, maximum: 60000 },
        total: { type: 'integer', minimum: 100, maximum: 600000 },
      },
    },
    examples: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['fn', 'args'],
        additionalProperties: false,
        properties: {
          name: { description: 'shown to the learner: a string, or { zh, en }', anyOf: [{ type: 'string' }, bilingual('name')] },
          fn: { type: 'string' },
          args: { type: 'array' },
          expected: { description: 'shown to the learner; `tensorpad check` verifies it against the reference' },
        },
      },
    },
  },
};

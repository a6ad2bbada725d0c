// The chapter's exercises beyond the judge's first five (issue 11), through the real judge: references
// pass for several seeds, starters fail, hidden cases follow the seed, and the mistakes learners make
// fail with a message that points at the mistake. Last, every exercise in exercises/ is placed in a
// chapter (any web/chapters/*/), in both of its languages, has both statements, and has a suite here or in
// judge-exercises.test.mjs with at least two wrong solutions.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync, mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeExercise } from './exercise-suite.mjs';
import { parse } from 'acorn';
import { exerciseDirectives } from '../../web/judge/node/chapter-order.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const LANGS = ['zh', 'en'];

// exercise id → [solution file, regex some failure message must match]
const WRONG = {
  'broadcast-shape': [
    ['left-aligned.js', /aligned from the left; broadcasting aligns them from the right/],
    ['left-aligned.js', /positive count from the right; return the axis as a negative index/],
    ['no-stretch.js', /a size of 1 stretches to match the other size/],
    ['no-stretch.js', /off by one: the last axis is -1, not 0/],
    ['hardcoded.js', /hidden \d+: broadcastShape\(a=\[[\d, ]+\], b=\[[\d, ]+\]\) — /],
    ['leftmost-conflict.js', /this is the leftmost conflict; scan from the last axis leftwards/],
    ['never-conflict.js', /this reports no conflict \(0\) where the shapes cannot broadcast/],
  ],
  'strides-offset': [
    ['column-major.js', /column-major \(Fortran\) strides/],
    ['column-major.js', /start offset of the view is missing/],
    ['off-by-one.js', /off by one: stride d multiplies the sizes of the axes AFTER d/],
    ['off-by-one.js', /index d goes with stride d/],
  ],
  'transpose-view': [
    ['shape-only.js', /the strides must be swapped too/],
    ['shape-only.js', /descending strides are not enough/],
    ['fresh-strides.js', /contiguous strides of the new shape: a transpose copies nothing/],
    ['fresh-strides.js', /a last stride of 1 is not enough/],
    ['skip-first-axis.js', /the first axis's stride must be checked too/],
  ],
  'reduce-hidden': [
    ['no-sqrt.js', /squared length Σ x²: take the square root/],
    ['no-sqrt.js', /sum over the tokens; divide by S/],
    ['wrong-axis.js', /expected shape \[\d, \d\], got \[\d, \d\]\n\s*hint: wrong axis: this reduces over S/],
    ['wrong-axis.js', /S = H\b.*— value at .*\n\s*hint: wrong axis: this averages over H/],
    ['divide-by-h.js', /this sums over the tokens but divides by H/],
  ],
  'allclose-by-hand': [
    ['uses-result.js', /relative part uses \|a\| \(the result\); it must use \|b\|/],
    ['uses-result.js', /divides by ‖a‖, the result/],
    ['atol-only.js', /rtol is ignored/],
    ['atol-only.js', /a square root is missing/],
    ['always-false.js', /this answers false, yet every element is within atol \+ rtol·\|b\|/],
    ['any-not-every.js', /this is true as soon as ONE element is close; allClose needs EVERY element/],
    ['one-tolerance.js', /compares the largest difference with one tolerance, atol \+ rtol·max\|b\|/],
    ['one-tolerance.js', /this sums absolute values \(the 1-norm\)/],
  ],
  'matmul-three-views': [
    ['off-by-one.js', /off by one: the sum runs over all k terms/],
    ['transposed.js', /uses the rows of B where its columns belong/],
    ['transposed.js', /got \[\d, \d\] \(transposed\?\)\n\s*hint: the result is transposed/],
    ['transposed.js', /pair column p of A with column p of B/],
  ],
  'matmul-cost': [
    ['no-factor-two.js', /the factor 2 is missing/],
    ['no-factor-two.js', /this is in bits/],
    ['float32-only.js', /leaves out the batch or the sequence/],
    ['float32-only.js', /element size depends on dtype/],
  ],
  'attention-shapes': [
    ['reshape-only.js', /reshape straight to \[B, Nh, S, Dh\] mixes tokens and heads/],
    ['reshape-only.js', /reshape straight to \[B, S, Nh·Dh\] mixes tokens and heads/],
    ['model-width.js', /divides by √\(Nh·Dh\), the model width/],
    ['model-width.js', /reshape H as \[Nh, Dh\], not \[Dh, Nh\]/],
    ['scale-by-queries.js', /this divides by √S, the number of queries; the scale is √Dh/],
  ],
  'multi-head-attention': [
    ['sqrt-d.js', /divided by √d, the model width; each head divides by √Dh/],
    ['sqrt-d.js', /averages the heads; the output is their sum/],
    ['no-wo.js', /W_O is missing/],
    ['no-wo.js', /uses only the first head/],
    ['unscaled.js', /the scores are not scaled: divide each head's Qh Khᵀ by √Dh/],
    ['unscaled.js', /head h's block of Wo starts at row h·Dh, not at row h/],
  ],
  'bilinear-rank': [
    ['transposed.js', /W_K W_Qᵀ, the transpose of the form/],
    ['transposed.js', /dk is only an upper bound/],
    ['inner.js', /W_Qᵀ W_K is a \[dk, dk\] matrix/],
    ['inner.js', /rank of one factor/],
    ['gram-core.js', /this is the rank of W_Qᵀ W_K, the \[dk, dk\] core/],
    ['min-factor-ranks.js', /min\(rank W_Q, rank W_K\) is only an upper bound/],
    ['absolute-threshold.js', /the threshold is relative: count the σ_i > 10⁻⁴·σ_1, not σ_i > 10⁻⁴/],
  ],
  'numerical-rank': [
    ['absolute-tol.js', /the tolerance is relative: compare σ_i with rtol·σ_1/],
    ['nonzero.js', /σ_i > 0 counts the noise/],
    ['nonzero.js', /energy of a direction is σ_i², not σ_i/],
    ['frobenius-threshold.js', /the threshold is rtol·σ_1, the largest singular value, not rtol·‖A‖_F/],
    ['sum-threshold.js', /the threshold is rtol·σ_1, the largest singular value, not rtol·Σ σ_i/],
    ['float32-one-minus.js', /1 − kept\/total with float32 sums cancels.*sum the discarded σ_i² directly/],
  ],
  'power-iteration': [
    ['no-sqrt.js', /this is σ1², the top eigenvalue of AᵀA/],
    ['no-sqrt.js', /v is not the top right singular vector/],
    ['not-normalized.js', /Frobenius norm √\(Σ σ_i²\); the spectral norm is the largest singular value alone/],
    ['not-normalized.js', /not a unit vector: ‖v‖ = /],
  ],
  'rope-matrix': [
    ['transposed-block.js', /the block is transposed \(this is R_\{−pos\}\)/],
    ['transposed-block.js', /this is q R_{n−m} kᵀ, the relative rotation the wrong way round/],
    ['wrong-frequency.js', /frequency of pair i is θ\^\(−2i\/d\), not θ\^\(−i\/d\)/],
    ['wrong-frequency.js', /both vectors were rotated by the same position/],
  ],
  'sylvester-hadamard': [
    ['unnormalized.js', /not normalized: H_n H_nᵀ = nI, so divide the ±1 matrix by √n/],
    ['unnormalized.js', /not normalized: with the ±1 matrix every token grows by √n/],
    ['wrong-block.js', /the minus sign belongs in the bottom-right block/],
  ],
  'block-hadamard-error': [
    ['x-only.js', /the blocks are not normalized: divide each ±1 block by √b/],
    ['x-only.js', /only X is rotated: rotate both operands/],
    ['block-count.js', /b is the size of each block, not the number of blocks/],
  ],
  'rotation-flops': [
    ['full-matrix.js', /counts a full d×d rotation; a block-diagonal matrix only multiplies inside its d\/b blocks/],
    ['full-matrix.js', /compares with the first projection only/],
    ['no-factor-two.js', /the factor 2 is missing/],
    ['no-factor-two.js', /this is inverted/],
    ['total-not-extra.js', /this is the whole cost relative to the projections, 1 \+ the overhead/],
  ],
  layernorm: [
    ['unbiased.js', /unbiased variance \(÷ \(H − 1\)\); LayerNorm divides by H/],
    ['unbiased.js', /unbiased variance \(÷ \(N − 1\)\)/],
    ['swapped-axes.js', /eps belongs inside the square root/],
    ['swapped-axes.js', /BatchNorm normalizes each channel over the N tokens/],
  ],
  rmsnorm: [
    ['no-sqrt.js', /this is the mean square; take the square root/],
    ['no-sqrt.js', /the square root is missing: divide by √\(mean\(x²\) \+ ε\)/],
    ['centred.js', /RMSNorm does not subtract the mean/],
    ['centred.js', /this is the length √\(Σ x²\); the root MEAN square divides by H first/],
    ['keepdim.js', /the reduced axis is kept \(keepdim: true\): rms gives one number per token/],
  ],
  'grad-clip': [
    ['per-tensor.js', /adds the norms of the tensors/],
    ['per-tensor.js', /clips each tensor by its own norm/],
    ['always-scale.js', /squared norm Σ g²: take the square root/],
    ['always-scale.js', /small gradients are scaled UP/],
    ['never-clips.js', /this returns grads\[i\] unchanged: when ‖g‖ > maxNorm/],
    ['mean-squares.js', /this averages the squares of each tensor \(a mean, not a sum\)/],
    ['mean-squares.js', /the factor comes from a norm that averages the squares/],
  ],
  'lora-merge': [
    ['no-scale.js', /the scaling α\/r is missing: W \+ \(α\/r\)·BA/],
    ['no-scale.js', /the scaling α\/r is missing on the low-rank path/],
    ['delta-only.js', /only the update \(α\/r\)·BA/],
    ['delta-only.js', /the scale is α\/r, not α alone/],
    ['output-size.js', /this divides by B\.shape\[0\], the output size d_out/],
  ],
  'power-growth': [
    ['off-by-one.js', /off by one: the list starts with ‖v‖/],
    ['off-by-one.js', /largest eigenvalue with its sign/],
    ['bound.js', /this is the bound/],
    ['bound.js', /eigvalsh sorts them ascending|largest eigenvalue with its sign/],
  ],
  'dot-direction': [
    ['unnormalized.js', /u is not normalized: divide u·h by ‖u‖/],
    ['unnormalized.js', /divides by one length only/],
    ['by-cosine.js', /divides by ‖u‖²/],
    ['by-cosine.js', /picks the largest cosine/],
    ['largest-magnitude.js', /this picks the largest \|q·k\|: a key pointing away from q/],
    ['smallest-score.js', /this picks the smallest score q·k \(the key most opposite to q\)/],
  ],
  'linear-layer': [
    ['no-bias.js', /the bias is missing: add b to every token/],
    ['no-bias.js', /b2 is missing/],
    ['transposed.js', /W is used transposed: with tokens as rows, Y = XW/],
    ['transposed.js', /b1 also goes through the second layer/],
  ],
  'svd-channels': [
    ['no-scale.js', /the scaling is missing: multiply each read number v_i·x by σ_i/],
    ['no-scale.js', /the singular values are missing: scale each channel by σ_i/],
    ['off-by-one.js', /off by one: this keeps k\+1 channels/],
  ],
  'pre-post-norm': [
    ['swapped.js', /this is post-norm, Norm\(H \+ HW\); pre-norm normalizes the sublayer's INPUT/],
    ['swapped.js', /this is pre-norm, H \+ Norm\(H\)W; post-norm normalizes AFTER the residual addition/],
    ['no-residual.js', /the residual H is missing/],
    ['eps-outside-root.js', /eps belongs inside the square root: Norm\(x\) = x \/ √\(mean\(x²\) \+ ε\)/],
    ['layer-norm.js', /this subtracts the mean \(LayerNorm\); the Norm here is RMSNorm/],
  ],
  'scaled-scores': [
    ['not-centred.js', /the mean is not subtracted/],
    ['not-centred.js', /the scores are divided by d; the scale is √d/],
    ['all-pairs.js', /takes every entry of QKᵀ \(all pairs\)/],
    ['all-pairs.js', /the softmax runs over the wrong axis/],
    ['scale-by-keys.js', /this divides by √m, m the number of keys/],
  ],
  'embedding-logits': [
    ['off-by-one.js', /off by one: ids count from 0/],
    ['off-by-one.js', /this uses the first position/],
    ['logits.js', /these are the logits z; apply a softmax/],
    ['logits.js', /the rows are in the wrong order/],
  ],
  'basis-geometry': [
    ['rows.js', /this is row i; with x ↦ Wx the basis vector e_i goes to COLUMN i/],
    ['rows.js', /the determinant is ad − bc, not ad \+ bc/],
    ['unsigned.js', /the sign matters/],
  ],
  'shapes-axes': [
    ['shifted-axes.js', /after select\(0, b\) the axes shift left/],
    ['shifted-axes.js', /this is the first token of each sequence/],
    ['wrong-axis.js', /this fixes a position, not a feature/],
    ['wrong-axis.js', /this is the last sequence of the batch/],
  ],
};

for (const id of Object.keys(WRONG)) {
  describeExercise(id, {
    wrong: WRONG[id],
    extra: (exercise) => test('the exercise names its section of the chapter', () => {
      assert.match(exercise.section ?? '', /^[a-z0-9-]+$/);
    }),
  });
}

// Where each exercise sits: `:::exercise <id>` lines of web/chapters/<chapter>/{en,zh}.md → problems, [] when
// every exercise of exercisesDir is placed once per language, in one chapter, in both languages of it, and
// each chapter places the same exercises in the same order in both languages.
function placementProblems(exercisesDir, chaptersDir) {
  const ids = exerciseIds(exercisesDir);
  const chapters = readdirSync(chaptersDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  const placed = (chapter, lang) => {
    const file = join(chaptersDir, chapter, `${lang}.md`);
    return existsSync(file) ? exerciseDirectives(readFileSync(file, 'utf8'), lang).ids : [];
  };
  const problems = [];
  for (const id of ids) {
    const where = Object.fromEntries(LANGS.map((lang) => [lang,
      chapters.flatMap((ch) => placed(ch, lang).filter((p) => p === id).map(() => ch))]));
    for (const lang of LANGS) {
      if (!where[lang].length) problems.push(`${id} is placed in no ${lang}.md of web/chapters/*/`);
      if (where[lang].length > 1) problems.push(`${id} is placed ${where[lang].length} times in ${lang}.md files: ${where[lang].join(', ')}`);
    }
  }
  for (const chapter of chapters) {
    const [zh, en] = LANGS.map((lang) => placed(chapter, lang));
    if (zh.join() !== en.join()) problems.push(`${chapter}: zh.md places ${zh.join(', ') || 'nothing'} but en.md ${en.join(', ') || 'nothing'}`);
  }
  return problems;
}

function exerciseIds(exercisesDir) {
  return readdirSync(exercisesDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(exercisesDir, e.name, 'exercise.json')))
    .map((e) => e.name);
}

describe('every exercise is placed in a chapter', () => {
  const ids = exerciseIds(join(ROOT, 'exercises'));

  test('there are at least 24 exercises', () => {
    assert.ok(ids.length >= 24, `${ids.length} exercises: ${ids.join(', ')}`);
  });

  test('each is placed once per language, in both languages of one chapter, in the same order', () => {
    assert.deepEqual(placementProblems(join(ROOT, 'exercises'), join(ROOT, 'web/chapters')), []);
  });

  test('an exercise may sit in a chapter of its own; one language missing it, or placing it twice, is reported', () => {
    const root = mkdtempSync(join(tmpdir(), 'tp-placement-'));
    const chapter = (name, lang, text) => {
      mkdirSync(join(root, 'chapters', name), { recursive: true });
      writeFileSync(join(root, 'chapters', name, `${lang}.md`), text);
    };
    for (const id of ['lora-params', 'frob-norm']) {
      mkdirSync(join(root, 'exercises', id), { recursive: true });
      writeFileSync(join(root, 'exercises', id, 'exercise.json'), '{}');
    }
    for (const lang of LANGS) chapter('linear-algebra', lang, '# LA\n\n:::exercise lora-params\n');
    for (const lang of LANGS) chapter('norms', lang, '# Norms\n\n```md\n:::exercise shown-not-placed\n```\n\n:::exercise frob-norm\n');
    chapter('empty', 'en', '# Nothing placed\n');
    assert.deepEqual(placementProblems(join(root, 'exercises'), join(root, 'chapters')), []);

    chapter('norms', 'zh', '# 范数\n');
    chapter('linear-algebra', 'en', '# LA\n\n:::exercise lora-params\n\n:::exercise lora-params\n');
    assert.deepEqual(placementProblems(join(root, 'exercises'), join(root, 'chapters')), [
      'frob-norm is placed in no zh.md of web/chapters/*/',
      'lora-params is placed 2 times in en.md files: linear-algebra, linear-algebra',
      'linear-algebra: zh.md places lora-params but en.md lora-params, lora-params',
      'norms: zh.md places nothing but en.md frob-norm',
    ]);
  });

  // The WRONG tables of the two suites' files, read as code (importing a test file would run its tests):
  // exercise id → the distinct solution files judged wrong.
  const wrongFiles = () => {
    const tables = ['exercises-more.test.mjs', 'judge-exercises.test.mjs'].map((f) => {
      const ast = parse(readFileSync(join(ROOT, 'tests/js', f), 'utf8'), { ecmaVersion: 'latest', sourceType: 'module' });
      const decl = ast.body.flatMap((n) => (n.type === 'VariableDeclaration' ? n.declarations : [])).find((d) => d.id.name === 'WRONG');
      return decl.init.properties.map((p) => [p.key.value ?? p.key.name, new Set(p.value.elements.map((e) => e.elements[0].value))]);
    });
    return new Map(tables.flat());
  };

  test('every exercise has a suite with at least two wrong solutions, each a file of tests/js/solutions/<id>/', () => {
    const wrong = wrongFiles();
    assert.ok(wrong.size >= 24);
    for (const id of ids) {
      const files = [...(wrong.get(id) ?? [])];
      assert.ok(files.length >= 2, `${id}: ${files.length} wrong solution(s) in the WRONG tables of tests/js/*exercises*.test.mjs; at least 2 are needed`);
      for (const f of files) assert.ok(existsSync(join(ROOT, 'tests/js/solutions', id, f)), `${id}: tests/js/solutions/${id}/${f} is missing`);
    }
  });

  test('every exercise has a title and a statement in both languages, and a section', () => {
    for (const id of ids) {
      const ex = JSON.parse(readFileSync(join(ROOT, 'exercises', id, 'exercise.json'), 'utf8'));
      for (const lang of LANGS) {
        assert.ok(ex.title?.[lang]?.trim(), `${id}: title.${lang} is missing`);
        assert.ok(ex.statement?.[lang]?.trim().length > 40, `${id}: statement.${lang} is missing or too short`);
      }
      assert.ok(/[\u4e00-\u9fff]/.test(ex.statement.zh), `${id}: statement.zh has no Chinese text`);
      assert.ok(ex.section, `${id}: no section`);
    }
  });
});

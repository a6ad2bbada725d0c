// tp.model against the numpy reference forward of tests/fixtures/models (make_models.py, written after
// transformers' modeling_qwen3/qwen2/llama.py at main 000c33f, run in float64 on the stored weights): for
// every checkpoint (Qwen3/Qwen2/Llama, BF16/F32, single/sharded, tied/untied, GQA/MHA, both config
// spellings) the logits and every capture point agree within each expect file's atol + rtol·|expected|
// (1e-4 + 1e-4·|x|: our forward runs in float32), greedy generation gives the reference's ids, and the
// tokenizer gives the reference's prompt ids. Every malformed checkpoint is refused naming what
// malformed/cases.json says it must, with nothing left in tp.memory().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { init } from '../../wasm/js/node.js';

const tp = await init();
const root = fileURLToPath(new URL('../fixtures/models/', import.meta.url));
// expect/<model>.json for each checkpoint folder <model>/ (expect/ also holds the chapter's tables).
const expects = fs.readdirSync(`${root}expect`).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5))
  .filter((n) => fs.existsSync(`${root}${n}/config.json`)).sort();

// The largest violation of |a - e| <= atol + rtol |e| as {i, a, e}, or null.
function worst(a, e, atol, rtol) {
  let bad = null, ratio = 1;
  for (let i = 0; i < e.length; i++) {
    const r = Math.abs(a[i] - e[i]) / (atol + rtol * Math.abs(e[i]));
    if (!(r <= ratio)) { ratio = r; bad = { i, a: a[i], e: e[i] }; }
  }
  return bad;
}
const flat = (t) => Float32Array.from(t.toArray().flat(Infinity));

test('the fixtures cover every architecture, both storage dtypes, sharded and single files, tied and untied heads, and GQA', () => {
  const all = expects.map((n) => JSON.parse(fs.readFileSync(`${root}expect/${n}.json`, 'utf8')));
  const seen = (k) => new Set(all.map((x) => (k === 'files' && x.files !== 'single' ? 'sharded' : String(x[k]))));
  assert.deepEqual([...seen('architecture')].sort(), ['LlamaForCausalLM', 'Qwen2ForCausalLM', 'Qwen3ForCausalLM']);
  assert.deepEqual([...seen('storage')].sort(), ['BF16', 'F32']);
  assert.deepEqual([...seen('files')].sort(), ['sharded', 'single']);
  assert.deepEqual([...seen('tiedLmHead')].sort(), ['false', 'true']);
  assert.ok(all.some((x) => x.dims.kvHeads < x.dims.heads) && all.some((x) => x.dims.kvHeads === x.dims.heads));
});

for (const name of expects) {
  test(`${name}: logits, every capture point and greedy ids match the numpy reference forward`, async () => {
    const ex = JSON.parse(fs.readFileSync(`${root}expect/${name}.json`, 'utf8'));
    const { atol, rtol } = ex.tolerance;
    const before = tp.memory();
    const model = await tp.model.load(`${root}${name}`);
    assert.equal(model.config.architecture, ex.architecture);
    const ref = await tp.io.openSafetensors(`${root}expect/${ex.tensorsFile}`);
    const { logits, captures } = await model.forward(ex.ids, { capture: Object.keys(ex.captures), logits: 'all' });
    assert.deepEqual(Object.keys(captures).sort(), Object.keys(ex.captures).sort());
    for (const [cap, shape] of [...Object.entries(ex.captures), ['logits', null]]) {
      const ours = cap === 'logits' ? logits : captures[cap];
      const want = await ref.get(cap);
      if (shape) assert.deepEqual(ours.shape, shape, cap);
      assert.deepEqual(ours.shape, want.shape, cap);
      const bad = worst(flat(ours), flat(want), atol, rtol);
      assert.equal(bad, null, `${cap}: element ${bad?.i} is ${bad?.a}, the reference ${bad?.e} (atol ${atol}, rtol ${rtol})`);
      want.dispose();
    }
    await ref.close();
    tp.dispose(logits, captures);
    // The tokenizer gives the reference's prompt ids, and greedy decoding its ids.
    assert.deepEqual(model.tokenizer.encode(ex.prompt), ex.ids);
    const g = await model.generate(ex.ids, { maxNewTokens: ex.greedy.maxNewTokens });
    assert.deepEqual(g.ids, ex.greedy.ids);
    model.dispose();
    assert.deepEqual(tp.memory(), before);
  });
}

test('every malformed checkpoint of the fixtures is refused naming what it must, leaving tp.memory() where it was', async () => {
  const cases = JSON.parse(fs.readFileSync(`${root}malformed/cases.json`, 'utf8'));
  const before = tp.memory();
  for (const [dir, { what, errorMentions }] of Object.entries(cases)) {
    const load = tp.model.load(`${root}malformed/${dir}`);
    if (!errorMentions.length) {
      (await load).dispose();
      continue;
    }
    await assert.rejects(load, (e) => {
      assert.ok(e instanceof tp.TensorpadError, `${dir}: ${e}`);
      assert.match(e.message, /^model\.(load|config): /, dir);
      for (const m of errorMentions) assert.ok(e.message.includes(m), `${dir} (${what}): "${e.message}" should mention ${m}`);
      return true;
    });
    assert.deepEqual(tp.memory(), before, dir);
  }
});

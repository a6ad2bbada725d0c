// The chapter's real-model measurements (cell model-tools in web/chapters/linear-algebra/{en,zh}.md:
// gateEnergy, kvDirections, rotationTable) against numpy's float64 tables on the tiny Qwen3 fixture
// (tests/fixtures/models/expect/chapter-tables.*, written by make_models.py). They run on a stand-in model
// that replays the reference forward's captures, so the chapter's arithmetic is checked on its own; when
// tp.model exists they run again on the fixture loaded by the engine. The fixture checkpoints themselves are
// checked against tp.io: the reference's `embed` capture must be exactly the rows of embed_tokens that
// tp.io reads from each checkpoint (BF16 and F32, single file and sharded).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { init } from '../../wasm/js/node.js';
import { parseChapter } from '../../web/content/chapter.mjs';
import { runCell, createScope } from '../../web/runtime/cells.js';
import { plot } from '../../web/runtime/plot.js';
import { html, table } from '../../web/runtime/display.js';

const tp = await init({ fresh: true });
Object.assign(globalThis, { tp, print: () => {}, display: () => {}, plot, html, table });
const models = fileURLToPath(new URL('../fixtures/models/', import.meta.url));
const readJson = (...p) => JSON.parse(fs.readFileSync(path.join(models, ...p), 'utf8'));
const expected = readJson('expect', 'chapter-tables.json');

/** The tools cell of one language, run in a fresh scope; returns the scope (its functions). */
async function chapterTools(lang) {
  const file = fileURLToPath(new URL(`../../web/chapters/linear-algebra/${lang}.md`, import.meta.url));
  const { blocks } = parseChapter(fs.readFileSync(file, 'utf8'), { file, lang });
  const cell = blocks.find((b) => b.type === 'cell' && b.id === 'model-tools');
  assert.ok(cell, `${lang}: no cell model-tools`);
  const scope = createScope();
  const r = await runCell(cell.source, scope, { cellId: cell.id });
  assert.equal(r.error, undefined, `${lang} model-tools: ${r.error?.message}`);
  return scope;
}

/** Weights of a checkpoint folder by name, read with tp.io (sharded or not). */
async function checkpointTensor(folder, name) {
  const dir = path.join(models, folder);
  const index = path.join(dir, 'model.safetensors.index.json');
  const file = fs.existsSync(index) ? JSON.parse(fs.readFileSync(index, 'utf8')).weight_map[name] : 'model.safetensors';
  const f = await tp.io.openSafetensors(path.join(dir, file));
  try { return await f.get(name); } finally { await f.close(); }
}

/** A model that replays the reference's captures for the recorded ids: the chapter's arithmetic alone. */
async function replayModel() {
  const raw = readJson(expected.model, 'config.json');
  const config = { architecture: raw.architectures[0], numLayers: raw.num_hidden_layers, raw }; // as tp.model's
  const f = await tp.io.openSafetensors(path.join(models, 'expect', expected.capturesFile));
  const caps = Object.fromEntries(await Promise.all(f.tensors.map(async (t) => [t.name, await f.get(t.name)])));
  await f.close();
  const gateName = `model.layers.${expected.middleLayer}.mlp.gate_proj.weight`;
  const weights = { [gateName]: await checkpointTensor(expected.model, gateName) };
  return {
    config,
    weight(name) {
      if (!weights[name]) throw new Error(`replay model: no weight ${name}`);
      return weights[name];
    },
    async forward(ids, { capture, logits }) {
      assert.deepEqual(ids, expected.ids.slice(0, ids.length), 'forward got other ids than the recorded ones');
      assert.equal(logits, false);
      const T = ids.length;
      // Causal: the first T positions of the recorded run are what a run on T ids computes.
      const captures = {};
      for (const name of capture) {
        assert.ok(caps[name], `replay model: ${name} was not recorded`);
        const c = caps[name];
        captures[name] = tp.tidy(() => (c.ndim === 3 ? c.narrow(1, 0, T) : c.narrow(0, 0, T)).contiguous());
      }
      return { captures };
    },
    dispose() { tp.dispose(Object.values(caps), Object.values(weights)); },
  };
}

function checkTables(scope, model, label) {
  return (async () => {
    const g = scope.gateEnergy(model);
    assert.equal(g.layer, expected.gateEnergy.layer, label);
    assert.deepEqual(g.shape, expected.gateEnergy.shape, label);
    assert.deepEqual(g.rows.map((r) => r.rank), expected.gateEnergy.rows.map((r) => r.rank), label);
    g.rows.forEach((r, i) => {
      assert.ok(Math.abs(r.weight - expected.gateEnergy.rows[i].weight) < 1e-5, `${label}: energy at rank ${r.rank}: ${r.weight}`);
      assert.ok(r.random > 0 && r.random < 1, `${label}: random energy ${r.random}`);
    });

    const kv = await scope.kvDirections(model, expected.ids);
    assert.deepEqual(kv.map(({ layer, dims, K, V }) => ({ layer, dims, K, V })),
      expected.kvDirections.map(({ layer, dims, K, V }) => ({ layer, dims, K, V })), label);

    const rot = await scope.rotationTable(model, expected.ids);
    assert.deepEqual(rot.map((r) => r.rotation),
      ['none', 'random orthogonal', expected.rotation.rows[1].rotation], label);
    for (const r of rot) assert.equal(r['product unchanged'], true, `${label}: ${r.rotation} changed XWᵀ`);
    for (const want of expected.rotation.rows) {
      const got = rot.find((r) => r.rotation === want.rotation);
      assert.ok(Math.abs(got['max/median'] - want['max/median']) <= 1e-4 * want['max/median'], `${label} ${want.rotation} max/median ${got['max/median']} vs ${want['max/median']}`);
      // float32 rounding can move a value across a quantization level: a few in 10⁴ of the error
      for (const k of ['W8A8', 'W4A4']) assert.ok(Math.abs(got[k] - want[k]) <= 5e-3 * want[k], `${label} ${want.rotation} ${k} ${got[k]} vs ${want[k]}`);
    }
    const random = rot[1];
    assert.ok(random['max/median'] < rot[0]['max/median'], `${label}: a random rotation should flatten the FFN input's peaks`);
  })();
}

test('the chapter\'s three real-model tables match numpy\'s on the replayed captures of the Qwen3 fixture, in both languages', async () => {
  const model = await replayModel();
  try {
    for (const lang of ['en', 'zh']) {
      const before = tp.memory().tensors;
      await checkTables(await chapterTools(lang), model, `${lang} (replay)`);
      assert.equal(tp.memory().tensors, before, `${lang}: the tools leave no tensor behind`);
    }
  } finally {
    model.dispose();
  }
});

test('the chapter\'s tables on the Qwen3 fixture run through tp.model match numpy\'s', { skip: !tp.model && 'tp.model has not landed yet' }, async () => {
  const model = await tp.model.load(path.join(models, expected.model));
  try {
    await checkTables(await chapterTools('en'), model, 'tp.model');
  } finally {
    model.dispose();
  }
});

test('every fixture checkpoint holds, as tp.io reads it, exactly the embedding rows the reference forward started from', async () => {
  for (const f of fs.readdirSync(path.join(models, 'expect')).filter((n) => n.endsWith('.json') && n !== 'chapter-tables.json')) {
    const e = readJson('expect', f);
    const embed = await checkpointTensor(e.model, 'model.embed_tokens.weight');
    const ef = await tp.io.openSafetensors(path.join(models, 'expect', e.tensorsFile));
    const ref = await ef.get('embed');
    await ef.close();
    assert.deepEqual(embed.shape, [e.dims.vocab, e.dims.hidden], e.model);
    const rows = e.ids.map((id) => embed.select(0, id).toArray());
    assert.deepEqual(rows, ref.toArray(), `${e.model}: embed rows differ from the reference's`);
    tp.dispose(embed, ref);
  }
});

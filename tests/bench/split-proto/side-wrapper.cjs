// Prototype (split.md): the MAIN_MODULE=2 core without the decompositions, with the linalg side module
// loaded into it before the API reads the op table (eager here; on first tp.linalg call in the design).
const fs = require('fs');
const real = require('./tensorpad_core_main.js');
module.exports = async function (opts) {
  const core = await real(opts);
  const t0 = performance.now();
  await core.loadWebAssemblyModule(fs.readFileSync(__dirname + '/linalg_side.wasm'), { loadAsync: true, global: true, nodelete: true });
  if (process.env.TP_SPLIT_VERBOSE) console.error('side loaded in', (performance.now() - t0).toFixed(1), 'ms');
  return core;
};

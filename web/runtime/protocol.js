// The contract between the page (web/src/kernel.js) and the cell worker (web/runtime/kernel-worker.js).
//
// page → worker
//   { type: 'run', runId, cellId, source }        run a cell in the shared scope
//   { type: 'set', name, value }                  write a named value (a widget's binding) into the scope
//   { type: 'get', reqId, names }                 read named values (plain data; tensors as {shape, data})
//   { type: 'compute', reqId, fn, args }          call `(fn)(tp, args, scope)` given as source text
//   { type: 'ping' }                              liveness: sent only while nothing else is outstanding
//   { type: 'watch', lock }                       hold the Web Lock `lock` for as long as the worker lives
//   { type: 'complete', reqId, path }              the names under `path` ('' : the scope and globals; 'tp.linalg', 'x')
//   { type: 'lang', lang }                        the reader's language ('en' | 'zh') for what the worker itself says
//   { type: 'interrupt-flag', flag }              an Int32Array on a SharedArrayBuffer: the page sets [0] to the
//                                                 last runId to stop; runs with ids up to it stop at their next
//                                                 loop iteration or await (only the page writes it)
// worker → page
//   { type: 'ready', info }                       tp is initialised; runs may start
//   { type: 'fatal', message }                    tp failed to initialise; nothing will run
//   { type: 'output', runId, output }             one output of a running cell (see display.js)
//   { type: 'progress', runId, progress }         how far a long tp call of the running cell got (its bar):
//                                                 { op: 'model.load' | 'model.forward' | 'model.generate',
//                                                 value, max, ms?, layer?, layers?, tokens?, tensors?,
//                                                 totalTensors? }; ms: how long its last step took
//   { type: 'done', runId, error?, declared, interrupted? }  the cell finished (or stopped: interrupted, the
//                                                 scope kept); error is {name, message, line, column, file}
//   { type: 'result', reqId, value?, error? }     answer to get/compute
//   { type: 'pong' }                              answer to ping
//   { type: 'watched' }                           the lock of 'watch' is held
export const MSG = Object.freeze({
  RUN: 'run', SET: 'set', GET: 'get', COMPUTE: 'compute', PING: 'ping', WATCH: 'watch', LANG: 'lang', FLAG: 'interrupt-flag', COMPLETE: 'complete',
  READY: 'ready', FATAL: 'fatal', OUTPUT: 'output', PROGRESS: 'progress', DONE: 'done', RESULT: 'result', PONG: 'pong', WATCHED: 'watched',
});

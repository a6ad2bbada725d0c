// What a solution may not do to the process it runs in, for both of the CLI's solution hosts (worker.js on
// worker_threads, sandbox-host.js in a child process): process.exit() and abort() throw in the case that
// called them, and writes to the terminal (stdout, stderr, fs.writeSync(1 | 2)) become that case's output,
// so a printed "N passed, N failed" can never become the summary line.
//   hardenProcess(out, say)  out: the worker's console capture; say() → the messages in the judge's language

import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

export function hardenProcess(out, say) {
  process.exit = (code) => {
    throw new Error(say().exitNotAllowed(code ?? ''));
  };
  process.reallyExit = process.exit;
  process.abort = () => { throw new Error(say().abortNotAllowed); };
  for (const stream of [process.stdout, process.stderr]) {
    stream.write = (chunk, ...rest) => {
      out.write(String(chunk).replace(/\n$/, ''));
      const cb = rest.find((r) => typeof r === 'function');
      if (cb) cb();
      return true;
    };
  }
  const writeSync = fs.writeSync;
  fs.writeSync = (fd, buffer, ...rest) => {
    if (fd === 1 || fd === 2) {
      out.write(String(buffer).replace(/\n$/, ''));
      return typeof buffer === 'string' ? Buffer.byteLength(buffer) : buffer.length;
    }
    return writeSync(fd, buffer, ...rest);
  };
  syncBuiltinESMExports();
}

// Entry of the CLI's solution sandbox: a child process started by sandbox.js under Node's permission model
// (reads of the judge's own code only, no writes, no child processes, no workers). It speaks the worker
// protocol (core/protocol.js) over IPC and runs only the solution side of core/worker-core.js.
// Network: Node 20's permission model has no network switch, so the modules that open connections are
// replaced before the solution is evaluated (process.binding, the way around them, is refused under
// --experimental-permission).

import net from 'node:net';
import tls from 'node:tls';
import http from 'node:http';
import https from 'node:https';
import http2 from 'node:http2';
import dgram from 'node:dgram';
import dns from 'node:dns';
import { syncBuiltinESMExports } from 'node:module';
import { startWorker } from '../core/worker-core.js';
import { MSG } from '../core/protocol.js';
import { hardenProcess } from './harden.js';

const TEXT_CAP = 2000;   // per message: a thrown 20 MB string, repeated by every case, must stay a short verdict

function capStrings(msg) {
  for (const k of ['message', 'error', 'output']) {
    if (typeof msg[k] === 'string' && msg[k].length > TEXT_CAP) msg[k] = `${msg[k].slice(0, TEXT_CAP)} …`;
  }
  return msg;
}

function blockNetwork(say) {
  const refuse = () => { throw new Error(say().networkNotAllowed); };
  for (const [mod, names] of [[net, ['connect', 'createConnection', 'createServer']], [tls, ['connect', 'createServer']],
    [http, ['request', 'get', 'createServer']], [https, ['request', 'get', 'createServer']], [http2, ['connect', 'createServer', 'createSecureServer']],
    [dgram, ['createSocket']], [dns, ['lookup', 'resolve', 'resolve4', 'resolve6']]]) {
    for (const n of names) mod[n] = refuse;
  }
  // Classes a solution can construct itself (new dgram.Socket(), new dns.Resolver(), new net.Server()) reach
  // the network through their prototypes, not through the functions above.
  net.Socket.prototype.connect = refuse;
  net.Server.prototype.listen = refuse;
  for (const n of ['bind', 'connect', 'send']) dgram.Socket.prototype[n] = refuse;
  for (const api of [dns, dns.promises]) {
    for (const n of Object.keys(api)) if (/^(lookup|resolve|reverse)/.test(n) && typeof api[n] === 'function') api[n] = refuse;
    for (const n of Object.getOwnPropertyNames(api.Resolver.prototype)) {
      if (/^(resolve|reverse)/.test(n)) api.Resolver.prototype[n] = refuse;
    }
  }
  for (const n of ['fetch', 'WebSocket', 'EventSource']) {
    if (n in globalThis) Object.defineProperty(globalThis, n, { value: refuse, configurable: false, writable: false });
  }
}

function harden(out, say) {
  hardenProcess(out, say);
  process.kill = () => { throw new Error(say().killNotAllowed); };
  blockNetwork(say);
  syncBuiltinESMExports();
}

const realExit = process.reallyExit.bind(process);
process.on('disconnect', () => realExit(0));   // the judge is gone (or killed us): nothing left to answer

startWorker({
  post: (msg) => process.connected && process.send(capStrings(msg)),
  listen: (handler) => process.on('message', (msg) => (msg?.type === MSG.SOLVE ? handler(msg) : undefined)),
  importModule: (url) => import(url),   // for the oracle's modules, which never run here (module.js evaluates the solution)
  initTp: async () => {
    const { init } = await import('tensorpad');
    return init({ finalizers: false });
  },
  harden,
});

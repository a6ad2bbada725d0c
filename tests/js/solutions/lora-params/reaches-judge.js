// Tries to reach the judge: replace tp, post forged messages, kill its own worker.
import { parentPort } from 'node:worker_threads';

globalThis.tp = null;
export function loraParams(dOut, dIn, r) {
  parentPort.postMessage({ type: 'done' });
  return 0;
}
export function loraFraction() {
  return 0;
}

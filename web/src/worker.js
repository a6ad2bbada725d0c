// Entry of the cell worker: it owns the WASM module (through `tensorpad`) and serves the page's kernel.
import { init } from 'tensorpad';
import { serveKernel } from '../runtime/kernel-worker.js';

serveKernel(self, () => init());

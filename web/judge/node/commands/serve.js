// tensorpad serve [--port N] [--host H] [dir]: serves the built notebook (web/dist of this package, or dir)
// as `npm start` does (COOP/COEP, CSP; web/server.mjs), so a reader needs no clone to read offline.
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listen } from '../../../server.mjs';

export const usage = 'tensorpad serve [--port N] [--host 127.0.0.1] [dir]';

/** Starts the server; resolves to 0 once it listens, or to 2 (with the reason on stderr) when it cannot start. */
export async function serve(argv) {
  let values, positionals;
  try {
    ({ values, positionals } = parseArgs({ args: argv, allowPositionals: true,
      options: { port: { type: 'string', short: 'p' }, host: { type: 'string' } } }));
  } catch (e) {
    process.stderr.write(`tensorpad: ${e.message}\nusage: ${usage}\n`);
    return 2;
  }
  const port = values.port ?? process.env.PORT ?? '8080';
  if (!/^\d+$/.test(port) || Number(port) > 65535) {
    process.stderr.write(`tensorpad: --port must be a port number (0-65535), got "${port}"\n`);
    return 2;
  }
  const dir = positionals[0] ?? fileURLToPath(new URL('../../../dist/', import.meta.url));
  if (!existsSync(join(dir, 'index.html'))) {
    process.stderr.write(`tensorpad: ${dir} has no index.html (in a clone, build it first: npm run build)\n`);
    return 2;
  }
  const server = listen(dir, { port: Number(port), host: values.host ?? process.env.HOST });
  return new Promise((resolve) => {
    server.once('listening', () => resolve(0));
    server.once('error', () => resolve(2));
  });
}

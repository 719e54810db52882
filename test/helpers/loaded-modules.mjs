// Preloaded into a spawned run (NODE_OPTIONS=--import): at the main thread's exit, writes
// "loaded-module <path>" to stderr for every file of node_modules the run loaded, as an ES module (seen by a
// load hook) or through require (the CommonJS cache): what a run pays memory and start-up for.
import { writeSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { isMainThread, MessageChannel } from 'node:worker_threads';

if (isMainThread) {
  const esm = new Set();
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (url) => esm.add(url));
  port1.unref();
  const hook = `export async function initialize({ port }) { globalThis.port = port; }
    export async function load(url, context, next) { globalThis.port.postMessage(url); return next(url, context); }`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`, {
    data: { port: port2 },
    transferList: [port2],
  });
  const cache = createRequire(import.meta.url).cache;
  process.on('exit', () => {
    const files = [
      ...[...esm].map((url) => (url.startsWith('file:') ? new URL(url).pathname : url)),
      ...Object.keys(cache),
    ];
    for (const file of new Set(files))
      if (file.includes('/node_modules/')) writeSync(2, `loaded-module ${file}\n`);
  });
}

// Preloaded into a spawned run (NODE_OPTIONS=--import): at the main thread's exit, after a full collection,
// writes "heap-at-exit <bytes>" to stderr: what the run still holds once it is done (a retention test's figure).
import { writeSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  process.on('exit', () => {
    gc();
    writeSync(2, `heap-at-exit ${process.memoryUsage().heapUsed}\n`);
  });
}

// Preloaded into a spawned run (NODE_OPTIONS=--import): on the main thread, writes "main-young-online <bytes>"
// to stderr with its new space's size each time a worker thread of the run comes online, and "main-young <bytes>"
// each time its new space is found larger than before (after each collection): a memory test's figures for the
// main thread's young generation while threads start and over the whole run.
import { writeSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  const size = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
  let largest = 0;
  const check = () => {
    const now = size();
    if (now <= largest) return;
    largest = now;
    writeSync(2, `main-young ${now}\n`);
  };
  process.on('worker', (worker) =>
    worker.once('online', () => writeSync(2, `main-young-online ${size()}\n`)),
  );
  new PerformanceObserver(check).observe({ entryTypes: ['gc'] });
}

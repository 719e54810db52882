// Preloaded into a spawned run (NODE_OPTIONS=--import): on the row thread (its workerData names `files` and
// `wire`), writes "row-young <bytes>" to stderr each time its new space is found larger than before (its size
// at start, then after each collection): a memory test's figure for that thread's young generation.
import { writeSync } from 'node:fs';
import { PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';
import { isMainThread, workerData } from 'node:worker_threads';

if (!isMainThread && workerData && 'files' in workerData && 'wire' in workerData) {
  let largest = 0;
  const check = () => {
    const size = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
    if (size <= largest) return;
    largest = size;
    writeSync(2, `row-young ${size}\n`);
  };
  check();
  new PerformanceObserver(check).observe({ entryTypes: ['gc'] });
}

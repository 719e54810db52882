// A worker thread's young generation, fixed when its heap is made (issue 23, "memory flat"). V8's
// semi-space growth factor is one flag for the whole process: the main thread's cap (cli/heap.ts) sets it to 1
// after its own collections, so a worker's young generation stayed at 1 MiB semi-spaces or, started while the
// factor was 2 (the main thread busy, its gc observer not run yet), grew to its resourceLimits maximum: the row
// thread's new space was 2 MiB in one 1M-row push and 16 MiB in the next. `--min-semi-space-size` is read when
// an isolate's heap is created, so set just before `new Worker` and cleared once it runs, it sizes that thread's
// young generation alone; the factor at 1 then keeps it there.
import { setFlagsFromString } from 'node:v8';
import type { Worker } from 'node:worker_threads';

/** Whether the user sizes the young generation on node's command line or in NODE_OPTIONS. */
export function userSizesYoung(execArgv: readonly string[], nodeOptions = ''): boolean {
  const sized = /--(max|min)[-_]semi[-_]space[-_]size\b|--semi[-_]space[-_]growth[-_]factor\b/;
  return execArgv.some((option) => sized.test(option)) || sized.test(nodeOptions);
}

/**
 * Starts a worker (`start`) whose semi-spaces start at `semiSpaceMiB`; the user's own young generation flags
 * win. The flag is cleared once the worker runs (or failed, or ended), so later threads get V8's default.
 */
export function withYoungGeneration(semiSpaceMiB: number, start: () => Worker): Worker {
  if (userSizesYoung(process.execArgv, process.env.NODE_OPTIONS)) return start();
  setFlagsFromString(`--min-semi-space-size=${semiSpaceMiB}`);
  let worker: Worker;
  try {
    worker = start();
  } catch (error) {
    setFlagsFromString('--min-semi-space-size=0');
    throw error;
  }
  // Once only: a later event of this worker must not clear the flag while another worker is being started.
  const events = ['online', 'error', 'exit'] as const;
  const clear = () => {
    for (const event of events) worker.off(event, clear);
    setFlagsFromString('--min-semi-space-size=0');
  };
  for (const event of events) worker.once(event, clear);
  return worker;
}

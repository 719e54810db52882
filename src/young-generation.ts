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

/** A worker just started, and when it runs. */
export interface StartedWorker {
  worker: Worker;
  /** Settles once the worker runs, or failed or ended before it ran; never rejects. */
  started: Promise<void>;
}

/**
 * Every worker thread of a run is started here, and its starter waits for `started` before its own work goes on.
 * Starting a worker sets the process's V8 flags again: the young generation's growth factor is back at V8's 2
 * until the main thread's next collection (cli/heap.ts), and a main thread reading rows meanwhile doubled its new
 * space from 8 to 16 MiB (1 push in 2 at 1M rows, Session 22). `semiSpaceMiB`: the worker's semi-spaces from its
 * start (see above; the user's own young generation flags win), the flag cleared once it runs (or failed, or
 * ended), so later threads get V8's default.
 */
export function startWorker(start: () => Worker, semiSpaceMiB?: number): StartedWorker {
  const sized = semiSpaceMiB !== undefined && !userSizesYoung(process.execArgv, process.env.NODE_OPTIONS);
  if (sized) setFlagsFromString(`--min-semi-space-size=${semiSpaceMiB}`);
  let worker: Worker;
  try {
    worker = start();
  } catch (error) {
    if (sized) setFlagsFromString('--min-semi-space-size=0');
    throw error;
  }
  const started = new Promise<void>((resolve) => {
    // Once only: a later event of this worker must not clear the flag while another worker is being started.
    const events = ['online', 'error', 'exit'] as const;
    const settle = () => {
      for (const event of events) worker.off(event, settle);
      if (sized) setFlagsFromString('--min-semi-space-size=0');
      resolve();
    };
    for (const event of events) worker.once(event, settle);
  });
  return { worker, started };
}

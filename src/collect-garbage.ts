// A full garbage collection on demand (issue 23, "memory flat"): for a phase that ends holding much that is no
// longer reachable, on a thread that allocates too little after it for V8 to collect it by itself (cli/heap.ts
// collectAfterReading on the main thread; ledger-worker.ts after a merge on the writer's).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection now, for a phase that ends holding much that is no longer reachable and allocates
 * little after (a push once its rows are read: nothing would collect it before the process ends). Node gives a
 * program `gc` only under --expose-gc: set for the one context made here and unset at once, as jest's leak
 * detector does; the user's own `gc` (node --expose-gc) is used as it is.
 */
export function collectGarbage(): void {
  const own = (globalThis as { gc?: () => void }).gc;
  if (own) {
    own();
    return;
  }
  if (!exposed) {
    setFlagsFromString('--expose-gc');
    exposed = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc');
  }
  exposed();
}

/** The `gc` of the one context made for it, kept: a compaction collects every MiB of log it reads. */
let exposed: (() => void) | undefined;

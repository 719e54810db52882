// Peak memory of a push (issue 14). A push allocates fast (a row, a record, its JSON, its journal entry)
// and keeps little: 25-45 MiB are live, yet V8's default heap growing let the heap reach ~130 MiB and the
// process ~250 MiB at 1M rows. A smaller growing factor collects sooner and keeps the heap near what is
// live. It is one of the V8 flags read each time the heap is resized, so it can be set once the process
// runs; the heap's size limits cannot (they are fixed when the heap is created), and a hard limit would
// turn a large lookup file or a long outstanding list into an out-of-memory crash anyway.
import { setFlagsFromString } from 'node:v8';

/** Heap growing step for a run: 1 + percent/100 of the live heap after each full collection. */
export const heapGrowingPercent = 20;

/**
 * The V8 flag to set, or undefined when the user tunes the heap growing themselves on node's command line
 * (NODE_OPTIONS cannot carry this flag: node refuses it there).
 */
export function heapFlag(execArgv: readonly string[]): string | undefined {
  if (execArgv.some((option) => /^--heap[-_]growing[-_]percent\b/.test(option))) return undefined;
  return `--heap-growing-percent=${heapGrowingPercent}`;
}

export function tuneHeap(execArgv: readonly string[]): void {
  const flag = heapFlag(execArgv);
  if (flag) setFlagsFromString(flag);
}

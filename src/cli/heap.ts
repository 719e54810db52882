// Peak memory of a push (issue 14). A push allocates fast (a row, a record, its JSON, its journal entry)
// and keeps little: 25-45 MiB are live, yet V8's own heap growing let the heap reach ~130 MiB and the
// process 240-250 MiB at 300k rows, ~390 MiB in some runs. A fixed growing step collects sooner and keeps
// the heap nearer what is live. It is one of the V8 flags read each time the heap is resized, so it can be
// set once the process runs; the heap's size limits cannot (they are fixed when the heap is created), and a
// hard limit would turn a large lookup file or a long outstanding list into an out-of-memory crash anyway.
// Measured on 300k-row pushes, paired against V8's default (bench/README.md): 20, 35 and 60 % all peak at
// 179-185 MiB for 5-20 % more CPU (noisy), 100 % at 195-220 MiB; 50 % is the step kept.
import { setFlagsFromString } from 'node:v8';

/** Heap growing step for a run: 1 + percent/100 of the live heap after each full collection. */
export const heapGrowingPercent = 50;

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

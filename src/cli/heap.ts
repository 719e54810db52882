// Peak memory of a push (issue 14). A push allocates fast (a row, a record, its JSON, its journal entry)
// and keeps little: 25-45 MiB are live, yet V8's own heap growing let the heap reach ~130 MiB and the
// process 240-250 MiB at 300k rows, ~390 MiB in some runs. A fixed growing step collects sooner and keeps
// the heap nearer what is live. It is one of the V8 flags read each time the heap is resized, so it can be
// set once the process runs; the heap's size limits cannot (they are fixed when the heap is created), and a
// hard limit would turn a large lookup file or a long outstanding list into an out-of-memory crash anyway.
// Measured on 300k-row pushes, paired against V8's default (bench/README.md): 20, 35 and 60 % all peak at
// 179-185 MiB for 5-20 % more CPU (noisy), 100 % at 195-220 MiB; 50 % was kept. Measured again at 1M rows once
// the rest had shrunk (Session 22, three paired runs of 3 rounds against 50 %): 25 % peaks 0.96-1.01 x for a
// push and 0.92-0.93 x for a push again, for 0.85-1.07 x the CPU (no trend): 25 % is the step now.
//
// The young generation (issue 23, "memory flat"): V8 doubles its semi-spaces up to 16 MiB each (32 MiB of
// RSS) while rows survive their look-up chunk; `--max-semi-space-size` is also fixed at heap creation, but
// the growth factor is read at each growth. So the factor stays at V8's 2 until the new space holds
// `youngSemiSpaceMiB` per semi-space, then goes to 1 (no more growth), checked after each collection (a
// shrunk new space may grow back). `--check` of 1M rows (bench/README.md): 16 MiB (default) 139 MiB 5.6 s CPU,
// 4 MiB 117-121 MiB 5.9 s, 8 MiB 124-127 MiB 5.7 s, 1 MiB (factor 1 from the start) 114 MiB 8.2 s.
//
// Held until a push's threads run (Session 29): each new isolate sets the factor back to 2 when its heap is made
// (a factor under 2 is raised there: a bare node with the factor at 1 grew its new space to 32 MiB once a worker
// had started), on the worker's thread, tens of milliseconds before the worker is online and this thread hears
// of it. The main thread's new space was at its cap by then (it gets there while the modules load), so a
// collection in that window doubled it past the cap: one 1M-row push in three to four ran with 8 MiB semi-spaces
// (9-10 MiB more at its peak), and a 5M push so peaked at 177 MiB against 159-168. So a push that delivers holds
// the factor at 1 from its action's start (`holdYoungGeneration`, before the command's modules load) while its
// ledger's threads start (a window can then grow the new space only from its first 1 MiB semi-spaces, to 2), and
// `releaseYoungGeneration` lets it grow to the cap once they run. `--check` starts no thread, and every other
// command has the cap alone, as before.
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import { collectGarbage } from '../collect-garbage.js';
import { userSizesYoung } from '../young-generation.js';

/** Heap growing step for a run: 1 + percent/100 of the live heap after each full collection. */
export const heapGrowingPercent = 25;

/**
 * The V8 flag to set, or undefined when the user tunes the heap growing themselves on node's command line
 * (NODE_OPTIONS cannot carry this flag: node refuses it there).
 */
export function heapFlag(execArgv: readonly string[]): string | undefined {
  if (execArgv.some((option) => /^--heap[-_]growing[-_]percent\b/.test(option))) return undefined;
  return `--heap-growing-percent=${heapGrowingPercent}`;
}

/** The semi-space size (MiB) the young generation may grow to; V8's own limit is 16 on 64-bit. */
export const youngSemiSpaceMiB = 4;

/**
 * The growth factor for a new space of `newSpaceBytes` (both semi-spaces): 1 while `held` (a push's threads are
 * starting), else 2 below the cap and 1 at it.
 */
export function youngGrowthFactor(newSpaceBytes: number, held = false): 1 | 2 {
  return held || newSpaceBytes >= 2 * youngSemiSpaceMiB * 1024 * 1024 ? 1 : 2;
}

/** Whether `capYoungGeneration` runs (not when the user sizes the young generation), and whether it holds it. */
let youngCapped = false;
let youngHeld = false;

/** Sets the growth factor the new space's size and `youngHeld` call for. */
function setFactor(): void {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  setFlagsFromString(`--semi-space-growth-factor=${youngGrowthFactor(space?.space_size ?? 0, youngHeld)}`);
}

/** Holds the young generation at its present size (a push that delivers, before it loads and starts its threads). */
export function holdYoungGeneration(): void {
  if (!youngCapped) return;
  youngHeld = true;
  setFactor();
}

/** Lets a held young generation grow to its cap (RunDeps.growYoung): a push's threads run. */
export function releaseYoungGeneration(): void {
  if (!youngHeld) return;
  youngHeld = false;
  setFactor();
}

/** Keeps the young generation at `youngSemiSpaceMiB`: after each collection, sets the factor it needs. */
export function capYoungGeneration(): PerformanceObserver {
  youngCapped = true;
  // Set each time, not only on a change, and again as each worker thread runs: starting one sets the process's
  // V8 flags again (the factor back to 2 until this thread's next collection; a 1M-row push again's new space
  // grew to 16 MiB, and the ledger threads' to 4).
  process.on('worker', (worker: Worker) => worker.once('online', setFactor));
  const observer = new PerformanceObserver(setFactor);
  observer.observe({ entryTypes: ['gc'] });
  setFactor();
  return observer;
}

/**
 * Rows a push reads before `worthCollecting` says yes: below them what reading held is a few MiB (heap used
 * and ArrayBuffers at the collection: 18 MiB for 5 rows, 27 at 100k, 39 at 1M), less than a collection is worth on
 * the wall path of a push whose last request is out (15-21 ms on a fresh heap).
 */
export const collectAfterRows = 100_000;

/** Whether a push that read `rowsRead` rows held enough to be worth a full collection once they are read. */
export function worthCollecting(rowsRead: number): boolean {
  return rowsRead >= collectAfterRows;
}

/** A full collection once a push has read `rowsRead` rows, when they were worth it (RunDeps.collect). */
export function collectAfterReading(rowsRead: number): void {
  if (worthCollecting(rowsRead)) collectGarbage();
}

export function tuneHeap(execArgv: readonly string[], nodeOptions?: string): void {
  const flag = heapFlag(execArgv);
  if (flag) setFlagsFromString(flag);
  if (!userSizesYoung(execArgv, nodeOptions)) capYoungGeneration();
}

// The main thread's side of the row thread (issue 23): starts it, takes its batches in order and does with
// each event what the read loop on this thread does (check-files.ts): the same counts, hooks and takes, so
// a run reads the same whichever thread checks its rows. A stop (a signal, the value guard) ends the thread.
import { Worker } from 'node:worker_threads';
import { startWorker } from '../../young-generation.js';
import { type FileTally, settleTake } from '../check-files.js';
import type { PipelineHooks } from '../hooks.js';
import type { RunTally } from '../run-tally.js';
import type { TakeOutcome } from '../take-outcome.js';
import { BatchReader, type RowEvent } from './batch-codec.js';
import type { RowSettings, RowThreadData, RowThreadMode, ToMain, ToRows } from './messages.js';
import { reviveError } from './thread-error.js';

/**
 * Whether a run's rows are read on the row thread: only when asked for (`on`, REVIMPORT_ROW_THREAD=1), and never
 * for stdin (one reader of the process's stdin) nor with a transform (a function of the config, which cannot cross
 * threads). Measured on the 2-core machine of bench/README.md ("Session 21"): once a re-push looks its records up
 * by span, the rows on the main thread take 15 % less CPU than the row thread and up to 20 MiB less memory, about
 * the same wall time for a push (1.03 x) and less for a re-push (0.87 x): the thread's batches cost more than the
 * main thread's share it takes over. Until Session 20 the thread paid for large inputs, and `auto` started it at
 * 4 MiB.
 */
export function useRowThread(
  mode: RowThreadMode | undefined,
  settings: Pick<RowSettings, 'transform'>,
  options: { files: readonly string[] },
): boolean {
  return mode === 'on' && settings.transform === undefined && !options.files.includes('-');
}

/**
 * The row thread's semi-space size (MiB), fixed at its start. Paired, 3 rounds of a 300k-row push against the
 * 1-or-8 MiB of before: 2 MiB peaked at 171-175 MiB against 186-190 for 1.06-1.08 x CPU; 4 MiB 179-190.
 */
export const ROW_SEMI_SPACE_MIB = 2;

export interface ThreadSteps {
  take: TakeOutcome;
  tally: FileTally & Pick<RunTally, 'notePreset'>;
  hooks: Pick<PipelineHooks, 'onFileStart' | 'onFileDone' | 'onRowRead' | 'onBytesRead' | 'onWarning'>;
  signal: AbortSignal | undefined;
}

/** Reads and checks `data.files` on the row thread, taking each outcome here, in order; `running`: once it runs. */
export async function checkFilesOnThread(
  data: RowThreadData,
  steps: ThreadSteps,
  running?: () => void,
): Promise<void> {
  const thread = new RowThread(data);
  try {
    await thread.started;
    running?.();
    await consume(thread, steps);
  } finally {
    await thread.end();
  }
}

async function consume(thread: RowThread, steps: ThreadSteps): Promise<void> {
  const reader = new BatchReader();
  const state = { summing: false };
  // A signal while the thread reads (a long first pass over a large file) ends the wait at once, as the reader's
  // own signal does on the main thread. One listener for the run: a Promise.race against one never-settled
  // promise per batch kept every batch reachable from it (a 1M-row push peaked at 620 MiB).
  const interrupt = () => thread.interrupt();
  steps.signal?.addEventListener('abort', interrupt, { once: true });
  try {
    for (;;) {
      if (steps.signal?.aborted && !state.summing) return;
      const message = await thread.next(!state.summing);
      if (message === undefined) return;
      if (message.type === 'error') throw reviveError(message.error);
      if (message.type === 'done') return;
      for (const event of reader.events(message.batch)) {
        const going = apply(event, steps, state);
        if (!(typeof going === 'boolean' ? going : await going)) return;
      }
      thread.send({ type: 'taken' });
    }
  } finally {
    steps.signal?.removeEventListener('abort', interrupt);
  }
}

/**
 * Does what the read loop does at this point; false once the run is stopped (a promise only when a take must
 * be waited for: no promise per row). The conversions summed over the run are all taken once begun, as
 * check-files.ts takes them (a stop then leaves them counted, not sent).
 */
function apply(event: RowEvent, steps: ThreadSteps, state: { summing: boolean }): boolean | Promise<boolean> {
  const { tally, hooks, signal } = steps;
  const summary = tally.summary;
  switch (event.kind) {
    case 'outcome': {
      const before = summary.rowsRead;
      summary.rowsRead = event.counts.rowsRead;
      summary.folded = event.counts.folded;
      if (before >>> 10 !== summary.rowsRead >>> 10) hooks.onRowRead?.(summary.rowsRead);
      const taken = steps.take(event.outcome);
      if (taken || tally.pendingWrites.length > 0)
        return settleTake(taken, tally.pendingWrites).then(() => state.summing || !signal?.aborted);
      return state.summing || !signal?.aborted;
    }
    case 'sums':
      state.summing = !signal?.aborted;
      return state.summing;
    case 'fileStart':
      if (signal?.aborted) return false;
      hooks.onFileStart?.(event.file);
      return true;
    case 'fileDone':
      summary.rowsRead = event.counts.rowsRead;
      summary.folded = event.counts.folded;
      hooks.onRowRead?.(summary.rowsRead);
      hooks.onFileDone?.(event.file, event.rows);
      return true;
    case 'end':
      summary.rowsRead = event.counts.rowsRead;
      summary.folded = event.counts.folded;
      return true;
    case 'warn':
      tally.warn(event.message);
      return true;
    case 'readerWarning':
      hooks.onWarning?.(event.message);
      return true;
    case 'preset':
      tally.notePreset(event.file, event.preset);
      return true;
    case 'bytes':
      hooks.onBytesRead?.(event.bytes);
      return true;
  }
}

/** The worker and the messages it sent that the run has not taken yet. */
class RowThread {
  readonly #worker: Worker;
  /** Settles once the thread runs, or failed to (its error then comes as a message). */
  readonly started: Promise<void>;
  readonly #queue: ToMain[] = [];
  #waiter: ((message: ToMain | undefined) => void) | undefined;
  #waiterInterruptible = false;
  #interrupted = false;
  #ended = false;

  constructor(data: RowThreadData) {
    // The young generation: semi-spaces of ROW_SEMI_SPACE_MIB from the start, and no larger (young-generation.ts;
    // the limit is both semi-spaces). Before, a 16 MiB limit and V8's growth: 1 or 8 MiB semi-spaces by chance.
    ({ worker: this.#worker, started: this.started } = startWorker(
      () =>
        new Worker(new URL('./row-worker.js', import.meta.url), {
          workerData: data,
          resourceLimits: { maxYoungGenerationSizeMb: 2 * ROW_SEMI_SPACE_MIB },
        }),
      ROW_SEMI_SPACE_MIB,
    ));
    this.#worker.on('message', (message: ToMain) => this.#deliver(message));
    // An uncaught error or an exit before `done` (out of memory) ends the run as an internal error.
    this.#worker.on('error', (error) => this.#deliver(failure(`the row thread failed: ${error.message}`)));
    this.#worker.on('exit', (code) => {
      if (!this.#ended) this.#deliver(failure(`the row thread ended early (exit code ${code})`));
    });
  }

  /** The next message; undefined once interrupted, for a wait that may be (the summed conversions' may not). */
  next(interruptible: boolean): Promise<ToMain | undefined> {
    const message = this.#queue.shift();
    if (message) return Promise.resolve(message);
    if (interruptible && this.#interrupted) return Promise.resolve(undefined);
    this.#waiterInterruptible = interruptible;
    return new Promise((resolve) => (this.#waiter = resolve));
  }

  /** Ends an interruptible wait now and every later one (the run was stopped). */
  interrupt(): void {
    this.#interrupted = true;
    const waiter = this.#waiter;
    if (!waiter || !this.#waiterInterruptible) return;
    this.#waiter = undefined;
    waiter(undefined);
  }

  send(message: ToRows): void {
    this.#worker.postMessage(message);
  }

  /** Stops the thread, whether it finished or not (the run stopped, or a take failed). */
  async end(): Promise<void> {
    this.#ended = true;
    await this.#worker.terminate();
  }

  #deliver(message: ToMain): void {
    if (message.type === 'done' || message.type === 'error') this.#ended = true;
    const waiter = this.#waiter;
    this.#waiter = undefined;
    if (waiter) waiter(message);
    else this.#queue.push(message);
  }
}

function failure(message: string): ToMain {
  return {
    type: 'error',
    error: {
      className: 'Error',
      name: 'RowThreadError',
      message,
      stack: undefined,
      fields: {},
      cause: undefined,
    },
  };
}

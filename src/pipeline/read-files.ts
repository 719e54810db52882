// The row path of a run, files to outcomes: mapping.lookup's table, the row checker, the reader, each file's
// day/month order, then the read loop (check-files.ts). Run on the main thread (run.ts) or on the row thread
// (row-thread/row-worker.ts): only where the outcomes go and what counts them differ.
import { checkFiles, type FileSteps, type FileTally } from './check-files.js';
import { headerMatcher } from './checked-rows.js';
import { settleDateOrders } from './date-order.js';
import type { PipelineHooks } from './hooks.js';
import type { RowSettings } from './row-thread/messages.js';
import { createRunChecker, openRunLookup } from './run-checker.js';
import { runReader } from './run-reader.js';
import type { RunTally } from './run-tally.js';

export interface ReadSteps extends Pick<FileSteps, 'take' | 'signal' | 'onSums' | 'raw'> {
  tally: FileTally & Pick<RunTally, 'notePreset'>;
  hooks: Pick<PipelineHooks, 'onFileStart' | 'onFileDone' | 'onRowRead' | 'onWarning' | 'onBytesRead'>;
}

export interface ReadIO {
  stdin?: NodeJS.ReadableStream | undefined;
  /** The user's stop (a signal) for the lookup file and the reader; `steps.signal` ends the loop (also the guard's). */
  signal?: AbortSignal | undefined;
  /** The wall clock for the plausible-instant bound (default Date.now). */
  wallClock?: (() => number) | undefined;
}

/** Reads and checks `files`, each outcome to `steps.take`; the lookup table and the checker are closed at the end. */
export async function readAndCheck(
  settings: RowSettings,
  files: string[],
  io: ReadIO,
  steps: ReadSteps,
): Promise<void> {
  const { tally, hooks } = steps;
  const lookup = await openRunLookup(settings, io.signal, tally.warn);
  try {
    const check = createRunChecker(settings, lookup, io.wallClock, tally);
    try {
      const reader = runReader(
        settings,
        headerMatcher(settings.mapping),
        { stdin: io.stdin, signal: io.signal },
        hooks,
      );
      // Each file's day/month order, from all its rows, before any row of the run is checked or sent.
      const inputs = await settleDateOrders(files, {
        open: reader.open,
        readOnce: reader.readOnce,
        mapping: settings.mapping,
        lookup,
        useFormats: (file, formats) => check.useDateFormats(file, formats),
        warn: tally.warn,
      });
      await checkFiles(files, { ...steps, inputs, reader, check });
    } finally {
      check.close();
    }
  } finally {
    lookup?.close();
  }
}

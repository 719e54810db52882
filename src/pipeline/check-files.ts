// The run's read loop: each file's rows checked one by one and each outcome taken, the file's end told
// (no data rows, the checker's warnings), then the conversions summed over the run (mapping.sumBy).
import type { SourceRow } from '../input/types.js';
import type { RowChecker } from './checked-rows.js';
import type { PipelineHooks } from './hooks.js';
import type { RawSpanLoop, RawSpans } from './raw-spans.js';
import type { RunReader } from './run-reader.js';
import type { RunTally } from './run-tally.js';
import type { TakeOutcome } from './take-outcome.js';

/** What the read loop counts and warns in: the run's tally, or the row thread's counts (row-thread/). */
export interface FileTally {
  summary: Pick<RunTally['summary'], 'rowsRead' | 'folded'>;
  warn(message: string): void;
  pendingWrites: Promise<void>[];
}

export interface FileSteps {
  /** Rows already opened by the date-order pass (stdin), by file name; other files are opened here. */
  inputs: Map<string, AsyncIterable<SourceRow>>;
  reader: RunReader;
  check: RowChecker;
  take: TakeOutcome;
  tally: FileTally;
  hooks: Pick<PipelineHooks, 'onFileStart' | 'onFileDone' | 'onRowRead'>;
  signal: AbortSignal | undefined;
  /** Told before the conversions summed over the run are taken (the row thread marks it: row-thread/). */
  onSums?: () => void;
  /** The run's spans of rows already delivered (raw-spans.ts): a push's, on this thread. */
  raw?: RawSpans | undefined;
}

export async function checkFiles(files: readonly string[], steps: FileSteps): Promise<void> {
  const { check, take, tally, signal } = steps;
  for (const file of files) {
    if (signal?.aborted) break;
    await checkFile(file, steps);
  }
  // Conversions summed over the run (mapping.sumBy: a refund may come in a later file than its
  // charge) are complete only now. After a stop they are neither sent nor pending: the next run
  // reads the files again and sums them again.
  // Each sum stands for the first of its rows, counted folded until now.
  if (signal?.aborted) return;
  steps.onSums?.();
  for (const result of check.flush()) {
    tally.summary.folded--;
    await take(result);
  }
}

async function checkFile(file: string, steps: FileSteps): Promise<void> {
  const { reader, check, tally, hooks, signal } = steps;
  const summary = tally.summary;
  hooks.onFileStart?.(file);
  const before = summary.rowsRead;
  const held = steps.inputs.get(file);
  // Rows held by the date-order pass are a stream's (stdin): checked as they come, never held for a span of them.
  const sourceRows = held
    ? await checkBatches(oneByOne(held), { ...steps, raw: undefined })
    : await checkBatches(reader.openBatches(file), steps);
  hooks.onRowRead?.(summary.rowsRead);
  const source = reader.source(file);
  if (sourceRows === 0 && !signal?.aborted) {
    // "No conversions today": a successful run of 0 rows, said so in case the export went wrong.
    if (source) check.bindHeader(source);
    const what = source?.header ? 'only a header' : 'the file is empty';
    tally.warn(`${file}: no data rows (${what}): nothing to import from it`);
  }
  for (const warning of check.drainWarnings()) tally.warn(warning);
  hooks.onFileDone?.(file, summary.rowsRead - before);
}

/**
 * The per-row path over rows a chunk's worth at a time (a file); where the run keeps spans of rows, through them
 * (raw-spans.ts: a span noted delivered is counted without its rows checked). Returns the file's data rows.
 */
async function checkBatches(batches: AsyncIterable<SourceRow[]>, steps: FileSteps): Promise<number> {
  const signal = steps.signal;
  const spans = steps.raw?.file(steps.check, spanLoop(steps));
  const take = spans ? (row: SourceRow) => spans.take(row) : (row: SourceRow) => checkRow(row, steps);
  let sourceRows = 0;
  for await (const rows of batches) {
    for (const row of rows) {
      sourceRows++;
      const waiting = take(row);
      if (waiting) await waiting;
      if (signal?.aborted) return sourceRows;
    }
  }
  const ended = spans?.end();
  if (ended) await ended;
  return sourceRows;
}

/** What a file's spans of rows do with the loop's steps: a row checked, rows counted known counted read. */
function spanLoop(steps: FileSteps): RawSpanLoop {
  const summary = steps.tally.summary;
  return {
    check: (row) => checkRow(row, steps),
    counted: (rows) => {
      summary.rowsRead += rows;
      steps.hooks.onRowRead?.(summary.rowsRead);
    },
    stopped: () => steps.signal?.aborted === true,
  };
}

/** Rows held one at a time (stdin's, by the date-order pass) as batches of one. */
async function* oneByOne(rows: AsyncIterable<SourceRow>): AsyncGenerator<SourceRow[]> {
  for await (const row of rows) yield [row];
}

/** One row checked, counted and taken: a promise when the loop must wait (its take, the writes pending). */
function checkRow(row: SourceRow, steps: FileSteps): Promise<void> | undefined {
  const { check, take, tally, hooks } = steps;
  const summary = tally.summary;
  const result = check(row);
  // A line item folded into the row above: counted folded by its span of rows (raw-spans.ts).
  if (result === 'folded') steps.raw?.current?.fold();
  // Every data row counts as read, a line item folded into its order too (init counts the same); only
  // once checked: a row that ends the run (a file no preset reads) has no outcome to be counted in.
  summary.rowsRead++;
  if ((summary.rowsRead & 1023) === 0) hooks.onRowRead?.(summary.rowsRead);
  if (result === 'folded') {
    summary.folded++;
    return undefined;
  }
  const taken = take(result);
  if (taken || tally.pendingWrites.length > 0) return settleTake(taken, tally.pendingWrites);
  return undefined;
}

/** Waits for a take and for the ledger writes pending (the row thread's loop waits the same: row-thread/). */
export async function settleTake(
  taken: Promise<void> | undefined,
  pendingWrites: Promise<void>[],
): Promise<void> {
  if (taken) await taken;
  if (pendingWrites.length > 0) await Promise.all(pendingWrites.splice(0));
}

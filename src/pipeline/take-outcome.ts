// One outcome of the row checker, taken: counted in the tally (skipped, invalid or valid), written to the
// rejects file as the run asks, and a valid record queued for the ledger look-up and delivery.
import { compactRow } from '../input/compact-row.js';
import { recordKeyFirst } from '../ledger/record-key.js';
import { recordDay } from '../record/local-day.js';
import { countSkipped } from '../report/summary.js';
import type { CheckedRow, RowOutcome, SkippedRow } from './checked-rows.js';
import type { PipelineHooks } from './hooks.js';
import type { Item } from './item.js';
import type { KnownProblems } from './known-problems.js';
import type { LookupQueue } from './lookup-queue.js';
import type { RawSpans } from './raw-spans.js';
import type { WireRow } from './row-thread/batch-codec.js';
import type { RunTally } from './run-tally.js';

/** A promise only when the caller must wait (a look-up chunk full): a promise per row cost a microtask per row. */
export type TakeOutcome = (result: Exclude<RowOutcome, 'folded'>) => Promise<void> | undefined;

/** Where valid records go: the look-up queue, or the value guard holding them first (guard/run-guard.ts). */
export type ItemQueue = Pick<LookupQueue, 'add' | 'flush'>;

export interface OutcomeSteps {
  tally: RunTally;
  /** Where valid records go to be delivered; absent under --check. */
  queue: ItemQueue | undefined;
  /** Problems earlier runs reported (issue 20); absent under --check. */
  known: KnownProblems | undefined;
  /** `rejectsSkipped`: skipped rows are written to the rejects file too. */
  rejectsSkipped: boolean;
  hooks: Pick<PipelineHooks, 'onInvalid' | 'onValid'>;
  /** The run's spans of rows (raw-spans.ts): each outcome is told to the span being checked. */
  raw?: RawSpans | undefined;
}

/** Whether the run writes its skipped rows to its rejects file (`rejectsSkipped`, and a rejects file to write to). */
export function writesSkippedRows(rejectsSkipped: boolean, tally: RunTally): boolean {
  return rejectsSkipped && tally.writesRejects;
}

/** Built once per run: the returned function is called per row. */
export function outcomeTaker(steps: OutcomeSteps): TakeOutcome {
  const { tally, queue, known, hooks, raw } = steps;
  const summary = tally.summary;
  const writeSkipped = writesSkippedRows(steps.rejectsSkipped, tally);

  // A span of rows counts a skipped row by its reason where the run writes none (RawSpans.countsSkipped).
  const skipped = (result: SkippedRow) => {
    raw?.current?.skip(result.skipped);
    countSkipped(summary, result.skipped);
    if (!writeSkipped) return;
    tally.write({
      file: result.row.source.file,
      line: result.row.line,
      stage: 'not revenue',
      row: result.row,
      issues: [{ column: '(row)', value: '', reason: result.skipped, message: `skipped: ${result.skipped}` }],
    });
  };

  /** A row an earlier run reported is counted known and shown, not reported again (unless --report-known). */
  const invalid = (result: Extract<CheckedRow, { ok: false }>) => {
    raw?.current?.spoil();
    summary.invalid++;
    if (result.duplicate) summary.duplicates++;
    const before = known?.reportedBefore(result.rejection);
    if (!before || known?.reportKnown) tally.reject(result.rejection);
    else hooks.onInvalid?.(result.rejection);
    if (before) tally.noteKnownInvalid(before);
  };

  /** Counted, and queued for delivery: true when the queue's chunk is full (no promise per row). */
  const valid = (result: Extract<CheckedRow, { ok: true }>): boolean => {
    summary.valid++;
    const span = raw?.current;
    const record = result.record;
    // A record of a span of rows: its day taken now for the span's note (the look-up would take it to send it).
    const day = span
      ? ((result as WireRow).day ?? recordDay(record.conversionDatetime, record.conversionTimezone))
      : (result as WireRow).day;
    span?.add(record.conversionId, record.conversionCurrency, record.conversionValue, day!);
    tally.addValid(result.record, day);
    hooks.onValid?.(result.record, result.row.source.file, result.row.line);
    if (!queue) return false;
    // The row thread has keyed and hashed the record already (row-thread/); else it is keyed here, and a record with
    // a conversionId is hashed at its look-up, only if it must be (lookup-queue.ts).
    const wire = (result as WireRow).wire;
    const { key, contentHash } = wire ?? recordKeyFirst(result.record, result.occurrence, result.contentHash);
    const row = result.row;
    // Every field the item gets on its way, in one literal: added later (held, batch), each grew a store.
    const item: Item = {
      record: result.record,
      key,
      contentHash,
      content: undefined,
      contentIndex: 0,
      day,
      held: undefined,
      // Its text, not its cells: read again only for a report (compact-row.ts).
      row: compactRow(row),
      file: row.source.file,
      line: row.line,
      idColumn: result.idColumn,
      earlier: undefined,
      reprice: undefined,
      batch: undefined,
      perRecord: undefined,
      span: undefined,
      rawSpan: span,
    };
    return queue.add(item);
  };

  return (result) => {
    if ('skipped' in result) skipped(result);
    else if (!result.ok) invalid(result);
    else if (valid(result)) return queue!.flush();
    return undefined;
  };
}

// How a delivery's outcomes are counted in the summary: this run's records apart from the earlier runs'
// records resent first (`retried*`), what a stop left pending or not sent, and the rejects-file line of
// a record the server refused or that failed.
import type { Rejection } from '../../report/rejection.js';
import type { Summary } from '../../report/summary.js';
import type { Item } from '../item.js';
import type { Answer, LedgerWrites } from '../ledger-writes.js';

/** The summary keys of an answer: this run's records, and earlier runs' records resent. */
const answerKeys = {
  delivered: ['sent', 'retriedSent'],
  rejected: ['rejected', 'retriedRejected'],
  failed: ['failed', 'retriedFailed'],
} as const satisfies Record<string, readonly [keyof Summary, keyof Summary]>;

/** How many of `items` are records of earlier runs resent (counted apart from this run's rows). */
export const countEarlier = (items: readonly Item[]) =>
  items.reduce((n, item) => n + (item.earlier ? 1 : 0), 0);

/** Counts an answer for `items`; returns how many of them are earlier runs' records. */
export function countAnswer(
  summary: Summary,
  answer: keyof typeof answerKeys,
  items: readonly Item[],
): number {
  const earlier = countEarlier(items);
  const [fresh, resent] = answerKeys[answer];
  summary[fresh] += items.length - earlier;
  summary[resent] += earlier;
  return earlier;
}

/** Not delivered before the stop: pending if the ledger holds them, else not sent (and not pending). */
export function countUnsent(summary: Summary, writes: LedgerWrites, items: readonly Item[]): void {
  for (const item of items) {
    // A record of an earlier run stays outstanding in the ledger as it was.
    if (item.earlier) {
      summary.retriedPending++;
      continue;
    }
    writes.when(writes.holds(item), (held) => {
      if (held) summary.pending++;
      else summary.notSent++;
    });
  }
}

/**
 * Records the server answered for, whose answer the ledger could not record: it still holds them
 * outstanding (pending), so the next run sends them again (summary.unrecorded).
 */
export function countUnrecorded(summary: Summary, writes: LedgerWrites, answer: Answer, items: Item[]): void {
  writes.when(answer, (ok) => {
    if (!ok) summary.unrecorded += items.length;
  });
}

/** A record the server refused or that failed, as a line of the rejects file (`batch`: its body). */
export function serverRejection(
  item: Item,
  stage: 'rejected' | 'failed',
  reason: string,
  message: string,
  batch: Rejection['batch'],
): Rejection {
  return {
    file: item.file,
    line: item.line,
    stage,
    row: item.row,
    raw: item.row ? undefined : JSON.stringify(item.record),
    issues: [{ column: '(record)', value: item.record.conversionId ?? '', reason, message }],
    batch,
  };
}

import { describe, expect, it } from 'vitest';
import { violatedIdentities } from '../../src/report/identities.js';
import { emptySummary, type Summary } from '../../src/report/summary.js';

const push = (fields: Partial<Summary> & Record<string, unknown>) => ({ ...emptySummary(false), ...fields });

describe('violatedIdentities', () => {
  it.each([
    ['nothing read', push({})],
    [
      'rows of every kind',
      push({
        rowsRead: 10,
        valid: 5,
        invalid: 2,
        duplicates: 1,
        skipped: 1,
        skippedReasons: { pending: 1 },
        folded: 2,
        sent: 5,
      }),
    ],
    [
      'each outcome once',
      push({
        rowsRead: 7,
        valid: 7,
        sent: 1,
        alreadySent: 1,
        changed: 1,
        rejected: 1,
        failed: 1,
        pending: 1,
        notSent: 1,
      }),
    ],
    [
      'resent apart',
      push({
        rowsRead: 3,
        valid: 3,
        alreadySent: 3,
        retried: 4,
        retriedSent: 1,
        retriedRejected: 1,
        retriedFailed: 1,
        retriedPending: 1,
      }),
    ],
    ['adjustments are sent records', push({ rowsRead: 2, valid: 2, sent: 2, adjusted: 2, unrecorded: 2 })],
    ['--check sends nothing', { ...emptySummary(true), rowsRead: 3, valid: 3 }],
    ['--max-invalid stopped it', push({ rowsRead: 3, valid: 1, invalid: 2, aborted: 'too many' })],
    [
      'a run line with its times',
      push({
        startedAt: '2024-05-01T10:00:00.000Z',
        finishedAt: '2024-05-01T10:00:01.500Z',
        durationMs: 1500,
      }),
    ],
  ])('%s: holds', (_name, counts) => {
    expect(violatedIdentities(counts)).toEqual([]);
  });

  it.each([
    [
      'a folded row not counted',
      push({ rowsRead: 101, valid: 50, sent: 50 }),
      'rowsRead 101 = valid 50 + invalid 0 + skipped 0 + folded 0',
    ],
    [
      'resent records counted as this run sent (issue 20)',
      push({ rowsRead: 5000, valid: 5000, sent: 5000, alreadySent: 5000, retried: 5000, retriedSent: 5000 }),
      'valid 5000 = sent 5000 + alreadySent 5000 + changed 0 + rejected 0 + failed 0 + pending 0 + notSent 0',
    ],
    [
      'resent outcomes missing',
      push({ retried: 4 }),
      'retried 4 = retriedSent 0 + retriedRejected 0 + retriedFailed 0 + retriedPending 0',
    ],
    [
      'more duplicates than invalid',
      push({ rowsRead: 1, invalid: 1, duplicates: 2 }),
      'duplicates 2 <= invalid 1',
    ],
    ['skipped reasons off', push({ rowsRead: 1, skipped: 1 }), 'skipped 1 = the sum of skippedReasons 0'],
    [
      '--check that sent',
      { ...emptySummary(true), rowsRead: 1, valid: 1, sent: 1 },
      'nothing sent: sent 1 + alreadySent 0 + changed 0 + rejected 0 + failed 0 + pending 0 + notSent 0 = 0',
    ],
    [
      'more adjusted than sent',
      push({ rowsRead: 1, valid: 1, failed: 1, adjusted: 1 }),
      'adjusted 1 <= sent 0',
    ],
    [
      'more unrecorded than answered',
      push({ rowsRead: 1, valid: 1, failed: 1, unrecorded: 1 }),
      'unrecorded 1 <= sent 0 + rejected 0 + retriedSent 0 + retriedRejected 0',
    ],
    [
      'the pipeline timed, not the run (issue 20)',
      push({
        startedAt: '2024-05-01T10:00:00.000Z',
        finishedAt: '2024-05-01T10:00:10.700Z',
        durationMs: 8700,
      }),
      'durationMs 8700 = finishedAt - startedAt 10700',
    ],
    [
      'a key missing',
      { ...push({}), folded: undefined },
      'rowsRead 0 = valid 0 + invalid 0 + skipped 0 + folded NaN',
    ],
  ])('%s: violated', (_name, counts, identity) => {
    expect(violatedIdentities(counts)).toEqual([identity]);
  });
});

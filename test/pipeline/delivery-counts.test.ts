import { describe, expect, it } from 'vitest';
import { countAnswer, countUnsent } from '../../src/pipeline/deliver/delivery-counts.js';
import type { Item } from '../../src/pipeline/item.js';
import { LedgerWrites } from '../../src/pipeline/ledger-writes.js';
import { emptySummary } from '../../src/report/summary.js';

const item = (earlier: boolean, perRecord = false): Item => ({
  record: {
    conversionId: 'A-1',
    conversionValue: 1,
    conversionCurrency: 'EUR',
    conversionDatetime: '2024-03-01T12:00:00.000Z',
    conversionTimezone: 'Europe/Berlin',
  },
  key: 'k',
  contentHash: 'h',
  row: undefined,
  file: 'a.csv',
  line: 2,
  idColumn: 'Order ID',
  earlier,
  perRecord,
});

describe('countAnswer', () => {
  it.each([
    ['delivered', 'sent', 'retriedSent'],
    ['rejected', 'rejected', 'retriedRejected'],
    ['failed', 'failed', 'retriedFailed'],
  ] as const)('%s counts this run in %s and earlier runs resent in %s', (answer, fresh, resent) => {
    const summary = emptySummary(false);
    const earlier = countAnswer(summary, answer, [item(false), item(true), item(false)]);
    expect(earlier).toBe(1);
    expect(summary[fresh]).toBe(2);
    expect(summary[resent]).toBe(1);
  });
});

describe('countUnsent', () => {
  it('counts earlier runs apart, pending what the ledger holds, not sent the rest', () => {
    const summary = emptySummary(false);
    countUnsent(summary, new LedgerWrites(), [item(true), item(false, true), item(false), item(false)]);
    expect([summary.retriedPending, summary.pending, summary.notSent]).toEqual([1, 1, 2]);
  });
});

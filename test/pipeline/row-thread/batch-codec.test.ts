import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import type { SourceInfo, SourceRow } from '../../../src/input/types.js';
import {
  BatchReader,
  BatchWriter,
  type PackedBatch,
  type RowEvent,
  type TakenOutcome,
} from '../../../src/pipeline/row-thread/batch-codec.js';

const source: SourceInfo = {
  file: 'orders.csv',
  format: 'csv',
  encoding: 'utf-8',
  delimiter: ',',
  header: ['Id', 'Total'],
};
const other: SourceInfo = { file: 'more.jsonl', format: 'jsonl', encoding: 'utf-8' };

/** The batch as the main thread gets it: through V8's serializer, as postMessage copies it. */
const crossed = (batch: PackedBatch) => deserialize(serialize(batch)) as PackedBatch;

const full: TakenOutcome = {
  ok: true,
  record: {
    conversionCurrency: 'EUR',
    conversionValue: 1234.5,
    conversionDatetime: '2026-03-04T05:06:07.000Z',
    conversionTimezone: 'Europe/Berlin',
    serviceId: 'visitor "7"',
    conversionId: 'ord-1',
    conversionName: 'Purchase ✓',
    conversionEmail: 'a@example.com',
  },
  row: { kind: 'csv', source, line: 2, cells: ['ord-1', '1.234,50', '', 'ünï\ncode'] },
  idColumn: 'Id',
  occurrence: 1,
  wire: { key: 'id:ord-1', contentHash: 'f'.repeat(32) },
  day: 20516,
  // What the main thread gets: the day and the hash above, written beside the outcome (fullDay, fullHash).
};
const bare: TakenOutcome = {
  ok: true,
  record: {
    conversionCurrency: 'JPY',
    conversionValue: -0,
    conversionDatetime: '2026-03-04T05:06:07.000Z',
    conversionTimezone: 'Asia/Tokyo',
    conversionName: '',
  },
  row: { kind: 'csv', source, line: 3, cells: [] },
  idColumn: '',
  occurrence: 3,
};
/** A record without a conversionId met for the second time in its file: its key names the occurrence. */
const again: TakenOutcome = {
  ok: true,
  record: {
    conversionCurrency: 'EUR',
    conversionValue: 5,
    conversionDatetime: '2026-03-04T05:06:07.000Z',
    conversionTimezone: 'Europe/Berlin',
    conversionEmail: 'b@example.com',
  },
  row: { kind: 'csv', source, line: 6, cells: ['b@example.com', '5'] },
  idColumn: '',
  occurrence: 2,
  wire: { key: `h:${'c'.repeat(32)}#2`, contentHash: 'c'.repeat(32) },
  day: 20516,
};
const invalidRow: SourceRow = { kind: 'csv', source, line: 4, cells: ['x', 'oops'] };
const invalid: TakenOutcome = {
  ok: false,
  duplicate: false,
  rejection: {
    file: 'orders.csv',
    line: 4,
    stage: 'invalid',
    issues: [{ column: 'Total', value: 'oops', reason: 'invalid amount', message: 'not a number' }],
    row: invalidRow,
  },
};
const skipped: TakenOutcome = {
  skipped: 'not paid',
  row: { kind: 'csv', source, line: 5, cells: ['y', '0'] },
};
const json: TakenOutcome = {
  ok: true,
  record: {
    conversionCurrency: 'USD',
    conversionValue: 3,
    conversionDatetime: '2026-03-04T05:06:07.000Z',
    conversionTimezone: 'UTC',
  },
  row: { kind: 'json', source: other, line: 1, value: { a: 1 }, text: '{"a":1}' },
  idColumn: 'a',
  occurrence: 4,
};

/** `full`'s day and content hash, which the row thread computes beside the outcome and the writer carries. */
const fullDay = 20516;
const fullHash = 'f'.repeat(32);

function decodeAll(batches: PackedBatch[]): RowEvent[] {
  const reader = new BatchReader();
  return batches.flatMap((batch) => [...reader.events(crossed(batch))]);
}

describe('row thread batches (batch-codec.ts)', () => {
  it('carries every kind of outcome and event, in order, with the counts at each', () => {
    const writer = new BatchWriter();
    writer.fileStart('orders.csv');
    writer.bytes(65536);
    writer.preset('orders.csv', 'shopify');
    writer.outcome(full, { rowsRead: 1, folded: 0 }, fullDay, fullHash);
    writer.outcome(bare, { rowsRead: 2, folded: 1 });
    writer.warn('orders.csv: a warning', false);
    writer.outcome(invalid, { rowsRead: 3, folded: 1 });
    writer.outcome(skipped, { rowsRead: 4, folded: 1 });
    writer.warn('read warning', true);
    writer.outcome(again, { rowsRead: 5, folded: 1 }, 20516, 'c'.repeat(32));
    writer.fileDone('orders.csv', 4, { rowsRead: 5, folded: 1 });
    const first = writer.take();
    writer.fileStart('more.jsonl');
    writer.outcome(json, { rowsRead: 6, folded: 1 }, 20000, 'a'.repeat(32));
    writer.end({ rowsRead: 6, folded: 1 });
    const events = decodeAll([first, writer.take()]);
    expect(events.map((event) => event.kind)).toEqual([
      'fileStart',
      'bytes',
      'preset',
      'outcome',
      'outcome',
      'warn',
      'outcome',
      'outcome',
      'readerWarning',
      'outcome',
      'fileDone',
      'fileStart',
      'outcome',
      'end',
    ]);
    expect(events[1]).toEqual({ kind: 'bytes', bytes: 65536 });
    expect(events[2]).toEqual({ kind: 'preset', file: 'orders.csv', preset: 'shopify' });
    expect(events[3]).toEqual({ kind: 'outcome', outcome: full, counts: { rowsRead: 1, folded: 0 } });
    expect(events[4]).toEqual({ kind: 'outcome', outcome: bare, counts: { rowsRead: 2, folded: 1 } });
    expect(events[5]).toEqual({ kind: 'warn', message: 'orders.csv: a warning' });
    expect(events[6]).toEqual({ kind: 'outcome', outcome: invalid, counts: { rowsRead: 3, folded: 1 } });
    expect(events[7]).toEqual({ kind: 'outcome', outcome: skipped, counts: { rowsRead: 4, folded: 1 } });
    expect(events[8]).toEqual({ kind: 'readerWarning', message: 'read warning' });
    expect(events[9]).toEqual({ kind: 'outcome', outcome: again, counts: { rowsRead: 5, folded: 1 } });
    expect(events[10]).toEqual({
      kind: 'fileDone',
      file: 'orders.csv',
      rows: 4,
      counts: { rowsRead: 5, folded: 1 },
    });
    // A JSON row crosses as its text: past the checker nothing reads its parsed value.
    const jsonRow = { ...(json as { row: SourceRow }).row, value: {} };
    // Its day and hash ride on the outcome itself (a structured clone); no conversionId: the hash and the
    // occurrence are the key.
    const jsonWire = { key: `h:${'a'.repeat(32)}#4`, contentHash: 'a'.repeat(32) };
    expect(events[12]).toEqual({
      kind: 'outcome',
      outcome: { ...json, row: jsonRow, day: 20000, wire: jsonWire },
      counts: { rowsRead: 6, folded: 1 },
    });
    expect(events[13]).toEqual({ kind: 'end', counts: { rowsRead: 6, folded: 1 } });
  });

  it('gives back records that serialise to the same bytes, and one SourceInfo per file across batches', () => {
    const writer = new BatchWriter();
    const batches: PackedBatch[] = [];
    for (const outcome of [full, bare, invalid, full, bare]) {
      if (outcome === full) writer.outcome(outcome, { rowsRead: 1, folded: 0 }, fullDay, fullHash);
      else writer.outcome(outcome, { rowsRead: 1, folded: 0 });
      batches.push(writer.take());
    }
    const outcomes = decodeAll(batches).map((event) =>
      event.kind === 'outcome' ? event.outcome : undefined,
    );
    const sources = new Set(
      outcomes.map((outcome) =>
        'ok' in outcome! && outcome.ok
          ? outcome.row.source
          : outcome && 'rejection' in outcome
            ? outcome.rejection.row?.source
            : undefined,
      ),
    );
    expect(sources.size).toBe(1);
    expect([...sources][0]).toEqual(source);
    for (const [i, original] of [full, bare, invalid, full, bare].entries()) {
      const decoded = outcomes[i]!;
      if ('ok' in original && original.ok && 'ok' in decoded && decoded.ok) {
        expect(JSON.stringify(decoded.record)).toBe(JSON.stringify(original.record));
        // Fields in the same order; an absent one may be an undefined property (one shape for every record).
        const present = (record: object) =>
          Object.entries(record).flatMap(([key, value]) => (value === undefined ? [] : [key]));
        expect(present(decoded.record)).toEqual(present(original.record));
      }
    }
  });

  it('carries a JSON row nested 100,000 levels deep (its text, not its value)', () => {
    let value: Record<string, unknown> = {};
    for (let i = 0; i < 100_000; i++) value = { deep: value };
    const deep: TakenOutcome = {
      skipped: 'not paid',
      row: { kind: 'json', source: other, line: 9, value, text: '{"deep":...}' },
    };
    const writer = new BatchWriter();
    writer.outcome(deep, { rowsRead: 1, folded: 0 });
    const [event] = decodeAll([writer.take()]);
    expect(event).toMatchObject({
      kind: 'outcome',
      outcome: { skipped: 'not paid', row: { kind: 'json', line: 9, text: '{"deep":...}', value: {} } },
    });
  });

  it('grows past its first arrays (many outcomes in one batch)', () => {
    const writer = new BatchWriter();
    for (let i = 0; i < 3000; i++) writer.outcome(full, { rowsRead: i + 1, folded: 0 }, fullDay, fullHash);
    const events = decodeAll([writer.take()]);
    expect(events).toHaveLength(3000);
    expect(events[2999]).toEqual({ kind: 'outcome', outcome: full, counts: { rowsRead: 3000, folded: 0 } });
  });
});

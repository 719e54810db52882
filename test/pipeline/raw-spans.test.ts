// Spans of rows already delivered (pipeline/raw-spans.ts, issue 23): the digest names one sequence of rows only, a
// span is noted only when every row of it made a record delivered, and the duplicate check takes a span's ids as its
// rows' own (checked-rows.ts seeAll).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { MappingInput } from '../../src/config/schema.js';
import type { CsvRow, SourceInfo } from '../../src/input/types.js';
import type { RawSpan } from '../../src/ledger/types.js';
import { endsRawSpan, RawSpanTally, SpanText } from '../../src/pipeline/raw-spans.js';
import { createRunChecker } from '../../src/pipeline/run-checker.js';
import { orderFields, testSettings } from '../helpers/settings.js';

/** The digest of a span of CSV rows read as `texts`, under `prefix`. */
function spanDigest(prefix: string, texts: readonly string[]): string {
  const text = new SpanText();
  for (const row of texts) text.add(0x74, row);
  return text.digest(prefix);
}

describe('SpanText', () => {
  it('tells rows apart however their text is split or joined', () => {
    expect(spanDigest('p', ['ab', 'c'])).not.toBe(spanDigest('p', ['a', 'bc']));
    expect(spanDigest('p', ['a,b'])).not.toBe(spanDigest('p', ['a', 'b']));
    expect(spanDigest('p', ['a'])).toBe(spanDigest('p', ['a']));
    // The file's prefix (fingerprint, header) is part of it.
    expect(spanDigest('p', ['a'])).not.toBe(spanDigest('q', ['a']));
  });

  it('does not take a lone surrogate for the replacement character UTF-8 would write for it', () => {
    expect(spanDigest('p', ['x\uD800'])).not.toBe(spanDigest('p', ['x\uFFFD']));
  });

  it("tells a row's text from its cells, and gives the same digest after a clear and a grown buffer", () => {
    const text = new SpanText();
    text.add(0x74, 'a,b');
    const asText = text.digest('p');
    text.clear();
    text.add(0x63, 'a,b');
    expect(text.digest('p')).not.toBe(asText);
    text.clear();
    // Past the first buffer's 64 KiB: the rows before are kept when it grows.
    const long = 'é'.repeat(40_000);
    text.add(0x74, long);
    text.add(0x74, long);
    expect(text.rows).toBe(2);
    expect(text.units).toBe(80_000);
    // The bytes digested: the prefix, a NUL, then per row its kind, its byte length (4 bytes LE) and its UTF-8.
    const row = Buffer.from(long, 'utf8');
    const head = Buffer.from([0x74, 0, 0, 0, 0]);
    head.writeUInt32LE(row.length, 1);
    const bytes = Buffer.concat([Buffer.from('p\0'), head, row, head, row]);
    expect(text.digest('p')).toBe(createHash('sha256').update(bytes).digest('hex').slice(0, 32));
    expect(text.digest('p')).not.toBe(spanDigest('p', [long, `${long.slice(1)}e`]));
  });
});

describe('endsRawSpan', () => {
  it('cuts between SPAN_MIN and SPAN_MAX rows, by the row alone', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `${i},row ${i * 7919}`);
    const cuts = rows.filter((row, i) => endsRawSpan(row, 200 + (i % 800)));
    expect(cuts.length).toBeGreaterThan(0);
    expect(cuts.length).toBeLessThan(rows.length / 50);
    expect(rows.some((row) => endsRawSpan(row, 127))).toBe(false);
    expect(endsRawSpan('any', 1024)).toBe(true);
  });
});

describe('RawSpanTally', () => {
  const filled = (done: RawSpan[], rows: number, countsSkipped = true) => {
    const tally = new RawSpanTally(done, countsSkipped);
    for (let i = 0; i < rows; i++) tally.add(String(i), i % 2 ? 'EUR' : 'USD', i + 0.5, 19_000 + i);
    return tally;
  };

  it('is noted once, when closed and every record of it is delivered, with its ids and figures', () => {
    const done: RawSpan[] = [];
    const tally = filled(done, 3);
    tally.delivered();
    tally.delivered();
    tally.close(3, 'd');
    expect(done).toEqual([]);
    tally.delivered();
    expect(done).toEqual([
      {
        digest: 'd',
        records: 3,
        ids: '["0","1","2"]',
        body: JSON.stringify({
          c: ['USD', 'EUR'],
          i: [0, 1, 0],
          v: [0.5, 1.5, 2.5],
          d: [19000, 19001, 19002],
        }),
      },
    ]);
    tally.delivered();
    tally.close(3, 'd');
    expect(done).toHaveLength(1);
  });

  it('is never noted with a row that made no record, a record without an id, or fewer records than rows', () => {
    const spoiled: RawSpan[] = [];
    const a = filled(spoiled, 2);
    a.spoil();
    a.delivered();
    a.delivered();
    a.close(2, 'd');
    const b = filled(spoiled, 1);
    b.add(undefined, 'USD', 1, 1);
    b.delivered();
    b.delivered();
    b.close(2, 'd');
    const c = filled(spoiled, 2);
    c.delivered();
    c.delivered();
    c.close(3, 'd');
    expect(spoiled).toEqual([]);
  });

  it('counts skipped rows by their place and reason, and is noted with them once its records are delivered', () => {
    const done: RawSpan[] = [];
    const tally = new RawSpanTally(done, true);
    tally.skip('not revenue: Refund');
    tally.add('a', 'EUR', 10, 19_000);
    tally.skip('not revenue: Transfer');
    tally.skip('not revenue: Refund');
    tally.add('b', 'EUR', 20, 19_001);
    tally.close(5, 'd');
    tally.delivered();
    expect(done).toEqual([]);
    tally.delivered();
    expect(done).toHaveLength(1);
    expect(done[0]!.records).toBe(2);
    expect(done[0]!.ids).toBe('["a","b"]');
    expect(JSON.parse(done[0]!.body).skips).toEqual({
      at: [0, 2, 3],
      why: [0, 1, 0],
      reasons: ['not revenue: Refund', 'not revenue: Transfer'],
    });
  });

  it('counts folded rows by their place beside skipped ones', () => {
    const done: RawSpan[] = [];
    const tally = new RawSpanTally(done, true);
    tally.add('a', 'EUR', 10, 19_000);
    tally.fold();
    tally.fold();
    tally.skip('not revenue: pending');
    tally.add('b', 'EUR', 20, 19_001);
    tally.fold();
    tally.close(6, 'd');
    tally.delivered();
    tally.delivered();
    expect(done).toHaveLength(1);
    const body = JSON.parse(done[0]!.body);
    expect(body.folded).toEqual([1, 2, 5]);
    expect(body.skips.at).toEqual([3]);
  });

  it('is never noted with a skipped row where the run writes skipped rows to its rejects, or rows untold', () => {
    const done: RawSpan[] = [];
    const written = filled(done, 2, false);
    written.skip('not revenue: Refund');
    written.delivered();
    written.delivered();
    written.close(3, 'd');
    // Two records and a skipped row told, four rows closed: a row made nothing the span heard of.
    const untold = filled(done, 2);
    untold.skip('not revenue: Refund');
    untold.delivered();
    untold.delivered();
    untold.close(4, 'd');
    expect(done).toEqual([]);
  });
});

describe("the row checker's ids of a span counted unchecked (seeAll)", () => {
  const mapping: MappingInput = { fields: orderFields };
  const source: SourceInfo = {
    file: 'orders.csv',
    format: 'csv',
    encoding: 'utf-8',
    delimiter: ',',
    header: ['id', 'email', 'time', 'total', 'currency'],
  };
  const row = (id: string, line: number): CsvRow => ({
    kind: 'csv',
    source,
    line,
    cells: [id, 'a@example.com', '2024-07-01 10:00:00', '100.00', 'USD'],
  });
  const checker = () =>
    createRunChecker(testSettings({ timezone: 'UTC', mappingInput: mapping }), undefined, undefined, {
      warn: () => undefined,
      notePreset: () => undefined,
    });
  const ok = (outcome: unknown) => (outcome as { ok?: boolean }).ok;

  it('adds them all, so a later row with one of them is a duplicate', () => {
    const check = checker();
    expect(check.seeAll(['1', '2'])).toBe(true);
    expect(ok(check(row('2', 5)))).toBe(false);
    expect(ok(check(row('3', 6)))).toBe(true);
  });

  it('refuses them when one was met, and takes those added before it as new once their rows are checked', () => {
    const check = checker();
    expect(ok(check(row('7', 2)))).toBe(true);
    expect(check.seeAll(['5', '6', '7', '8'])).toBe(false);
    // The span's rows, checked one by one next: 5 and 6 are new, 7 repeats the earlier row, 8 is new.
    expect([5, 6, 7, 8].map((id, i) => ok(check(row(String(id), 10 + i))))).toEqual([
      true,
      true,
      false,
      true,
    ]);
    // Taken as new once only.
    expect(ok(check(row('5', 20)))).toBe(false);
  });

  it("gives each file's key from its header and binding; none under a transform", () => {
    const check = checker();
    const key = check.fileKey(row('1', 2));
    expect(key).toContain('"total"');
    const reordered = { ...source, header: [...source.header!].reverse() };
    const other = check.fileKey({ ...row('1', 2), source: reordered });
    expect(other).not.toBe(key);
    const transformed = createRunChecker(
      testSettings({ timezone: 'UTC', mappingInput: mapping, transform: (r) => r }),
      undefined,
      undefined,
      { warn: () => undefined, notePreset: () => undefined },
    );
    expect(transformed.fileKey(row('1', 2))).toBeUndefined();
  });
});

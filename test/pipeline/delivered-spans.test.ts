// delivered-spans.ts, the pure parts: where spans are cut, the digest, and when a span is complete.
import { describe, expect, it } from 'vitest';
import { fillHashes, JournalDraft } from '../../src/ledger/journal-draft.js';
import { contentHash } from '../../src/ledger/record-key.js';
import { endsSpan, RunSpans, SPAN_MAX, SPAN_MIN, SpanContent } from '../../src/pipeline/delivered-spans.js';
import type { ConversionRecord } from '../../src/record/fields.js';

/** The keys that end a span, cutting `keys` in order as the look-up queue does. */
function cutKeys(keys: readonly string[]): string[] {
  const ends: string[] = [];
  let length = 0;
  for (const key of keys) {
    length++;
    if (endsSpan(key, length)) {
      ends.push(key);
      length = 0;
    }
  }
  return ends;
}

const keysOf = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `id:${from + i}`);

describe('endsSpan', () => {
  it('never cuts before SPAN_MIN records, always at SPAN_MAX, about one key in 256 between', () => {
    const keys = keysOf(0, 200_000);
    for (const key of keys.slice(0, 1000)) expect(endsSpan(key, SPAN_MIN - 1)).toBe(false);
    for (const key of keys.slice(0, 1000)) expect(endsSpan(key, SPAN_MAX)).toBe(true);
    const cuts = keys.filter((key) => endsSpan(key, SPAN_MIN)).length;
    expect(cuts / keys.length).toBeGreaterThan(1 / 400);
    expect(cuts / keys.length).toBeLessThan(1 / 170);
  });

  it('cuts by content: rows added at the top leave the later cuts where they were', () => {
    const old = keysOf(1000, 20_000);
    const before = cutKeys(old);
    const after = cutKeys([...keysOf(0, 1000).map((k) => `new-${k}`), ...old]);
    // After the first cut within the old keys, every cut is the same key as before.
    const first = after.findIndex((key) => before.includes(key));
    expect(first).toBeGreaterThanOrEqual(0);
    const rest = after.slice(first);
    expect(rest).toEqual(before.slice(before.indexOf(rest[0]!)));
    expect(rest.length).toBeGreaterThan(before.length - 5);
  });
});

describe('SpanContent', () => {
  const record = (n: number, name = 'purchase'): ConversionRecord => ({
    conversionCurrency: 'EUR',
    conversionValue: n + 0.5,
    conversionDatetime: '2024-05-01T00:00:00.000Z',
    conversionTimezone: 'Europe/Berlin',
    conversionId: String(n),
    conversionName: name,
  });
  const records = keysOf(0, 5).map((key, i) => ({ key, record: record(i) }));
  const digest = (rs: readonly { key: string; record: ConversionRecord }[]) => new SpanContent().digest(rs);

  it('is the same for the same records, and differs for another order, content or key', () => {
    expect(digest(records)).toBe(digest(records.map((r) => ({ ...r, record: { ...r.record } }))));
    expect(digest(records)).toMatch(/^[0-9a-f]{32}$/);
    expect(digest([...records].reverse())).not.toBe(digest(records));
    expect(digest([...records.slice(0, 4), { key: 'id:4', record: record(4, 'refund') }])).not.toBe(
      digest(records),
    );
    expect(digest([...records.slice(0, 4), { key: 'id:x', record: record(4) }])).not.toBe(digest(records));
    expect(digest(records.slice(0, 4))).not.toBe(digest(records));
  });

  it('tells apart keys that UTF-8 would make one (a lone surrogate and U+FFFD)', () => {
    expect(digest([{ key: 'id:\uD800', record: record(1) }])).not.toBe(
      digest([{ key: 'id:\uFFFD', record: record(1) }]),
    );
  });

  it('tells apart keys whose text runs into the next (lengths come first)', () => {
    const a = [
      { key: 'id:1', record: record(1) },
      { key: 'id:2', record: record(2) },
    ];
    const b = [{ key: 'id:1', record: { ...record(1), conversionEmail: '4:id:2' } }];
    expect(digest(a)).not.toBe(digest(b));
  });

  it("gives each record's contentHash from the bytes it wrote, for kept and for long dropped records alike", () => {
    const long = Array.from({ length: 300 }, (_, i) => ({
      key: `id:${i}`,
      record: record(i, 'x'.repeat(3000)),
    }));
    for (const span of [records, long]) {
      const content = new SpanContent();
      content.digest(span);
      for (const [i, { record }] of span.entries())
        expect(content.contentHash(i, record)).toBe(contentHash(record));
    }
    // Reused for another span: its own bytes only.
    const content = new SpanContent();
    content.digest(long);
    content.digest(records);
    for (const [i, { record }] of records.entries())
      expect(content.contentHash(i, record)).toBe(contentHash(record));
    expect(content.digest(records)).toBe(digest(records));
  });

  it('is given back for reuse only once its look-up is done and no record of it is held', () => {
    const freed: SpanContent[] = [];
    const content = new SpanContent((free) => freed.push(free));
    content.digest(records);
    expect(content.hold(0)).toBe(true);
    expect(content.hold(3)).toBe(true);
    content.done();
    expect(freed).toEqual([]);
    // Held records read their own bytes: the hash, or a journal entry (its hash taken from them, journal-draft.ts).
    expect(content.takeHash(0, records[0]!.record)).toBe(contentHash(records[0]!.record));
    expect(freed).toEqual([]);
    const draft = new JournalDraft();
    content.draftEntry(draft, 3, 'id:3', 'EUR', 3.5);
    expect(freed).toEqual([content]);
    const parts = draft.parts();
    fillHashes(parts.keys, parts.content, parts.table);
    expect(JSON.parse(Buffer.from(parts.keys).toString())).toEqual([
      ['id:3', contentHash(records[3]!.record), 'EUR', 3.5],
    ]);
    // Released before its look-up is done (a batch journaled while the span is still handed on): freed at done.
    content.digest(records);
    content.hold(1);
    content.takeHash(1, records[1]!.record);
    expect(freed).toEqual([content]);
    content.done();
    expect(freed).toEqual([content, content]);
  });

  it('holds no record whose bytes went into the digest (a long span), and is not written again while one is held', () => {
    const long = Array.from({ length: 300 }, (_, i) => ({
      key: `id:${i}`,
      record: record(i, 'x'.repeat(3000)),
    }));
    const content = new SpanContent();
    content.digest(long);
    expect(content.hold(0)).toBe(false);
    content.done();
    content.digest(records);
    expect(content.hold(2)).toBe(true);
    expect(() => content.digest(records)).toThrow(/held/);
  });

  it('digests a span hashed in pieces (past the bytes it keeps) the same on every run', () => {
    const long = Array.from({ length: 300 }, (_, i) => ({
      key: `id:${i}`,
      record: record(i, 'x'.repeat(3000)),
    }));
    expect(digest(long)).toBe(digest(long.map((r) => ({ ...r }))));
    expect(digest(long)).not.toBe(digest(long.slice(1)));
  });
});

describe('RunSpans', () => {
  it('holds a span complete once each of its records is delivered, not before', () => {
    const spans = new RunSpans();
    const a = spans.open('a', 3);
    const b = spans.open('b', 2);
    a.delivered();
    a.delivered();
    b.delivered();
    expect(spans.complete).toEqual([]);
    a.delivered();
    expect(spans.complete).toEqual([{ digest: 'a', records: 3 }]);
    b.delivered();
    expect(spans.complete.map((s) => s.digest)).toEqual(['a', 'b']);
  });
});

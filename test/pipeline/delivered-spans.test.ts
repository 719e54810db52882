// delivered-spans.ts, the pure parts: where spans are cut, the digest, and when a span is complete.
import { describe, expect, it } from 'vitest';
import { endsSpan, RunSpans, SPAN_MAX, SPAN_MIN, spanDigest } from '../../src/pipeline/delivered-spans.js';

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

const hash = (n: number) => n.toString(16).padStart(32, '0');
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

describe('spanDigest', () => {
  const records = keysOf(0, 5).map((key, i) => ({ key, contentHash: hash(i) }));

  it('is the same for the same records, and differs for another order, content or key', () => {
    expect(spanDigest(records)).toBe(spanDigest(records.map((r) => ({ ...r }))));
    expect(spanDigest(records)).toMatch(/^[0-9a-f]{32}$/);
    expect(spanDigest([...records].reverse())).not.toBe(spanDigest(records));
    expect(spanDigest([...records.slice(0, 4), { key: 'id:4', contentHash: hash(99) }])).not.toBe(
      spanDigest(records),
    );
    expect(spanDigest(records.slice(0, 4))).not.toBe(spanDigest(records));
  });

  it('tells apart keys that UTF-8 would make one (a lone surrogate and U+FFFD)', () => {
    const a = [{ key: 'id:\uD800', contentHash: hash(1) }];
    const b = [{ key: 'id:\uFFFD', contentHash: hash(1) }];
    expect(spanDigest(a)).not.toBe(spanDigest(b));
  });

  it('tells apart keys whose text runs into the next (lengths come first)', () => {
    const a = [
      { key: 'id:1', contentHash: hash(1) },
      { key: 'id:2', contentHash: hash(2) },
    ];
    const b = [{ key: `id:1${hash(1)}4:id:2`, contentHash: hash(2) }];
    expect(spanDigest(a)).not.toBe(spanDigest(b));
  });

  it('hashes a span of long keys in pieces the same as one text would', () => {
    const long = Array.from({ length: 300 }, (_, i) => ({
      key: `id:${'x'.repeat(100)}${i}`,
      contentHash: hash(i),
    }));
    expect(spanDigest(long)).not.toBe(spanDigest(long.slice(1)));
    expect(spanDigest(long)).toBe(spanDigest(long.map((r) => ({ ...r }))));
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

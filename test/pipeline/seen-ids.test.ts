import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SeenIds } from '../../src/pipeline/seen-ids.js';

describe('SeenIds', () => {
  it.each([
    [
      ['A-1', 'A-2', 'A-1'],
      [true, true, false],
    ],
    [
      ['', '', 'x'],
      [true, false, true],
    ],
    [
      ['ORD-1', 'ORD-10', 'ORD-1 ', 'ord-1'],
      [true, true, true, true],
    ],
    [
      ['é', 'e\u0301', 'é'],
      [true, true, false],
    ],
    [
      ['😀', '😁', '😀'],
      [true, true, false],
    ],
  ])('adds %j as %j', (ids, expected) => {
    const seen = new SeenIds();
    expect(ids.map((id) => seen.add(id))).toEqual(expected);
    expect(seen.size).toBe(expected.filter(Boolean).length);
  });

  it.each([
    ['leading zeros', ['A-01', 'A-1', '01', '1', '001', 'A-01'], [true, true, true, true, true, false]],
    ['16 digits and more', ['1234567890123456', '1234567890123457', '1234567890123456'], [true, true, false]],
    [
      'keys whose lower word is 0',
      ['A-0', 'A-4294967296', 'A-00', 'A-0', 'A-4294967296'],
      [true, true, true, false, false],
    ],
    ['lone surrogates', ['\uD800', '\uD801', '\uFFFD', '\uD800'], [true, true, true, false]],
    ['latin-1 against wide', ['\u00e9', '\u00e9\u0100', '\u0100', '\u00e9'], [true, true, true, false]],
  ])('keeps %s apart', (_, ids, expected) => {
    const seen = new SeenIds();
    expect(ids.map((id) => seen.add(id))).toEqual(expected);
  });

  const model = (seen: SeenIds, ids: string[]) => {
    const known = new Set<string>();
    for (const id of ids) {
      const expected = !known.has(id);
      known.add(id);
      expect(seen.add(id)).toBe(expected);
    }
    expect(seen.size).toBe(known.size);
  };

  it('agrees with a Set on any sequence of ids', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 300 }), (ids) =>
        model(new SeenIds(), ids),
      ),
    );
  });

  it('never takes a new id for a duplicate, even when every hash collides (the bytes decide)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 200 }), (ids) =>
        model(new SeenIds({ hash: () => 0x1234 }), ids),
      ),
    );
    const seen = new SeenIds({ hash: () => 7 });
    const ids = Array.from({ length: 2000 }, (_, i) => `id-${i}-x`);
    model(seen, [...ids, ...ids.reverse()]);
  });

  it('takes ids past the prefix dictionary into the arena, exactly', () => {
    const seen = new SeenIds();
    const ids = Array.from({ length: 3000 }, (_, i) => `${String.fromCharCode(65 + (i % 26))}${i}x-7`);
    model(seen, [...ids, ...ids]);
  });

  it('grows past many ids, still finds every one, at under 4 bytes a distinct id (one prefix)', () => {
    const seen = new SeenIds();
    const count = 300_000;
    let added = 0;
    for (let i = 0; i < count; i++) if (seen.add(`ORD-${String(i * 7919).padStart(10, '0')}`)) added++;
    expect(added).toBe(count);
    expect(seen.size).toBe(count);
    // One WordSet, ~4.6 ids a bucket (4-byte slots held 5-6.25).
    expect(seen.bytes / count).toBeLessThan(4);
    let repeats = 0;
    for (let i = 0; i < count; i++) if (!seen.add(`ORD-${String(i * 7919).padStart(10, '0')}`)) repeats++;
    expect(repeats).toBe(count);
    expect(seen.add('ORD-0000000001')).toBe(true);
  });

  it("holds 1M of the benchmark's ids in under 3.8 bytes each (4-byte slots held 5.48)", () => {
    // bench/generate.js orderId: a scrambled bijection of 0..10^10-1, three upper words of random lower words.
    const seen = new SeenIds();
    const count = 1_000_000;
    for (let i = 0; i < count; i++) {
      const n = Number((BigInt(i) * 7_919_370_317n + 12_345n) % 10_000_000_000n);
      seen.add(`ORD-${String(n).padStart(10, '0')}`);
    }
    expect(seen.size).toBe(count);
    expect(seen.bytes / count).toBeLessThan(3.8);
  });

  it('holds a few ids in KiBs, not MiBs', () => {
    const seen = new SeenIds();
    for (const id of ['ORD-1', 'ORD-22', 'A-1', '1001']) seen.add(id);
    // Two tables of 256 x 16 8-byte slots, and four WordSets (4 upper words) of 256 spills of 16 4-byte slots.
    expect(seen.bytes).toBe(2 * 32_768 + 4 * 16_384);
  });
});

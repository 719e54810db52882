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

  it('agrees with a Set on any sequence of ids', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 6 }), { maxLength: 300 }), (ids) => {
        const seen = new SeenIds(1);
        const model = new Set<string>();
        for (const id of ids) {
          const expected = !model.has(id);
          model.add(id);
          expect(seen.add(id)).toBe(expected);
        }
        expect(seen.size).toBe(model.size);
      }),
    );
  });

  it('grows past many ids and still finds every one', () => {
    const seen = new SeenIds();
    const count = 300_000;
    let added = 0;
    for (let i = 0; i < count; i++) if (seen.add(`ORD-${i}`)) added++;
    expect(added).toBe(count);
    expect(seen.size).toBe(count);
    // 300k ids at a load of at most 0.75: 2^19 slots (524,288), i.e. 4 MiB.
    expect(seen.capacity).toBe(524_288);
    let repeats = 0;
    for (let i = 0; i < count; i++) if (!seen.add(`ORD-${i}`)) repeats++;
    expect(repeats).toBe(count);
    expect(seen.add('ORD-300000')).toBe(true);
  });

  it('rounds a capacity hint up to a power of two', () => {
    expect(new SeenIds(100_000).capacity).toBe(131_072);
    expect(new SeenIds().capacity).toBe(65_536);
  });
});

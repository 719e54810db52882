// WordSet against a JS Set: exact for any words, including those built to share a table, a bucket or a
// remainder of 0 (the spill's cases), through every widening; and its bytes per word.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mixWord, unmixWord, WordSet } from '../../src/pipeline/word-set.js';

/**
 * Adds every word, checking each answer (and `has` before it) against a Set; then every word again, each a
 * repeat; `mixes` gives back the mixes of the Set's words, ascending, and `size` their count; once cleared, none is
 * held and every word is new again.
 */
function model(words: number[]): WordSet {
  const set = new WordSet();
  const known = new Set<number>();
  for (const word of words) {
    expect(set.has(word)).toBe(known.has(word));
    expect(set.add(word)).toBe(!known.has(word));
    known.add(word);
  }
  for (const word of known) expect(set.add(word)).toBe(false);
  expect(mixesOf(set)).toEqual([...known].map(mixWord).sort((a, b) => a - b));
  expect(set.size).toBe(known.size);
  return set;
}

/** What `mixes` gives, in its order. */
function mixesOf(set: WordSet): number[] {
  const mixes: number[] = [];
  const cursor = set.mixes();
  for (; !cursor.done; cursor.next()) mixes.push(cursor.word);
  // Past its end it stays there.
  cursor.next();
  expect(cursor.done).toBe(true);
  return mixes;
}

/** Mixes with the given top 8 bits (table), next 8 bits (bucket) and low 16 bits (remainder). */
const mixOf = (table: number, bucket: number, remainder: number) =>
  ((table << 24) | (bucket << 16) | remainder) >>> 0;

describe('WordSet', () => {
  it('undoes the mix (the words below do land where they are built to)', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (h) => mixWord(unmixWord(h)) === h));
  });

  it.each([
    ['0 and 2^32 - 1', [0, 2 ** 32 - 1, 0, 1, 2 ** 32 - 1]],
    ['words whose remainder is 0', [mixOf(0, 0, 0), mixOf(0, 1, 0), mixOf(255, 255, 0), mixOf(0, 0, 1)]],
    ['one remainder in every bucket of a table', Array.from({ length: 256 }, (_, b) => mixOf(3, b, 0x1234))],
  ])('keeps %s apart', (_, hashes) => {
    model(hashes.map(unmixWord));
  });

  it('agrees with a Set on any words, crowded into few tables or spread', () => {
    const spread = fc.integer({ min: 0, max: 2 ** 32 - 1 });
    const crowded = fc
      .tuple(fc.integer({ min: 0, max: 1 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 40 }))
      .map(([table, bucket, remainder]) => unmixWord(mixOf(table, bucket, remainder)));
    fc.assert(
      fc.property(fc.array(fc.oneof(spread, crowded), { maxLength: 2000 }), (words) => {
        model(words);
      }),
    );
  });

  it('is empty once cleared, and takes every word again', () => {
    const words = Array.from({ length: 5000 }, (_, r) => unmixWord(mixOf(r % 3, 9, r)));
    const set = model(words);
    const bytes = set.bytes;
    set.clear();
    expect(set.size).toBe(0);
    expect(mixesOf(set)).toEqual([]);
    for (const word of words) expect(set.has(word)).toBe(false);
    // The buckets keep their width: the same words again take no more slots.
    model(words.slice(0, 2500));
    expect(set.bytes).toBeLessThanOrEqual(bytes);
  });

  it('takes thousands of words into one bucket, remainders of 0 among them, and finds each again', () => {
    // Every word of this bucket but the first width's spills: the spill grows and the table widens.
    const words = Array.from({ length: 5000 }, (_, r) => unmixWord(mixOf(7, 9, r)));
    words.push(...Array.from({ length: 300 }, (_, t) => unmixWord(mixOf(t % 256, 9, 0))));
    model(words);
  });

  it('stays exact through every widening of one table (a repeat checked after each add)', () => {
    const set = new WordSet();
    const words = Array.from({ length: 20_000 }, (_, i) =>
      unmixWord(mixOf(42, i % 256, (i * 40_503) & 0xffff)),
    );
    for (const [i, word] of words.entries()) {
      expect(set.add(word)).toBe(true);
      expect(set.add(words[(i * 7) % (i + 1)]!)).toBe(false);
    }
  });

  it('holds 1M random words in under 3.2 bytes each (4-byte slots at a load of 0.64-0.8 held 5-6.25)', () => {
    const set = new WordSet();
    let state = 1;
    for (let i = 0; i < 1_000_000; i++) {
      state = mixWord(state + 0x9e3779b9);
      set.add(state);
    }
    expect(set.bytes / 1_000_000).toBeLessThan(3.2);
  });

  it('allocates little for a few words', () => {
    const set = new WordSet();
    for (let word = 0; word < 10; word++) set.add(word);
    expect(set.bytes).toBeLessThanOrEqual(20_000);
  });
});

// ContentCounts against a model written the plain way (a Map per file): each record's occurrence in its file,
// or 0 when an earlier file of the run had that occurrence; for digests spread over the tables and for digests
// crowded into one table and one home slot (differing only in the words a slot compares last), through growth.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContentCounts } from '../../src/pipeline/content-counts.js';

/** The rule, written plainly: per file a count per digest; the highest count among the files before. */
class Model {
  readonly #files = new Map<number, Map<string, number>>();

  add(digest: string, file: number): number {
    let counts = this.#files.get(file);
    if (counts === undefined) {
      counts = new Map();
      this.#files.set(file, counts);
    }
    const occurrence = (counts.get(digest) ?? 0) + 1;
    counts.set(digest, occurrence);
    let before = 0;
    for (const [other, theirs] of this.#files)
      if (other !== file) before = Math.max(before, theirs.get(digest) ?? 0);
    return occurrence <= before ? 0 : occurrence;
  }
}

/** Feeds (digest, file) pairs, files in ascending runs as the checker meets them, comparing every answer. */
function compare(entries: Array<[string, number]>): void {
  const counts = new ContentCounts();
  const model = new Model();
  for (const [digest, file] of entries) expect(counts.add(digest, file)).toBe(model.add(digest, file));
}

/** Hex of four words. */
const hex = (words: number[]) => words.map((w) => (w >>> 0).toString(16).padStart(8, '0')).join('');

describe('ContentCounts', () => {
  it('counts occurrences per file and finds what earlier files had, for digests spread over the tables', () => {
    const digest = fc.integer({ min: 0, max: 11 }).map((n) => hex([n * 0x1500_0000 + n, n * 7, n * 13, n]));
    const files = fc.array(fc.array(digest, { maxLength: 40 }), { minLength: 1, maxLength: 5 });
    fc.assert(
      fc.property(files, (perFile) => {
        compare(perFile.flatMap((digests, f) => digests.map((d): [string, number] => [d, f + 1])));
      }),
    );
  });

  it('tells apart digests sharing a table and a home slot, through the table growing', () => {
    // Same first two words (table and home), the last two differing: every one probes past the others.
    const crowded = (n: number) => hex([0x1234_5678, 0x9abc_def0, n >>> 3, n & 7]);
    const entries: Array<[string, number]> = [];
    for (let n = 0; n < 300; n++) entries.push([crowded(n), 1]);
    for (let n = 0; n < 300; n += 3) entries.push([crowded(n), 1]);
    for (let n = 0; n < 300; n += 2) entries.push([crowded(n), 2], [crowded(n), 2], [crowded(n), 2]);
    compare(entries);
    const counts = new ContentCounts();
    for (let n = 0; n < 300; n++) expect(counts.add(crowded(n), 1)).toBe(1);
    for (let n = 0; n < 300; n++) expect(counts.add(crowded(n), 1)).toBe(2);
    for (let n = 0; n < 300; n++) expect(counts.add(crowded(n), 2)).toBe(0);
  });

  it("folds a file's count into the others' highest once the next file begins", () => {
    const d = 'ab'.repeat(16);
    const counts = new ContentCounts();
    expect([1, 1, 2, 2, 2, 3].map((file) => counts.add(d, file))).toEqual([1, 2, 0, 0, 3, 0]);
  });

  it('holds 100,000 distinct records in under 42 bytes each', () => {
    const counts = new ContentCounts();
    let firsts = 0;
    for (let i = 0; i < 100_000; i++) if (counts.add(randomBytes(16).toString('hex'), 1) === 1) firsts++;
    expect(firsts).toBe(100_000);
    expect(counts.bytes / 100_000).toBeLessThan(42);
  });
});

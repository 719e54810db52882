// SeenIds past its spill threshold (seen-ids.ts, seen-run.ts): against a JS Set through many spills and
// merges, with ids of every shape; the temporary file unlinked at once and closed by close(); the fallback
// to memory when no file can be made; and the bytes held, bounded past the threshold.
import { mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SeenIds } from '../../src/pipeline/seen-ids.js';
import { seededRandom } from '../../src/testing/seeded-random.js';

/** Ids of several shapes, drawn from small spaces so that they repeat. */
function idMaker(random: () => number): () => string {
  const int = (below: number) => Math.floor(random() * below);
  const digits = (length: number) => String(int(10 ** length)).padStart(length, '0');
  const shapes = [
    () => `ORD-${digits(1 + int(6))}`,
    // Plain numbers, leading zeros kept apart from the same value without them.
    () => digits(1 + int(4)),
    () => String(int(5000)),
    // Many prefixes and digit counts: past the 64 upper words with a WordSet, into the 8-byte slots.
    () => `${String.fromCharCode(65 + int(26))}${int(4)}-${digits(1 + int(3))}`,
    // 15 digits: the value's top bits vary the upper word too.
    () => `#${String(int(3000) * 3_000_000_000_000 + int(3)).padStart(15, '0')}`,
    // One low word under several upper words: n and n + 2^32 with one prefix, and other prefixes.
    () => `K-${int(3) * 4_294_967_296 + int(50)}`,
    // Ids with no exact key: the arena.
    () => `${digits(16)}`.slice(0, 16 + int(2)),
    () => `inv-${int(300)}x`,
  ];
  return () => shapes[int(shapes.length)]!();
}

/**
 * `count` adds of new ids, repeats of any earlier id (far apart) and of the last few (across the spill just
 * made), each answer checked against a Set.
 */
function model(seen: SeenIds, seed: number, count: number): Set<string> {
  const random = seededRandom(seed);
  const fresh = idMaker(random);
  const known = new Set<string>();
  const order: string[] = [];
  for (let i = 0; i < count; i++) {
    const pick = random();
    let id: string;
    if (pick < 0.15 && order.length > 0) id = order[Math.floor(random() * order.length)]!;
    else if (pick < 0.3 && order.length > 0)
      id = order[order.length - 1 - Math.floor(random() * Math.min(8, order.length))]!;
    else id = fresh();
    const expected = !known.has(id);
    if (expected) {
      known.add(id);
      order.push(id);
    }
    if (seen.add(id) !== expected) throw new Error(`add #${i} (${JSON.stringify(id)}) answered ${!expected}`);
  }
  expect(seen.size).toBe(known.size);
  return known;
}

/** The descriptors of this process open on files in `dir` (deleted or not). */
function openIn(dir: string): string[] {
  return readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => target.startsWith(`${dir}/`));
}

describe('SeenIds past spillAfter', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'seen-spill-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    [1, 64, 20_000],
    [2, 64, 20_000],
    [3, 1000, 60_000],
  ])('agrees with a Set through many spills (seed %i, spillAfter %i, %i adds)', (seed, spillAfter, count) => {
    const seen = new SeenIds({ spillAfter, spillDir: dir });
    const known = model(seen, seed, count);
    for (const id of known) expect(seen.add(id)).toBe(false);
    seen.close();
  });

  it('finds every key of a run read in more than one chunk, and keeps a low word apart under other high words', () => {
    // 150k keys spilled by 20k: merges read runs past the 64K keys of a chunk.
    const seen = new SeenIds({ spillAfter: 20_000, spillDir: dir });
    const count = 150_000;
    const id = (i: number) => `ORD-${String((i * 7919) % 1_000_003).padStart(10, '0')}`;
    for (let i = 0; i < count; i++) expect(seen.add(id(i))).toBe(true);
    for (let i = 0; i < count; i += 7) expect(seen.add(id(i))).toBe(false);
    // The same low words with another digit count, another prefix, and 2^32 more.
    expect(seen.add(`ORD-${String(7919).padStart(9, '0')}`)).toBe(true);
    expect(seen.add(`ORX-${String(7919).padStart(10, '0')}`)).toBe(true);
    expect(seen.add(`ORD-${String(7919 + 2 ** 32).padStart(10, '0')}`)).toBe(true);
    expect(seen.add(id(count - 1))).toBe(false);
    expect(seen.size).toBe(count + 3);
    seen.close();
  });

  it('answers a repeat of the key that triggered a spill, and of the first key ever spilled', () => {
    const seen = new SeenIds({ spillAfter: 4, spillDir: dir });
    expect(['A-1', 'A-2', 'A-3', 'A-4'].map((id) => seen.add(id))).toEqual([true, true, true, true]);
    expect(['A-4', 'A-1', 'A-5', 'A-5', 'A-0'].map((id) => seen.add(id))).toEqual([
      false,
      false,
      true,
      false,
      true,
    ]);
    seen.close();
  });

  it('leaves no file in the temporary folder, holds one descriptor while it runs, none after close()', () => {
    const seen = new SeenIds({ spillAfter: 100, spillDir: dir });
    for (let i = 0; i < 1000; i++) seen.add(`A-${i}`);
    expect(readdirSync(dir)).toEqual([]);
    // Each merge's new run replaced the old one: one file, unlinked.
    const open = openIn(dir);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatch(/revimport-seen-\d+-[0-9a-f]{12} \(deleted\)$/);
    seen.close();
    seen.close();
    expect(openIn(dir)).toEqual([]);
    expect(readdirSync(dir)).toEqual([]);
    // An id past every one met needs no run; one among them does.
    expect(seen.add('A-5000')).toBe(true);
    expect(() => seen.add('A-500')).toThrow(/after close/);
  });

  it('keeps the keys in memory, exactly, when the temporary file cannot be made', () => {
    const file = join(dir, 'not-a-folder');
    writeFileSync(file, '');
    const seen = new SeenIds({ spillAfter: 64, spillDir: join(file, 'below') });
    model(seen, 4, 20_000);
    expect(readdirSync(dir)).toEqual(['not-a-folder']);
    // Nothing was spilled: memory grew with the ids.
    const spilled = new SeenIds({ spillAfter: 64, spillDir: dir });
    model(spilled, 4, 20_000);
    expect(seen.bytes).toBeGreaterThan(spilled.bytes + 50_000);
    spilled.close();
    seen.close();
  });

  it('keeps the run spilled so far and the keys since in memory when a later spill fails', () => {
    const seen = new SeenIds({ spillAfter: 64, spillDir: dir });
    const ids = Array.from({ length: 1000 }, (_, i) => `A-${i}`);
    for (const id of ids.slice(0, 200)) expect(seen.add(id)).toBe(true);
    rmSync(dir, { recursive: true });
    for (const id of ids.slice(200)) expect(seen.add(id)).toBe(true);
    for (const id of ids) expect(seen.add(id)).toBe(false);
    expect(seen.size).toBe(1000);
    seen.close();
  });

  it('stays exact through spills that empty and keep a large WordSet (its slots reused, its spill cleared)', () => {
    // One prefix and digit count, values below 2^32: one upper word, a WordSet of 30k words at each spill.
    const seen = new SeenIds({ spillAfter: 30_000, spillDir: dir });
    const id = (i: number) => `ORD-${String((i * 2_654_435_761) % 4_000_000_000).padStart(10, '0')}`;
    for (let i = 0; i < 100_000; i++) {
      expect(seen.add(id(i))).toBe(true);
      // A repeat of an id from an earlier round (on disk) and of this round's first (in the emptied set).
      if (i % 97 === 0) expect(seen.add(id((i * 31) % (i + 1)))).toBe(false);
    }
    for (let i = 0; i < 100_000; i += 7) expect(seen.add(id(i))).toBe(false);
    expect(seen.size).toBe(100_000);
    seen.close();
  });

  it('holds bounded bytes past spillAfter, where memory alone grows with the ids', () => {
    const spilling = new SeenIds({ spillAfter: 10_000, spillDir: dir });
    const kept = new SeenIds({ spillAfter: Number.POSITIVE_INFINITY });
    const id = (i: number) => `ORD-${String((i * 7_919_370_317) % 10_000_000_000).padStart(10, '0')}`;
    let most = 0;
    for (let i = 0; i < 200_000; i++) {
      expect(spilling.add(id(i))).toBe(true);
      kept.add(id(i));
      if (i % 5000 === 0) most = Math.max(most, spilling.bytes);
    }
    expect(spilling.add(id(12_345))).toBe(false);
    // Tables of 10k keys and the run's index (8 bytes a block of 512 keys), against 200k keys' slots.
    expect(most).toBeLessThan(300_000);
    expect(kept.bytes).toBeGreaterThan(3 * most);
    spilling.close();
  });
});

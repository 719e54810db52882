// The regrowth shared by the run's open-addressing tables (seen-ids.ts, content-counts.ts): slots of `stride`
// 32-bit words in one Uint32Array, a slot empty while its word `marker` is 0, probed forward from its home.

/** Capacity after a regrowth: a quarter more (each table is one of 256: a regrowth copies a 256th of the set, no run-sized copy). */
export function grownCapacity(capacity: number): number {
  return Math.ceil(capacity * 1.25);
}

/**
 * `old`'s slots placed in a table of `capacity` slots, each from the home `homeOf` gives it there (its words
 * start at `at` in `old`).
 */
export function placedAgain(
  old: Uint32Array,
  stride: number,
  marker: number,
  capacity: number,
  homeOf: (at: number) => number,
): Uint32Array<ArrayBuffer> {
  const slots = new Uint32Array(capacity * stride);
  for (let at = 0; at < old.length; at += stride) {
    if (old[at + marker] === 0) continue;
    let i = homeOf(at);
    while (slots[i * stride + marker] !== 0) if (++i === capacity) i = 0;
    // Word by word: `set` of a subarray would make a view object per slot moved.
    for (let w = 0, to = i * stride; w < stride; w++) slots[to + w] = old[at + w]!;
  }
  return slots;
}

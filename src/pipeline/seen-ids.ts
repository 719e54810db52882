// The conversionIds seen on valid rows of this run, to flag later repeats as duplicates. Keeps a 64-bit
// fingerprint per id (two independent 32-bit hashes) in typed arrays with open addressing, not the
// strings: 8 bytes a slot, so 5M ids cost 64 MiB at most where a Set<string> took several hundred.
//
// False positives: two different ids are taken for one only when both 32-bit hashes agree, i.e. with
// odds of about 2^-64 per pair compared. A new id is compared with the occupants of its probe run
// (under 9 slots on average at the 0.75 load bound), so over a run of n ids the chance that any valid
// row is wrongly flagged as a duplicate is about 9n / 2^64: 2.4e-12 for 5M ids.

/** Slots in a new table (a power of two). */
const initialCapacity = 1 << 16;
/** Grow (double) before more than this share of the slots is used: keeps probe runs short. */
const maxLoad = 0.75;

export class SeenIds {
  /** Slot i holds [i*2] = first hash, [i*2+1] = second hash; 0/0 marks an empty slot. */
  #slots: Uint32Array;
  #mask: number;
  #size = 0;
  #limit: number;

  constructor(capacity = initialCapacity) {
    let slots = initialCapacity;
    while (slots < capacity) slots *= 2;
    this.#slots = new Uint32Array(slots * 2);
    this.#mask = slots - 1;
    this.#limit = Math.floor(slots * maxLoad);
  }

  /** Adds the id; false when it (or, with the odds above, an id with the same fingerprint) was already there. */
  add(id: string): boolean {
    let a = 0x811c9dc5;
    let b = 0x9747b28c;
    for (let i = 0; i < id.length; i++) {
      const c = id.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    // Final mixes so that ids differing only in their last character still spread over the table.
    a ^= a >>> 16;
    a = Math.imul(a, 0x85ebca6b);
    a ^= a >>> 13;
    a = Math.imul(a, 0xc2b2ae35);
    a ^= a >>> 16;
    b = Math.imul(b ^ id.length, 0x27d4eb2d);
    b ^= b >>> 15;
    a >>>= 0;
    b >>>= 0;
    // 0/0 is the empty marker; an id hashing to it is stored as 0/1.
    if (a === 0 && b === 0) b = 1;
    if (!this.#insert(a, b)) return false;
    this.#size++;
    if (this.#size > this.#limit) this.#grow();
    return true;
  }

  get size(): number {
    return this.#size;
  }

  /** Slots allocated (for the memory bound in tests and the benchmark). */
  get capacity(): number {
    return this.#mask + 1;
  }

  #insert(a: number, b: number): boolean {
    const slots = this.#slots;
    const mask = this.#mask;
    let i = a & mask;
    for (;;) {
      const at = i * 2;
      const sa = slots[at]!;
      const sb = slots[at + 1]!;
      if (sa === 0 && sb === 0) {
        slots[at] = a;
        slots[at + 1] = b;
        return true;
      }
      if (sa === a && sb === b) return false;
      i = (i + 1) & mask;
    }
  }

  #grow(): void {
    const old = this.#slots;
    const slots = (this.#mask + 1) * 2;
    this.#slots = new Uint32Array(slots * 2);
    this.#mask = slots - 1;
    this.#limit = Math.floor(slots * maxLoad);
    for (let at = 0; at < old.length; at += 2) {
      const a = old[at]!;
      const b = old[at + 1]!;
      if (a !== 0 || b !== 0) this.#insert(a, b);
    }
  }
}

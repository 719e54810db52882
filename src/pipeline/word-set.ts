// A set of 32-bit words at 4 bytes a slot, for SeenIds: the exact keys sharing their upper 32 bits (one
// prefix, one digit count: most of a file's ids) keep only their lower word here. 256 tables picked by a
// mix of the word, each grown by a quarter once 80 % full (load 0.64-0.8: 5-6.25 bytes a word); 0 marks an
// empty slot, so the word 0 is a flag of its own.

const tableBits = 8;
const firstSlots = 16;
const maxLoad = 0.8;

export class WordSet {
  readonly #tables = Array.from({ length: 1 << tableBits }, () => new WordTable());
  #hasZero = false;

  /** Adds the word (0 to 2^32 - 1); false when it was there. */
  add(word: number): boolean {
    if (word === 0) {
      const had = this.#hasZero;
      this.#hasZero = true;
      return !had;
    }
    const hash = mixWord(word);
    return this.#tables[hash >>> (32 - tableBits)]!.add(word, hash);
  }

  /** Bytes of slots. */
  get bytes(): number {
    let slots = 0;
    for (const table of this.#tables) slots += table.capacity;
    return slots * 4;
  }
}

class WordTable {
  #slots = new Uint32Array(firstSlots);
  #size = 0;

  get capacity(): number {
    return this.#slots.length;
  }

  add(word: number, hash: number): boolean {
    const slots = this.#slots;
    const capacity = slots.length;
    let i = home(hash, capacity);
    for (let held = slots[i]!; held !== 0; held = slots[i]!) {
      if (held === word) return false;
      if (++i === capacity) i = 0;
    }
    slots[i] = word;
    if (++this.#size > capacity * maxLoad) this.#grow();
    return true;
  }

  #grow(): void {
    const old = this.#slots;
    const slots = new Uint32Array(Math.ceil(old.length * 1.25));
    for (const word of old) {
      if (word === 0) continue;
      let i = home(mixWord(word), slots.length);
      while (slots[i] !== 0) if (++i === slots.length) i = 0;
      slots[i] = word;
    }
    this.#slots = slots;
  }
}

/** The home slot of `hash` among `capacity` (its low bits: the top ones picked the table). */
function home(hash: number, capacity: number): number {
  return Math.floor((((hash << tableBits) >>> 0) * capacity) / 0x1_0000_0000);
}

/** murmur3's 32-bit finaliser: a bijection, so distinct words spread over the tables and slots. */
export function mixWord(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

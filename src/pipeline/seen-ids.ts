// The conversionIds seen on valid rows of this run, to flag later repeats as duplicates.
// TODO(#5): a fixed-width fingerprint table keeps memory flat for 5M ids; a Set of strings is the first cut.

export class SeenIds {
  readonly #ids = new Set<string>();

  /** Adds the id; false when it was already there. */
  add(id: string): boolean {
    if (this.#ids.has(id)) return false;
    this.#ids.add(id);
    return true;
  }

  get size(): number {
    return this.#ids.size;
  }
}

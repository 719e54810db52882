// The body being filled: records join it until it holds the batch size or the next one would pass the
// byte cap (a single larger record still goes alone). Counts the bytes of the JSON array it becomes.
import type { Part } from './outcomes.js';

export class BatchFiller<T> {
  #parts: Part<T>[] = [];
  /** `[` and `]`, plus each record and the commas between them. */
  #bytes = 2;
  #size: number;
  readonly #maxBytes: number;

  constructor(size: number, maxBytes: number) {
    this.#size = size;
    this.#maxBytes = maxBytes;
  }

  get empty(): boolean {
    return this.#parts.length === 0;
  }

  /** Whether `part` must open a new body: this one is full by count, or would pass the byte cap. */
  fullFor(part: Part<T>): boolean {
    const count = this.#parts.length;
    return count >= this.#size || (count > 0 && this.#bytes + 1 + part.bytes > this.#maxBytes);
  }

  /** Adds `part`; true when the body is full by count now. */
  add(part: Part<T>): boolean {
    this.#bytes += part.bytes + (this.#parts.length > 0 ? 1 : 0);
    this.#parts.push(part);
    return this.#parts.length >= this.#size;
  }

  /** The records filled so far, as one body; the filler starts empty again. */
  take(): Part<T>[] {
    const parts = this.#parts;
    this.#parts = [];
    this.#bytes = 2;
    return parts;
  }

  /** A 413 half got through: later bodies hold at most this many records. */
  shrink(size: number): void {
    this.#size = Math.min(this.#size, size);
  }
}

// The ledger writes the deliverer's hooks make, as one account: each tracked until answered (a ledger on
// another thread answers later), the first failure kept to stop the run, and per record whether a write
// put it in the ledger, so that the summary counts what the ledger holds (issue 19).
import type { Item } from './item.js';

/** Whether a write succeeded: known now, or once the ledger answers. */
export type Answer = boolean | Promise<boolean>;

export class LedgerWrites {
  /** Writes (and counts waiting for them) not answered yet. */
  readonly #inFlight = new Set<Promise<unknown>>();
  #failure: Error | undefined;

  /** Whether a write failed: the run stops, and writes nothing more that only records intent. */
  get failed(): boolean {
    return this.#failure !== undefined;
  }

  /** Throws the first failure, if any: a hook that throws stops the deliverer (outcomes.ts). */
  halt(): void {
    if (this.#failure) throw this.#failure;
  }

  /**
   * Runs one write. A throw or a rejected answer never escapes: it is kept as the run's failure, which
   * `halt()` and `settled()` throw. Returns whether the write succeeded.
   */
  attempt(write: () => unknown): Answer {
    let result: unknown;
    try {
      result = write();
    } catch (error) {
      this.#fail(error);
      return false;
    }
    if (!(result instanceof Promise)) return true;
    const answer = result.then(
      () => true,
      (error: unknown) => {
        this.#fail(error);
        return false;
      },
    );
    this.#track(answer);
    return answer;
  }

  /**
   * attempt() of a write that puts `items` in the ledger (pending, or a journal row). A failed write
   * changes nothing: what the ledger held before (holds()) it still holds.
   */
  hold(items: readonly Item[], write: () => unknown): Answer {
    const answer = this.attempt(write);
    // On the item, not in a WeakMap: a map entry per record cost 1.7 us a record on the main thread (issue 23).
    for (const item of items) item.held = either(this.holds(item), answer);
    return answer;
  }

  /** Items resent as the journal row an earlier run wrote: the ledger holds them already. */
  held(items: readonly Item[]): void {
    for (const item of items) item.held = true;
  }

  /** Whether this run wrote `item` to the ledger (successfully or not). */
  wrote(item: Item): boolean {
    return item.held !== undefined;
  }

  /**
   * Whether the ledger holds `item` as outstanding (pending or failed): written by this run, or known to
   * it before (a record the ledger tracks one by one, or a journal row of an earlier run resent).
   */
  holds(item: Item): Answer {
    return item.held ?? (item.perRecord === true || item.batch !== undefined);
  }

  /** Calls `then` with the answer: now, or once the ledger gave it (settled() waits for that). */
  when(answer: Answer, then: (ok: boolean) => void): void {
    if (answer instanceof Promise) this.#track(answer.then(then));
    else then(answer);
  }

  /** Resolves once every write made so far is answered; rejects with the first that failed. */
  async settled(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.allSettled([...this.#inFlight]);
    if (this.#failure) throw this.#failure;
  }

  #fail(error: unknown): void {
    this.#failure ??= error instanceof Error ? error : new Error(String(error));
  }

  #track(promise: Promise<unknown>): void {
    this.#inFlight.add(promise);
    const done = () => this.#inFlight.delete(promise);
    promise.then(done, done);
  }
}

/** Whether either answer is true. */
function either(a: Answer, b: Answer): Answer {
  if (a === true || b === true) return true;
  if (a === false) return b;
  if (b === false) return a;
  return Promise.all([a, b]).then(([x, y]) => x || y);
}

// Valid records on their way to the deliverer: gathered in chunks, looked up in the ledger (what it
// knows already is counted, not sent: known-records.ts), then pushed in the order they were read.
import type { LedgerEntry } from '../ledger/types.js';
import type { Deliverer } from '../transport/deliver.js';
import type { Item } from './item.js';
import type { RunLedger } from './types.js';

const LOOKUP_CHUNK = 512;
/** Lookup chunks in flight at most (a ledger on another thread): bounds the items held, ~2,000. */
const LOOKUPS_AHEAD = 4;

export interface LookupSteps {
  deliverer: Deliverer<Item>;
  /** True when the record is counted as known and not to be sent (known-records.ts). */
  knownAlready(item: Item, entry: LedgerEntry): Promise<boolean>;
  ledger: RunLedger | undefined;
  /** Shows the rows read so far. */
  showRowsRead(): void;
}

export class LookupQueue {
  /**
   * Valid records not handed on yet (to the look-up, then the deliverer, or counted already sent or
   * changed). Those a stop leaves here are counted `notSent`: the ledger does not hold them either.
   */
  waiting = 0;
  #items: Item[] = [];
  // A ledger on other threads answers lookups later: up to LOOKUPS_AHEAD chunks are looked up while the
  // next rows are read, and handled in order. A synchronous ledger's chunk is handled at once.
  #lookedUp: Promise<void> = Promise.resolve();
  #ahead = 0;
  readonly #steps: LookupSteps;

  constructor(steps: LookupSteps) {
    this.#steps = steps;
  }

  /** Queues a record; true when its chunk is full and is to be flushed. */
  add(item: Item): boolean {
    this.#items.push(item);
    this.waiting++;
    return this.#items.length >= LOOKUP_CHUNK;
  }

  /** Settles once every chunk flushed so far is handled (rejects when handling one failed). */
  get lookedUp(): Promise<void> {
    return this.#lookedUp;
  }

  /** Looks the queued records up; awaits the chunks ahead when LOOKUPS_AHEAD are in flight. */
  async flush(): Promise<void> {
    const items = this.#items;
    this.#items = [];
    if (items.length === 0) return;
    // The rows read so far are shown before any of these is delivered: a display updated every 1,024 rows
    // showed more delivered than read (`1024 rows read, 1225 delivered`, issue 20).
    this.#steps.showRowsRead();
    const ledger = this.#steps.ledger;
    const known = ledger
      ? ledger.ledger.lookup(
          ledger.targetId,
          items.map((i) => i.key),
        )
      : new Map<string, LedgerEntry>();
    if (known instanceof Promise) known.catch(() => undefined);
    this.#ahead++;
    this.#lookedUp = this.#lookedUp.then(async () => {
      await this.#handle(items, await known);
      this.#ahead--;
    });
    // Observed here so that a failure waits for the next await of `lookedUp` instead of going unhandled.
    this.#lookedUp.catch(() => undefined);
    if (this.#ahead >= LOOKUPS_AHEAD || !(known instanceof Promise)) await this.#lookedUp;
  }

  /** The valid records never handed on, once: counted `notSent`. */
  takeWaiting(): number {
    const waiting = this.waiting;
    this.waiting = 0;
    return waiting;
  }

  async #handle(items: Item[], known: Map<string, LedgerEntry>): Promise<void> {
    const { deliverer, knownAlready } = this.#steps;
    for (const item of items) {
      // Handed on now: the deliverer reports every record pushed, also one it refuses after a stop.
      this.waiting--;
      const entry = known.get(item.key);
      if (entry && (await knownAlready(item, entry))) continue;
      // Known pending or failed: the ledger's per-record tables hold this key, so its batch goes there too.
      if (entry?.state === 'pending' || entry?.state === 'failed') item.perRecord = true;
      const room = deliverer.push(item);
      if (room) await room;
    }
  }
}

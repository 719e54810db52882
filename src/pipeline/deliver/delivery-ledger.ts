// What the ledger records at each step of a delivery. A batch of new records is one journal row (issue 14),
// settled whole when delivered; any other outcome (rejected, failed, split, partly delivered) moves the row
// to the ledger's per-record tables first. Every write goes through LedgerWrites (tracked, never thrown).
import { JournalDraft } from '../../ledger/journal-draft.js';
import type { LedgerPort } from '../../ledger/ledger-port.js';
import type { JournalBody, PackedJournalEntry } from '../../ledger/types.js';
import { draftEntry, hashOf, type Item, type JournalRef } from '../item.js';
import type { Answer, LedgerWrites } from '../ledger-writes.js';

/** The open ledger and the run's place in it (RunDeps.ledger). */
export interface LedgerHandle {
  ledger: LedgerPort;
  targetId: number;
  runId: number;
}

/** The journal row holding exactly these items as one body under `idempotencyKey`, if one does. */
export function wholeRow(items: readonly Item[], idempotencyKey?: string): JournalRef | undefined {
  const batch = items[0]?.batch;
  if (!batch || batch.moved || batch.size !== items.length) return undefined;
  if (idempotencyKey !== undefined && batch.idempotencyKey !== idempotencyKey) return undefined;
  return items.every((i) => i.batch === batch) ? batch : undefined;
}

export class DeliveryLedger {
  readonly #ledger: LedgerHandle | undefined;
  readonly #writes: LedgerWrites;
  /** --resend: only then may a delivered record turn back into pending (the ledger's guard). */
  readonly #resend: boolean;
  readonly #draft = new JournalDraft();

  constructor(ledger: LedgerHandle | undefined, writes: LedgerWrites, resend: boolean) {
    this.#ledger = ledger;
    this.#writes = writes;
    this.#resend = resend;
  }

  /**
   * journal: the body is durable before it goes out: a journal row of an earlier run resent whole is
   * already; new records become one journal row; records the ledger tracks one by one are marked pending.
   */
  journal(
    items: Item[],
    idempotencyKey: string,
    json: (index: number) => string,
    body: JournalBody,
  ): Answer | undefined {
    if (wholeRow(items, idempotencyKey)) {
      this.#writes.held(items);
      return undefined;
    }
    if (items.every((i) => !i.batch && !i.perRecord)) return this.#journalRow(items, idempotencyKey, body);
    this.unjournal(items);
    return this.#writePending(items, idempotencyKey, json);
  }

  /** Moves the journal rows of these items to the per-record tables, before a per-record write. */
  unjournal(items: Item[]): void {
    const ledger = this.#ledger;
    for (const item of items) {
      const batch = item.batch;
      if (batch && !batch.moved) {
        batch.moved = true;
        if (ledger) this.#writes.attempt(() => ledger.ledger.unjournal(batch.id));
      }
      if (batch) {
        item.batch = undefined;
        item.perRecord = true;
      }
    }
  }

  /**
   * Items that never reached beforeSend (stopped, or the retry budget was spent first) are written now,
   * so that the next run or `revimport retry` finds them. Sent ones keep the key they went out with.
   */
  writeUnsent(items: Item[]): void {
    const writes = this.#writes;
    // A journal row resent from an earlier run is written already, with its key; so is a key the ledger
    // tracks record by record (pending or failed): its first body may have reached the server, and
    // rewriting it under no key would make the next resend a new body (test/e2e/resend-abandoned).
    const unsent = items.filter((i) => !writes.wrote(i) && !i.perRecord && !(i.batch && !i.batch.moved));
    if (unsent.length > 0) this.#writePending(unsent, '');
  }

  /** Records a delivery (the batch's journal row settled, or its records marked one by one), then reprices. */
  delivered(items: Item[], idempotencyKey: string): Answer | undefined {
    const l = this.#ledger;
    if (!l) return undefined;
    const batch = wholeRow(items, idempotencyKey);
    let answer: Answer;
    if (batch) {
      answer = this.#writes.attempt(() => l.ledger.settleBatch(batch.id));
    } else {
      this.unjournal(items);
      const keys = items.map((i) => i.key);
      answer = this.#writes.attempt(() => l.ledger.markDelivered(l.targetId, keys, idempotencyKey));
    }
    for (const { reprice } of items) {
      if (reprice) {
        this.#writes.attempt(() =>
          l.ledger.reprice(l.targetId, reprice.key, reprice.contentHash, reprice.amount),
        );
      }
    }
    return answer;
  }

  rejected(items: Item[], message: string): Answer | undefined {
    this.unjournal(items);
    const l = this.#ledger;
    if (!l) return undefined;
    const entries = items.map((i) => ({ key: i.key, message }));
    return this.#writes.attempt(() => l.ledger.markRejected(l.targetId, entries));
  }

  /** Failed records stay outstanding: written pending if they never were, then marked failed. */
  failed(items: Item[], reason: string): void {
    this.writeUnsent(items);
    this.unjournal(items);
    const keys = items.map((i) => i.key);
    const l = this.#ledger;
    if (l) this.#writes.attempt(() => l.ledger.markFailed(l.targetId, keys, reason));
  }

  #journalRow(items: Item[], idempotencyKey: string, body: JournalBody): Answer {
    const l = this.#ledger;
    if (!l) return this.#writes.hold(items, () => undefined);
    // The id is known once the row is written; nothing reads it before (the request waits for the write).
    const batch: JournalRef = { id: -1, idempotencyKey, size: items.length };
    const answer = this.#writes.hold(items, () => {
      const id = l.ledger.journalDraft
        ? l.ledger.journalDraft(l.targetId, l.runId, idempotencyKey, this.#draftOf(items), body)
        : l.ledger.journalBatch(l.targetId, l.runId, idempotencyKey, packedEntries(items), body);
      // The row holds the hashes from here on, and a journaled record's later steps take them from it (settled,
      // unjournaled): an item lets its own go rather than carry ~100 bytes through its body's flight into the
      // old generation (issue 23). A reader that still asks (hashOf) hashes its record again.
      for (const item of items) item.contentHash = undefined;
      if (!(id instanceof Promise)) {
        batch.id = id;
        return;
      }
      return id.then((value) => {
        batch.id = value;
      });
    });
    for (const item of items) item.batch = batch;
    return answer;
  }

  /**
   * The batch's entries in the run's one draft (read by journalDraft before it returns): a record looked up without
   * its hash goes with its content bytes, hashed on the ledger's thread (ledger/journal-draft.ts).
   */
  #draftOf(items: readonly Item[]): JournalDraft {
    const draft = this.#draft;
    draft.clear();
    for (const item of items) draftEntry(draft, item);
    return draft;
  }

  // `json`: the records as the deliverer already serialized them for the body (the payload kept for a resend).
  #writePending(items: Item[], idempotencyKey: string, json?: (index: number) => string): Answer {
    const l = this.#ledger;
    const resend = this.#resend;
    return this.#writes.hold(items, () =>
      l?.ledger.markPending(
        l.targetId,
        l.runId,
        items.map((i, n) => ({
          key: i.key,
          contentHash: hashOf(i),
          payload: json ? json(n) : JSON.stringify(i.record),
          idempotencyKey,
        })),
        { resend },
      ),
    );
  }
}

/** The items' journal entries, packed as the journal stores them: one allocation per record (journal-entries.ts). */
function packedEntries(items: readonly Item[]): PackedJournalEntry[] {
  return items.map((i) => [i.key, hashOf(i), i.record.conversionCurrency, i.record.conversionValue] as const);
}

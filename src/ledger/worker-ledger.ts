// The ledger on a second thread (issue 14): the run's writes go to a worker with its own connection and run
// there in order, so the main thread keeps reading, checking and sending meanwhile.
import { Worker } from 'node:worker_threads';
import { startWorker } from '../young-generation.js';
import type { JournalDraft } from './journal-draft.js';
import { packJournal } from './journal-entries.js';
import { type JournalSlot, JournalSlots } from './journal-slots.js';
import type { Lease } from './lease.js';
import type { Ledger } from './ledger.js';
import type { Awaitable, LedgerPort } from './ledger-port.js';
import type { HeldLock } from './lock.js';
import type {
  DeliveredAmount,
  DeliveredSpan,
  JournalBody,
  JournalEntries,
  LedgerEntry,
  MarkPendingOptions,
  OutstandingRecord,
  PendingEntry,
  RawSpan,
  SpanLookup,
} from './types.js';

// The writes: the journal row committed with an fsync before each request, settles, merges, the rare
// per-record writes. Lookups go to a second worker with a connection of its own (WAL readers never wait for
// the writer; a lookup queued behind the writer's fsyncs would stall the reading), so the pipeline can read
// the next rows while a chunk is looked up.

type Answer = {
  id: number;
  result?: unknown;
  error?: { name: string; message: string; stack?: string; code?: string };
};

/** One worker thread and the calls it has not answered yet. */
class Thread {
  readonly worker: Worker;
  readonly #waiting = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  #next = 0;
  #failure: Error | undefined;
  /** Settles once the thread runs, or failed to start (its calls then fail: see #fail). */
  readonly started: Promise<void>;
  #online = false;

  constructor(path: string, reader: boolean, lease?: Lease) {
    ({ worker: this.worker, started: this.started } = startWorker(
      () =>
        new Worker(new URL('./ledger-worker.js', import.meta.url), { workerData: { path, reader, lease } }),
    ));
    this.worker.once('online', () => {
      this.#online = true;
    });
    this.worker.on('message', (answer: Answer) => {
      const waiter = this.#waiting.get(answer.id);
      this.#waiting.delete(answer.id);
      if (!answer.error) return waiter?.resolve(answer.result);
      waiter?.reject(Object.assign(new Error(answer.error.message), answer.error));
    });
    // A worker that ends before close (an uncaught error, out of memory) fails every call since: the run
    // stops with what it did recorded (storage-error.ts turns this into exit 4).
    this.worker.on('error', (error) => this.#fail(workerExit(`its worker thread failed: ${error.message}`)));
    this.worker.on('exit', (code) => this.#fail(workerExit(`its worker thread ended (exit code ${code})`)));
  }

  /** Whether the thread came online and has not failed or ended since. */
  get running(): boolean {
    return this.#online && !this.#failure;
  }

  /** `transfer`: ArrayBuffers moved to the worker with the call (detached here). */
  call<T>(method: string, args: unknown[], transfer?: ArrayBuffer[]): Promise<T> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.worker.postMessage({ id, method, args }, transfer);
    });
  }

  /** Answers every call sent before, closes the worker's ledger and ends it. */
  async close(): Promise<void> {
    if (this.#failure) {
      await this.worker.terminate();
      return;
    }
    try {
      await this.call('close', []);
    } catch (error) {
      // A close that failed (the final merge: SQLITE_FULL, SQLITE_BUSY) must not leave the thread running.
      await this.worker.terminate();
      throw error;
    }
    await new Promise<void>((resolve) => {
      if (this.#failure) resolve();
      else this.worker.once('exit', () => resolve());
    });
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const waiter of this.#waiting.values()) waiter.reject(this.#failure);
    this.#waiting.clear();
  }
}

function workerExit(message: string): Error {
  return Object.assign(new Error(message), { name: 'LedgerWorkerExit' });
}

export class WorkerLedger implements LedgerPort {
  readonly #ledger: Ledger;
  readonly #writer: Thread;
  readonly #reader: Thread | undefined;
  readonly #slots = new JournalSlots();
  readonly #lock: Pick<HeldLock, 'lease' | 'handOver'> | undefined;
  /** Starts the lease thread again, once the writer that renewed in its stead ended (lock.ts handOver). */
  #handBack: (() => Promise<void>) | undefined;

  /**
   * `ledger`: the run's open ledger (migrated, holding the lock); the workers open the same file.
   * `lookups`: 'worker' (default) looks up on a second worker; 'main' on `ledger`, on this thread.
   * `lock`: the run lock; the writer checks its lease before each write (a lost lock stops the run there) and, after
   * `renewInWriter`, renews it in the lease thread's stead (lock.ts handOver).
   */
  constructor(
    ledger: Ledger,
    options: { lookups?: 'worker' | 'main'; lock?: Pick<HeldLock, 'lease' | 'handOver'> } = {},
  ) {
    this.#ledger = ledger;
    this.#lock = options.lock;
    this.#writer = new Thread(ledger.path, false, options.lock?.lease);
    this.#reader = options.lookups === 'main' ? undefined : new Thread(ledger.path, true);
  }

  /** Settles once its threads run (or failed to): a run waits for it before its first row (young-generation.ts). */
  async started(): Promise<void> {
    await Promise.all([this.#writer.started, this.#reader?.started]);
  }

  /**
   * Once `started`: a writer that runs renews the lock's lease from then on, and the lease thread ends until the
   * writer has (lock.ts handOver; `close` hands back). A writer that failed to start leaves the lease thread be.
   */
  renewInWriter(): void {
    if (this.#writer.running) this.#handBack ??= this.#lock?.handOver();
  }

  lookup(targetId: number, keys: readonly string[]): Awaitable<Map<string, LedgerEntry>> {
    return this.#reader ? this.#reader.call('lookup', [targetId, keys]) : this.#ledger.lookup(targetId, keys);
  }

  lookupSpan(targetId: number, keys: readonly string[], digest: string): Awaitable<SpanLookup> {
    return this.#reader
      ? this.#reader.call('lookupSpan', [targetId, keys, digest])
      : this.#ledger.lookupSpan(targetId, keys, digest);
  }

  /** The lookups on this thread's ledger (`lookups: 'main'`) hold the key filter they read first (Ledger.lookupsBegin). */
  lookupsBegin(): void {
    if (!this.#reader) this.#ledger.lookupsBegin();
  }

  /** The lookups on this thread's ledger (`lookups: 'main'`) release what they held; a reader thread ends at close. */
  lookupsDone(): void {
    if (!this.#reader) this.#ledger.lookupsDone();
  }

  noteSpans(targetId: number, spans: readonly DeliveredSpan[]): Promise<number> {
    return this.#call('noteSpans', [targetId, spans]);
  }

  lookupRawSpan(targetId: number, digest: string): Awaitable<RawSpan | undefined> {
    return this.#reader
      ? this.#reader.call('lookupRawSpan', [targetId, digest])
      : this.#ledger.lookupRawSpan(targetId, digest);
  }

  rawSpanDigests(targetId: number): Awaitable<string[]> {
    return this.#reader
      ? this.#reader.call('rawSpanDigests', [targetId])
      : this.#ledger.rawSpanDigests(targetId);
  }

  noteRawSpans(targetId: number, spans: readonly RawSpan[]): Promise<number> {
    return this.#call('noteRawSpans', [targetId, spans]);
  }

  journalBatch(
    targetId: number,
    runId: number,
    idempotencyKey: string,
    entries: JournalEntries,
    body: JournalBody,
  ): Promise<number> {
    const slot = this.#slots.fill(bodyBytes(body), packJournal(entries));
    return this.#journalSlot([targetId, runId, idempotencyKey, entries.length, slot]);
  }

  journalDraft(
    targetId: number,
    runId: number,
    idempotencyKey: string,
    draft: JournalDraft,
    body: JournalBody,
  ): Promise<number> {
    const slot = this.#slots.fillDraft(bodyBytes(body), draft.parts());
    return this.#journalSlot([targetId, runId, idempotencyKey, draft.size, slot]);
  }

  /** A journal row in its slot (target, run, idempotency key, records, slot), moved to the writer and back. */
  #journalSlot(args: [number, number, string, number, JournalSlot]): Promise<number> {
    const slot = args[4];
    return this.#writer
      .call<{ id: number; buffer: ArrayBuffer }>('journalSlot', args, [slot.buffer])
      .then(({ id, buffer }) => {
        this.#slots.give(buffer);
        return id;
      });
  }

  settleBatch(batchId: number): Promise<number> {
    return this.#call('settleBatch', [batchId]);
  }

  unjournal(batchId: number): Promise<number> {
    return this.#call('unjournal', [batchId]);
  }

  markPending(
    targetId: number,
    runId: number,
    entries: readonly PendingEntry[],
    options?: MarkPendingOptions,
  ): Promise<number> {
    return this.#call('markPending', [targetId, runId, entries, options]);
  }

  markDelivered(targetId: number, keys: readonly string[], idempotencyKey: string): Promise<number> {
    return this.#call('markDelivered', [targetId, keys, idempotencyKey]);
  }

  markRejected(targetId: number, entries: readonly { key: string; message: string }[]): Promise<number> {
    return this.#call('markRejected', [targetId, entries]);
  }

  markFailed(targetId: number, keys: readonly string[], reason: string): Promise<number> {
    return this.#call('markFailed', [targetId, keys, reason]);
  }

  reprice(targetId: number, key: string, contentHash: string, amount: DeliveredAmount): Promise<number> {
    return this.#call('reprice', [targetId, key, contentHash, amount]);
  }

  /** Read by the worker, after every write sent before it. */
  outstanding(targetId: number, currentRunId: number): Promise<OutstandingRecord[]> {
    return this.#call('outstanding', [targetId, currentRunId]);
  }

  merge(): Promise<number> {
    return this.#call('merge', []);
  }

  /** Waits for every write sent so far, merges (Ledger.close) and ends both workers; the lease thread runs again. */
  async close(): Promise<void> {
    try {
      await Promise.all([this.#writer.close(), this.#reader?.close()]);
    } finally {
      await this.#handBack?.();
    }
  }

  #call<T>(method: string, args: unknown[]): Promise<T> {
    return this.#writer.call(method, args);
  }
}

/** A journaled body as bytes, for its slot (journal-slots.ts): a string posted to the writer cost ~5x its bytes. */
const bodyBytes = (body: JournalBody): Uint8Array =>
  typeof body === 'string' ? Buffer.from(body, 'utf8') : body;

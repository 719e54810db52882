// The ledger on a second thread (issue 14): the run's writes (the journal row committed with an fsync
// before each request, settles, merges, the rare per-record writes) go to a worker with its own
// connection and run there in order, so the main thread keeps reading, checking and sending meanwhile.
// Lookups stay on the main thread's connection: WAL readers never wait for the writer, and a lookup
// queued behind the worker's fsyncs would stall the reading it is part of.
import { Worker } from 'node:worker_threads';
import type { Ledger } from './ledger.js';
import type { LedgerPort } from './ledger-port.js';
import type {
  DeliveredAmount,
  JournalEntry,
  LedgerEntry,
  MarkPendingOptions,
  OutstandingRecord,
  PendingEntry,
} from './types.js';

type Answer = { id: number; result?: unknown; error?: { name: string; message: string; stack?: string } };

export class WorkerLedger implements LedgerPort {
  readonly #reader: Ledger;
  readonly #worker: Worker;
  readonly #waiting = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void }
  >();
  #next = 0;
  #failure: Error | undefined;

  /** `reader`: the main thread's open ledger on the same file, for lookups. */
  constructor(reader: Ledger) {
    this.#reader = reader;
    this.#worker = new Worker(new URL('./ledger-worker.js', import.meta.url), {
      workerData: { path: reader.path },
    });
    this.#worker.on('message', (answer: Answer) => {
      const waiter = this.#waiting.get(answer.id);
      this.#waiting.delete(answer.id);
      if (!answer.error) return waiter?.resolve(answer.result);
      const error = Object.assign(new Error(answer.error.message), answer.error);
      waiter?.reject(error);
    });
    this.#worker.on('error', (error) => this.#fail(error));
    this.#worker.on('exit', () => this.#fail(new Error('the ledger worker stopped')));
  }

  lookup(targetId: number, keys: readonly string[]): Map<string, LedgerEntry> {
    return this.#reader.lookup(targetId, keys);
  }

  journalBatch(
    targetId: number,
    runId: number,
    idempotencyKey: string,
    entries: readonly JournalEntry[],
    body: string,
  ): Promise<number> {
    return this.#call('journalBatch', [targetId, runId, idempotencyKey, entries, body]);
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

  /** Waits for every write sent so far, merges (Ledger.close) and ends the worker. */
  async close(): Promise<void> {
    if (this.#failure) return;
    await this.#call('close', []);
    await new Promise<void>((resolve) => {
      if (this.#failure) resolve();
      else this.#worker.once('exit', () => resolve());
    });
  }

  #call<T>(method: string, args: unknown[]): Promise<T> {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#next++;
    return new Promise<T>((resolve, reject) => {
      this.#waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      this.#worker.postMessage({ id, method, args });
    });
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const waiter of this.#waiting.values()) waiter.reject(this.#failure);
    this.#waiting.clear();
  }
}

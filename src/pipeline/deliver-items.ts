// The deliverer as the pipeline uses it: every outcome of a batch is written to the ledger (pending
// before the request, then delivered, rejected or failed), counted in the summary and reported.
// A batch of new records is one journal row (issue 14), settled whole when delivered; any other outcome
// (rejected, failed, split, partly delivered) moves the row to the ledger's per-record tables first.
// The ledger may answer later (worker-ledger.ts): a batch's pending write is awaited before its request,
// the other writes are tracked and a failed one stops the run, as a throwing write does.
import type { Settings } from '../config/settings.js';
import type { Rejection } from '../report/rejection.js';
import type { Summary, Totals } from '../report/summary.js';
import { checkUrl } from '../transport/client.js';
import { createDeliverer, type Deliverer } from '../transport/deliver.js';
import { chooseProxy } from '../transport/proxy.js';
import type { PipelineHooks } from './hooks.js';
import type { Item, JournalRef } from './item.js';
import type { RunDeps } from './run.js';

export function makeDeliverer(
  settings: Settings,
  deps: RunDeps,
  hooks: PipelineHooks,
  summary: Summary,
  totals: Totals,
  reject: (rejection: Rejection) => void,
  settled: (items: Item[]) => void,
  resend: boolean,
): Deliverer<Item> & { written(): Promise<void> } {
  const ledger = deps.ledger;
  // Writes not answered yet, and the first that failed.
  const inFlight = new Set<Promise<unknown>>();
  let failure: Error | undefined;
  const track = (result: unknown): Promise<void> | undefined => {
    if (!(result instanceof Promise)) return undefined;
    const done = result.then(
      () => undefined,
      (error: unknown) => {
        failure ??= error instanceof Error ? error : new Error(String(error));
        throw failure;
      },
    );
    inFlight.add(done);
    done.then(
      () => inFlight.delete(done),
      () => inFlight.delete(done),
    );
    return done;
  };
  const halt = () => {
    if (failure) throw failure;
  };
  // Items whose batch was written pending (with its Idempotency-Key) before a request went out.
  const written = new WeakSet<Item>();
  /** The journal row holding exactly these items as one body under `idempotencyKey`, if one does. */
  const wholeRow = (items: Item[], idempotencyKey?: string): JournalRef | undefined => {
    const batch = items[0]?.batch;
    if (!batch || batch.moved || batch.size !== items.length) return undefined;
    if (idempotencyKey !== undefined && batch.idempotencyKey !== idempotencyKey) return undefined;
    return items.every((i) => i.batch === batch) ? batch : undefined;
  };
  /** Moves the journal rows of these items to the per-record tables, before a per-record write. */
  const unjournal = (items: Item[]) => {
    for (const item of items) {
      const batch = item.batch;
      if (batch && !batch.moved) {
        batch.moved = true;
        track(ledger?.ledger.unjournal(batch.id));
      }
      if (batch) {
        item.batch = undefined;
        item.perRecord = true;
      }
    }
  };
  const journal = (items: Item[], idempotencyKey: string, json: string[]): Promise<void> | undefined => {
    if (!ledger) return;
    const id = ledger.ledger.journalBatch(
      ledger.targetId,
      ledger.runId,
      idempotencyKey,
      items.map((i) => ({
        key: i.key,
        contentHash: i.contentHash,
        currency: i.record.conversionCurrency,
        value: i.record.conversionValue,
      })),
      `[${json.join(',')}]`,
    );
    // The id is known once the row is written; nothing reads it before (the request waits for the write).
    const batch: JournalRef = { id: -1, idempotencyKey, size: items.length };
    for (const item of items) {
      item.batch = batch;
      written.add(item);
    }
    if (!(id instanceof Promise)) {
      batch.id = id;
      return;
    }
    return track(
      id.then((value) => {
        batch.id = value;
      }),
    );
  };
  // `json`: the records as the deliverer already serialized them for the body (the payload kept for a resend).
  const writePending = (items: Item[], idempotencyKey: string, json?: string[]) => {
    const result = ledger?.ledger.markPending(
      ledger.targetId,
      ledger.runId,
      items.map((i, n) => ({
        key: i.key,
        contentHash: i.contentHash,
        payload: json?.[n] ?? JSON.stringify(i.record),
        idempotencyKey,
      })),
      // Only --resend may turn a delivered record back into pending: the ledger's guard stays on otherwise.
      { resend },
    );
    for (const item of items) written.add(item);
    return track(result);
  };
  // Items that never reached beforeSend (stopped, or the retry budget was spent first) are written now,
  // so that the next run or `revimport retry` finds them. Sent ones keep the key they went out with.
  const writeUnsent = (items: Item[]) => {
    // A journal row resent from an earlier run is written already, with its key; so is a key the ledger
    // tracks record by record (pending or failed): its first body may have reached the server, and
    // rewriting it under no key would make the next resend a new body (test/e2e/resend-abandoned).
    const unsent = items.filter((i) => !written.has(i) && !i.perRecord && !(i.batch && !i.batch.moved));
    if (unsent.length > 0) writePending(unsent, '');
  };
  const serverRejection = (
    item: Item,
    stage: 'rejected' | 'failed',
    reason: string,
    message: string,
    batch: Rejection['batch'],
  ): Rejection => ({
    file: item.file,
    line: item.line,
    stage,
    row: item.row,
    raw: item.row ? undefined : JSON.stringify(item.record),
    issues: [{ column: '(record)', value: item.record.conversionId ?? '', reason, message }],
    batch,
  });
  const url = checkUrl(settings.baseUrl ?? '', settings.allowHttp);
  // Numbers the bodies refused or failed as a whole, so the summary shows one line per body.
  let bodies = 0;
  const deliverer = createDeliverer<Item>({
    url,
    proxy: chooseProxy(url, settings.proxy).url,
    apiKey: settings.apiKey ?? '',
    userAgent: deps.userAgent,
    batchSize: settings.batchSize,
    concurrency: settings.concurrency,
    retries: settings.retries,
    maxRetryTimeMs: settings.maxRetryTimeMs,
    timeoutMs: settings.timeoutMs,
    ratePerSec: settings.ratePerSec,
    baseDelayMs: deps.baseDelayMs,
    now: deps.now,
    hooks: {
      beforeSend(items, idempotencyKey, json) {
        halt();
        // A journal row of an earlier run resent as the same body: durable already.
        if (wholeRow(items, idempotencyKey)) {
          for (const item of items) written.add(item);
          return;
        }
        if (items.every((i) => !i.batch && !i.perRecord)) return journal(items, idempotencyKey, json);
        unjournal(items);
        return writePending(items, idempotencyKey, json);
      },
      onDelivered(items, info) {
        halt();
        const batch = wholeRow(items, info.idempotencyKey);
        if (batch) {
          track(ledger?.ledger.settleBatch(batch.id));
        } else {
          unjournal(items);
          track(
            ledger?.ledger.markDelivered(
              ledger.targetId,
              items.map((i) => i.key),
              info.idempotencyKey,
            ),
          );
        }
        for (const item of items) {
          if (item.reprice) {
            track(
              ledger?.ledger.reprice(
                ledger.targetId,
                item.reprice.key,
                item.reprice.contentHash,
                item.reprice.amount,
              ),
            );
            summary.adjusted++;
          }
        }
        summary.sent += items.length;
        for (const item of items) totals.add(item.record.conversionCurrency, item.record.conversionValue);
        hooks.onDelivered?.(items.length);
        settled(items);
      },
      onRejected(items, info) {
        halt();
        unjournal(items);
        track(
          ledger?.ledger.markRejected(
            ledger.targetId,
            items.map((i) => ({ key: i.key, message: info.message })),
          ),
        );
        summary.rejected += items.length;
        // The transport's message already starts with "HTTP <status>" (serverMessage, classify): adding
        // the status again printed "HTTP 422: HTTP 422: ..." (found by test/e2e/delivery.test.ts).
        const batch = { id: ++bodies, records: items.length };
        for (const item of items) {
          reject(serverRejection(item, 'rejected', 'rejected by server', info.message, batch));
        }
        settled(items);
      },
      onFailed(items, info) {
        writeUnsent(items);
        unjournal(items);
        track(
          ledger?.ledger.markFailed(
            ledger.targetId,
            items.map((i) => i.key),
            info.reason,
          ),
        );
        summary.failed += items.length;
        const batch = { id: ++bodies, records: items.length };
        for (const item of items) {
          reject(
            serverRejection(
              item,
              'failed',
              'delivery failed',
              `${info.reason}; kept for the next run`,
              batch,
            ),
          );
        }
        settled(items);
      },
      onAbandoned(items) {
        // Not delivered before the stop: pending, so `revimport retry` or the next push sends them.
        writeUnsent(items);
        summary.pending += items.length;
        settled(items);
      },
      onRequest: hooks.onRequest,
      onRetry: hooks.onRetry,
    },
  });
  /** Resolves once every ledger write made so far is done; rejects with the first that failed. */
  const settledWrites = async (): Promise<void> => {
    while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    if (failure) throw failure;
  };
  return Object.assign(deliverer, { written: settledWrites });
}

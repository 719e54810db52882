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
import { type Answer, LedgerWrites } from './ledger-writes.js';
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
  type Ledger = NonNullable<RunDeps['ledger']>;
  const ledger = deps.ledger;
  const writes = new LedgerWrites();
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
        if (ledger) writes.attempt(() => ledger.ledger.unjournal(batch.id));
      }
      if (batch) {
        item.batch = undefined;
        item.perRecord = true;
      }
    }
  };
  const journal = (items: Item[], idempotencyKey: string, json: string[]): Answer => {
    if (!ledger) return writes.hold(items, () => undefined);
    // The id is known once the row is written; nothing reads it before (the request waits for the write).
    const batch: JournalRef = { id: -1, idempotencyKey, size: items.length };
    const answer = writes.hold(items, () => {
      const id = ledger.ledger.journalBatch(
        ledger.targetId,
        ledger.runId,
        idempotencyKey,
        // Packed as the journal stores them: one allocation per record (ledger/journal-entries.ts).
        items.map(
          (i) => [i.key, i.contentHash, i.record.conversionCurrency, i.record.conversionValue] as const,
        ),
        `[${json.join(',')}]`,
      );
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
  };
  // `json`: the records as the deliverer already serialized them for the body (the payload kept for a resend).
  const writePending = (items: Item[], idempotencyKey: string, json?: string[]): Answer =>
    writes.hold(items, () =>
      ledger?.ledger.markPending(
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
      ),
    );
  // Items that never reached beforeSend (stopped, or the retry budget was spent first) are written now,
  // so that the next run or `revimport retry` finds them. Sent ones keep the key they went out with.
  const writeUnsent = (items: Item[]) => {
    // A journal row resent from an earlier run is written already, with its key; so is a key the ledger
    // tracks record by record (pending or failed): its first body may have reached the server, and
    // rewriting it under no key would make the next resend a new body (test/e2e/resend-abandoned).
    const unsent = items.filter((i) => !writes.wrote(i) && !i.perRecord && !(i.batch && !i.batch.moved));
    if (unsent.length > 0) writePending(unsent, '');
  };
  /**
   * Records the server answered for, whose answer the ledger could not record: it still holds them
   * outstanding (pending), so the next run sends them again (summary.unrecorded).
   */
  const unrecordedIf = (answer: Answer, items: Item[]) =>
    writes.when(answer, (ok) => {
      if (!ok) summary.unrecorded += items.length;
    });
  /** Not delivered before the stop: pending if the ledger holds them, else not sent (and not pending). */
  const countUnsent = (items: Item[]) => {
    for (const item of items) {
      // A record of an earlier run stays outstanding in the ledger as it was.
      if (item.earlier) {
        summary.retriedPending++;
        continue;
      }
      writes.when(writes.holds(item), (held) => {
        if (held) summary.pending++;
        else summary.notSent++;
      });
    }
  };
  /** How many of `items` are records of earlier runs resent (counted apart from this run's rows). */
  const countEarlier = (items: readonly Item[]) => items.reduce((n, item) => n + (item.earlier ? 1 : 0), 0);
  /** The request waits for its batch to be durable; a failed write (this one or another) stops the run. */
  const thenHalt = (answer: Answer) =>
    answer instanceof Promise ? answer.then(() => writes.halt()) : writes.halt();
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
  const url = checkUrl(settings.baseUrl ?? '', settings.allowHttp, settings.apiKey);
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
        writes.halt();
        // A journal row of an earlier run resent as the same body: durable already.
        if (wholeRow(items, idempotencyKey)) return writes.held(items);
        if (items.every((i) => !i.batch && !i.perRecord))
          return thenHalt(journal(items, idempotencyKey, json));
        unjournal(items);
        return thenHalt(writePending(items, idempotencyKey, json));
      },
      // An answer is counted first and then recorded: after the ledger failed, what the server stored is
      // still `sent` (the summary fell below the receiver's count, test/e2e/ledger-full.test.ts).
      onDelivered(items, info) {
        const earlier = countEarlier(items);
        summary.sent += items.length - earlier;
        summary.retriedSent += earlier;
        for (const item of items) {
          totals.add(item.record.conversionCurrency, item.record.conversionValue);
          if (item.reprice) summary.adjusted++;
        }
        if (items.length > earlier) hooks.onDelivered?.(items.length - earlier);
        if (earlier > 0) hooks.onResentDelivered?.(earlier);
        settled(items);
        if (ledger) unrecordedIf(recordDelivered(ledger, items, info.idempotencyKey), items);
        writes.halt();
      },
      onRejected(items, info) {
        const earlier = countEarlier(items);
        summary.rejected += items.length - earlier;
        summary.retriedRejected += earlier;
        // The transport's message already starts with "HTTP <status>" (serverMessage, classify): adding
        // the status again printed "HTTP 422: HTTP 422: ..." (found by test/e2e/delivery.test.ts).
        const batch = { id: ++bodies, records: items.length };
        for (const item of items) {
          reject(serverRejection(item, 'rejected', 'rejected by server', info.message, batch));
        }
        settled(items);
        unjournal(items);
        if (ledger) {
          const entries = items.map((i) => ({ key: i.key, message: info.message }));
          unrecordedIf(
            writes.attempt(() => ledger.ledger.markRejected(ledger.targetId, entries)),
            items,
          );
        }
        writes.halt();
      },
      onFailed(items, info) {
        const earlier = countEarlier(items);
        summary.failed += items.length - earlier;
        summary.retriedFailed += earlier;
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
        writeUnsent(items);
        unjournal(items);
        const keys = items.map((i) => i.key);
        if (ledger) writes.attempt(() => ledger.ledger.markFailed(ledger.targetId, keys, info.reason));
      },
      onAbandoned(items) {
        // Not delivered before the stop: written pending, so `revimport retry` or the next push sends them.
        // Once the ledger failed they are not written: those it does not hold are counted not sent.
        if (!writes.failed) writeUnsent(items);
        countUnsent(items);
        settled(items);
      },
      onRequest: hooks.onRequest,
      onRetry: hooks.onRetry,
    },
  });
  /** Records a delivery (the batch's journal row settled, or its records marked one by one), then reprices. */
  function recordDelivered(l: Ledger, items: Item[], idempotencyKey: string): Answer {
    const batch = wholeRow(items, idempotencyKey);
    let answer: Answer;
    if (batch) {
      answer = writes.attempt(() => l.ledger.settleBatch(batch.id));
    } else {
      unjournal(items);
      const keys = items.map((i) => i.key);
      answer = writes.attempt(() => l.ledger.markDelivered(l.targetId, keys, idempotencyKey));
    }
    for (const { reprice } of items) {
      if (reprice) {
        writes.attempt(() => l.ledger.reprice(l.targetId, reprice.key, reprice.contentHash, reprice.amount));
      }
    }
    return answer;
  }
  return Object.assign(deliverer, { written: () => writes.settled() });
}

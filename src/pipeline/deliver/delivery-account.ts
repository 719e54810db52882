// The deliverer's hooks as the pipeline answers them: each outcome of a body is counted in the summary,
// reported, and written to the ledger (delivery-ledger.ts), in that order. A failed write stops the run:
// the hook that meets it throws (LedgerWrites.halt), which the deliverer turns into a stop.

import type { ConversionRecord } from '../../record/fields.js';
import type { Rejection } from '../../report/rejection.js';
import type { Summary } from '../../report/summary.js';
import type { DeliveryHooks } from '../../transport/deliver.js';
import type { PipelineHooks } from '../hooks.js';
import type { Item } from '../item.js';
import type { Answer, LedgerWrites } from '../ledger-writes.js';
import { countAnswer, countUnrecorded, countUnsent, serverRejection } from './delivery-counts.js';
import type { DeliveryLedger } from './delivery-ledger.js';

/** What the account reports to and writes in, for one run. */
export interface AccountParts {
  ledger: DeliveryLedger;
  writes: LedgerWrites;
  summary: Summary;
  /** Told each record the receiver accepted: the totals per currency, the report's revenue per day. */
  delivered: (record: ConversionRecord, day?: number) => void;
  hooks: PipelineHooks;
  reject: (rejection: Rejection) => void;
  /** Items whose outcome is final (resend.ts waits for the earlier runs' records). */
  settled: (items: Item[]) => void;
}

export class DeliveryAccount implements DeliveryHooks<Item> {
  readonly #parts: AccountParts;
  /** Numbers the bodies refused or failed as a whole, so the summary shows one line per body. */
  #bodies = 0;
  readonly onRequest: DeliveryHooks<Item>['onRequest'];
  readonly onRetry: DeliveryHooks<Item>['onRetry'];

  constructor(parts: AccountParts) {
    this.#parts = parts;
    this.onRequest = parts.hooks.onRequest;
    this.onRetry = parts.hooks.onRetry;
  }

  /** The request waits for its batch to be durable; a failed write (this one or another) stops the run. */
  beforeSend(
    items: Item[],
    idempotencyKey: string,
    json: (index: number) => string,
    body: Uint8Array,
  ): void | Promise<void> {
    const { writes } = this.#parts;
    writes.halt();
    const answer = this.#parts.ledger.journal(items, idempotencyKey, json, body);
    if (answer === undefined) return;
    return answer instanceof Promise ? answer.then(() => writes.halt()) : writes.halt();
  }

  // An answer is counted first and then recorded: after the ledger failed, what the server stored is
  // still `sent` (the summary fell below the receiver's count, test/e2e/ledger-full.test.ts).
  onDelivered(items: Item[], info: { idempotencyKey: string }): void {
    const { summary, delivered, hooks } = this.#parts;
    const earlier = countAnswer(summary, 'delivered', items);
    for (const item of items) {
      delivered(item.record, item.day);
      if (item.reprice) summary.adjusted++;
    }
    if (items.length > earlier) hooks.onDelivered?.(items.length - earlier);
    if (earlier > 0) hooks.onResentDelivered?.(earlier);
    this.#parts.settled(items);
    const recorded = this.#parts.ledger.delivered(items, info.idempotencyKey);
    this.#unrecordedIf(recorded, items);
    // A span is noted delivered only from deliveries the ledger recorded (delivered-spans.ts).
    if (recorded !== undefined) this.#parts.writes.when(recorded, (ok) => ok && spansDelivered(items));
    this.#parts.writes.halt();
  }

  onRejected(items: Item[], info: { message: string }): void {
    countAnswer(this.#parts.summary, 'rejected', items);
    // The transport's message already starts with "HTTP <status>" (serverMessage, classify): adding
    // the status again printed "HTTP 422: HTTP 422: ..." (found by test/e2e/delivery.test.ts).
    this.#reject(items, 'rejected', 'rejected by server', info.message);
    this.#parts.settled(items);
    this.#unrecordedIf(this.#parts.ledger.rejected(items, info.message), items);
    this.#parts.writes.halt();
  }

  onFailed(items: Item[], info: { reason: string }): void {
    countAnswer(this.#parts.summary, 'failed', items);
    this.#reject(items, 'failed', 'delivery failed', `${info.reason}; kept for the next run`);
    this.#parts.settled(items);
    this.#parts.ledger.failed(items, info.reason);
  }

  // Not delivered before the stop: written pending, so `revimport retry` or the next push sends them.
  // Once the ledger failed they are not written: those it does not hold are counted not sent.
  onAbandoned(items: Item[]): void {
    const { writes } = this.#parts;
    if (!writes.failed) this.#parts.ledger.writeUnsent(items);
    countUnsent(this.#parts.summary, writes, items);
    this.#parts.settled(items);
  }

  #reject(items: Item[], stage: 'rejected' | 'failed', reason: string, message: string): void {
    const batch = { id: ++this.#bodies, records: items.length };
    for (const item of items) this.#parts.reject(serverRejection(item, stage, reason, message, batch));
  }

  #unrecordedIf(answer: Answer | undefined, items: Item[]): void {
    if (answer !== undefined) countUnrecorded(this.#parts.summary, this.#parts.writes, answer, items);
  }
}

function spansDelivered(items: readonly Item[]): void {
  for (const item of items) {
    item.span?.delivered();
    item.rawSpan?.delivered();
  }
}

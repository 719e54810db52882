// Resending what earlier runs left outstanding (failed, or pending after a crash or a stop), before
// any file is read.
import type { ConversionRecord } from '../record/fields.js';
import type { Summary } from '../report/summary.js';
import type { Deliverer } from '../transport/deliver.js';
import type { Item } from './item.js';
import type { RunDeps } from './run.js';

/**
 * The records resendOutstanding handed to the deliverer and not yet settled. The files are read only
 * once they all are: while a resent batch is in flight its records are still `pending` in the ledger,
 * so the file's copy of them was pushed again in a new batch under a new Idempotency-Key, and stored
 * twice after a crash (found by test/e2e/crash.test.ts).
 */
export class Resent {
  readonly #items = new Set<Item>();
  #idle: (() => void) | undefined;

  add(item: Item): void {
    this.#items.add(item);
  }

  settle(items: Item[]): void {
    for (const item of items) this.#items.delete(item);
    if (this.#items.size === 0) this.#idle?.();
  }

  idle(): Promise<void> {
    if (this.#items.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.#idle = resolve;
    });
  }
}

/** Failed and stale pending records of earlier runs go first, in their original batches (same key). */
export async function resendOutstanding(
  ledger: NonNullable<RunDeps['ledger']>,
  deliverer: Deliverer<Item>,
  summary: Summary,
  resent: Resent,
): Promise<void> {
  const outstanding = ledger.ledger.outstanding(ledger.targetId, ledger.runId);
  let group: string | undefined;
  for (const entry of outstanding) {
    if (group !== undefined && entry.idempotencyKey !== group) await deliverer.flush();
    group = entry.idempotencyKey;
    const record = JSON.parse(entry.payload) as ConversionRecord;
    summary.retried++;
    const item: Item = {
      record,
      key: entry.key,
      contentHash: entry.contentHash,
      row: undefined,
      file: '(ledger)',
      line: 0,
    };
    resent.add(item);
    await deliverer.push(item);
  }
  if (outstanding.length > 0) await deliverer.flush();
  await resent.idle();
}

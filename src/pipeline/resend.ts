// Resending what earlier runs left outstanding (failed, or pending after a crash or a stop), before
// any file is read.
import type { ConversionRecord } from '../record/fields.js';
import type { Summary } from '../report/summary.js';
import type { Deliverer } from '../transport/deliver.js';
import type { Item, JournalRef } from './item.js';
import type { RunDeps } from './types.js';

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

/**
 * Failed and stale pending records of earlier runs go first. A group that went out under one
 * Idempotency-Key is resent as exactly that body (whatever --batch-size is now), so a server that
 * honours the key sees a repeat, not new records. Records never sent (no key) are batched as usual.
 */
export async function resendOutstanding(
  ledger: NonNullable<RunDeps['ledger']>,
  deliverer: Deliverer<Item>,
  summary: Summary,
  resent: Resent,
): Promise<void> {
  const outstanding = await ledger.ledger.outstanding(ledger.targetId, ledger.runId);
  let group: Item[] = [];
  let groupKey: string | undefined;
  // Counted as handed on (the deliverer reports each one's outcome, also once the run stopped): an
  // outstanding record the run stopped before is not `retried`, it stays as it was in the ledger.
  const sendGroup = async () => {
    const body = group;
    group = [];
    if (body.length === 0) return;
    summary.retried += body.length;
    await deliverer.pushBody(body);
  };
  let batch: JournalRef | undefined;
  for (const entry of outstanding) {
    const item: Item = {
      record: JSON.parse(entry.payload) as ConversionRecord,
      key: entry.key,
      contentHash: entry.contentHash,
      row: undefined,
      file: '(ledger)',
      line: 0,
      idColumn: 'conversionId',
      earlier: true,
    };
    if (entry.batchId === undefined) {
      item.perRecord = true;
    } else {
      // The records of one journal row share its ref: resent whole, the row itself is settled.
      if (batch?.id !== entry.batchId) {
        batch = { id: entry.batchId, idempotencyKey: entry.idempotencyKey, size: 0 };
      }
      batch.size++;
      item.batch = batch;
    }
    resent.add(item);
    if (!entry.idempotencyKey) {
      summary.retried++;
      await deliverer.push(item);
      continue;
    }
    if (entry.idempotencyKey !== groupKey || group[0]?.batch !== item.batch) await sendGroup();
    groupKey = entry.idempotencyKey;
    group.push(item);
  }
  await sendGroup();
  await deliverer.flush();
  await resent.idle();
  // Lookups read the records table, not the journal: what was just resent must be there before the files'
  // copies of it are looked up, or they would go out again under new keys.
  if (outstanding.length > 0) await ledger.ledger.merge();
}

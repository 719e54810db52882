// A push's delivery as the run sees it: opened before the first file (deliverer, ledger look-up,
// resend of what earlier runs left), closed after the last one, or stopped by a signal or an error.
import type { Settings } from '../config/settings.js';
import { AuthError } from '../errors.js';
import type { Summary } from '../report/summary.js';
import type { Deliverer } from '../transport/deliver.js';
import { makeDeliverer } from './deliver-items.js';
import type { PipelineHooks } from './hooks.js';
import type { Item } from './item.js';
import { knownRecords, type ResendMode } from './known-records.js';
import { LookupQueue } from './lookup-queue.js';
import { Resent, resendOutstanding } from './resend.js';
import type { RunTally } from './run-tally.js';
import type { RunDeps, RunLedger } from './types.js';

/** How long requests in flight may finish after SIGINT/SIGTERM (README: 10 s grace). */
export const ABORT_GRACE_MS = 10_000;

/** The deliverer of a push and the queue that feeds it; a run under --check has none. */
export interface RunDelivery {
  deliverer: Deliverer<Item> & { written(): Promise<void> };
  queue: LookupQueue;
  resent: Resent;
  /** The deliverer's abort once a signal stopped it. */
  stopping: Promise<unknown> | undefined;
}

export function openDelivery(
  settings: Settings,
  resend: ResendMode,
  deps: RunDeps,
  hooks: PipelineHooks,
  tally: RunTally,
): RunDelivery {
  const { summary, reject } = tally;
  const resent = new Resent();
  const settled = (items: Item[]) => resent.settle(items);
  const deliverer = makeDeliverer(
    settings,
    deps,
    hooks,
    summary,
    tally.addDelivered,
    reject,
    settled,
    resend !== false,
  );
  const knownAlready = knownRecords({
    settings,
    resend,
    summary,
    changedDifference: tally.changedDifference,
    deliverer,
    ledger: deps.ledger,
    reject,
    reportKnown: deps.known?.reportKnown ?? false,
  });
  const showRowsRead = () => hooks.onRowRead?.(summary.rowsRead);
  const queue = new LookupQueue({ deliverer, knownAlready, ledger: deps.ledger, showRowsRead });
  return { deliverer, queue, resent, stopping: undefined };
}

/** What earlier runs left outstanding goes first, before any file is read (resend.ts). */
export async function resendEarlier(
  delivery: RunDelivery,
  ledger: RunLedger | undefined,
  summary: Summary,
): Promise<void> {
  if (ledger) await resendOutstanding(ledger, delivery.deliverer, summary, delivery.resent);
}

/**
 * SIGINT/SIGTERM stop the deliverer at once, not when the read loop next looks: otherwise the rest of
 * the look-up chunk in progress (then up to 512 records) was still sent after the signal, with no bound from
 * the grace period (found by test/e2e/crash.test.ts). Pushes after the abort are abandoned, that is
 * written pending for `revimport retry` and the next push. Returns the listener's removal.
 */
export function stopOnSignal(delivery: RunDelivery | undefined, signal: AbortSignal | undefined): () => void {
  const onAbort = () => {
    if (!delivery) return;
    delivery.stopping ??= delivery.deliverer.abort(ABORT_GRACE_MS);
    delivery.stopping.catch(() => undefined);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  return () => signal?.removeEventListener('abort', onAbort);
}

/**
 * After the last file. After a stop the valid rows read but not yet looked up are recorded pending too
 * (the deliverer abandons them), so the summary accounts for every valid row and `revimport retry`
 * sends them. `collect`: RunDeps.collect.
 */
export async function closeDelivery(
  delivery: RunDelivery,
  summary: Summary,
  aborted: boolean,
  collect: RunDeps['collect'],
): Promise<void> {
  const { deliverer, queue } = delivery;
  if (aborted) await (delivery.stopping ?? deliverer.abort(ABORT_GRACE_MS));
  await queue.flush();
  await queue.lookedUp;
  // Every row read and looked up: what that held goes while the last requests are out, before the final merge.
  queue.lookupsDone();
  collect?.(summary.rowsRead);
  const stats = await deliverer.close();
  summary.batches = stats.batches;
  summary.requests = stats.requests;
  await deliverer.written();
  // The spans whose every record ended delivered, once all the run's writes are recorded (a failed one threw).
  await queue.noteSpans();
}

/**
 * Whatever ends the run (a refused key, a later file that cannot be read), the requests in flight
 * finish and are recorded, the rest is written pending: the ledger is closed only after that.
 */
export async function stopDelivery(delivery: RunDelivery, error: unknown, summary: Summary): Promise<void> {
  const { deliverer, queue } = delivery;
  const grace = error instanceof AuthError ? 0 : ABORT_GRACE_MS;
  // Chunks looked up ahead go to the stopping deliverer: abandoned, so written pending.
  const aborted = delivery.stopping ?? deliverer.abort(grace);
  aborted.catch(() => undefined);
  await queue.lookedUp.catch(() => undefined);
  const stats = await aborted.then(
    () => deliverer.stats,
    () => deliverer.stats,
  );
  summary.batches = stats.batches;
  summary.requests = stats.requests;
  await deliverer.written().catch(() => undefined);
}

// The deliverer as the pipeline uses it: every outcome of a batch is written to the ledger (pending
// before the request, then delivered, rejected or failed), counted in the summary and reported
// (deliver/delivery-account.ts). The ledger may answer later (worker-ledger.ts): a batch's pending write
// is awaited before its request, the other writes are tracked and a failed one stops the run.
import type { Settings } from '../config/settings.js';
import type { ConversionRecord } from '../record/fields.js';
import type { Rejection } from '../report/rejection.js';
import type { Summary } from '../report/summary.js';
import { checkUrl } from '../transport/client.js';
import { createDeliverer, type Deliverer } from '../transport/deliver.js';
import { chooseProxy } from '../transport/proxy.js';
import { DeliveryAccount } from './deliver/delivery-account.js';
import { DeliveryLedger } from './deliver/delivery-ledger.js';
import type { PipelineHooks } from './hooks.js';
import type { Item } from './item.js';
import { LedgerWrites } from './ledger-writes.js';
import type { RunDeps } from './types.js';

export function makeDeliverer(
  settings: Settings,
  deps: RunDeps,
  hooks: PipelineHooks,
  summary: Summary,
  delivered: (record: ConversionRecord, day?: number) => void,
  reject: (rejection: Rejection) => void,
  settled: (items: Item[]) => void,
  resend: boolean,
): Deliverer<Item> & { written(): Promise<void> } {
  const writes = new LedgerWrites();
  const ledger = new DeliveryLedger(deps.ledger, writes, resend);
  const account = new DeliveryAccount({ ledger, writes, summary, delivered, hooks, reject, settled });
  const url = checkUrl(settings.baseUrl ?? '', settings.allowHttp, settings.apiKey);
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
    hooks: account,
  });
  return Object.assign(deliverer, { written: () => writes.settled() });
}

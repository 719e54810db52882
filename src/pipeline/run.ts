// Composes the stages: read -> check -> (ledger look-up) -> deliver, and returns the Summary.
// `--check` stops after checking and touches neither the ledger nor the network.
import type { Settings } from '../config/settings.js';
import { AuthError } from '../errors.js';
import { readRows } from '../input/read-rows.js';
import type { SourceRow } from '../input/types.js';
import type { Ledger } from '../ledger/ledger.js';
import { recordIdentity } from '../ledger/record-key.js';
import { minorUnits } from '../record/currency.js';
import type { ConversionRecord } from '../record/fields.js';
import type { Rejection } from '../report/rejection.js';
import type { RejectsWriter } from '../report/rejects.js';
import { ErrorCollector, emptySummary, type Summary, Totals } from '../report/summary.js';
import { checkUrl } from '../transport/client.js';
import { createDeliverer, type Deliverer } from '../transport/deliver.js';
import { type CheckedRow, checkRows, headerMatcher } from './checked-rows.js';
import type { PipelineHooks } from './hooks.js';

export interface RunOptions {
  files: string[];
  check: boolean;
  resend: boolean;
}

export interface RunDeps {
  stdin?: NodeJS.ReadableStream;
  /** Open ledger and the run's id, for push; absent for --check. */
  ledger?: { ledger: Ledger; targetId: number; runId: number };
  rejects?: RejectsWriter;
  userAgent: string;
  now: () => number;
  signal?: AbortSignal;
  /** For tests: backoff base (ms). */
  baseDelayMs?: number;
}

/** What the deliverer carries per record: the wire record and where it came from. */
export interface Item {
  record: ConversionRecord;
  key: string;
  contentHash: string;
  row: SourceRow | undefined;
  file: string;
  line: number;
}

const LOOKUP_CHUNK = 512;
/** How long requests in flight may finish after SIGINT/SIGTERM (README: 10 s grace). */
const ABORT_GRACE_MS = 10_000;

export async function runPipeline(
  settings: Settings,
  options: RunOptions,
  deps: RunDeps,
  hooks: PipelineHooks = {},
): Promise<Summary> {
  const started = deps.now();
  const summary = emptySummary(options.check);
  const errors = new ErrorCollector();
  const validTotals = new Totals(minorUnits);
  const deliveredTotals = new Totals(minorUnits);
  const pendingWrites: Promise<void>[] = [];

  const reject = (rejection: Rejection) => {
    errors.add(rejection);
    hooks.onInvalid?.(rejection);
    const wait = deps.rejects?.write(rejection);
    if (wait) pendingWrites.push(wait);
  };

  const resent = new Resent();
  const deliverer = options.check
    ? undefined
    : makeDeliverer(settings, deps, hooks, summary, deliveredTotals, reject, (items) => resent.settle(items));
  const ledger = deps.ledger;

  let toLookUp: Item[] = [];
  const flushLookups = async () => {
    const items = toLookUp;
    toLookUp = [];
    if (!deliverer || items.length === 0) return;
    const known = ledger
      ? ledger.ledger.lookup(
          ledger.targetId,
          items.map((i) => i.key),
        )
      : new Map();
    for (const item of items) {
      const entry = known.get(item.key);
      if (entry?.state === 'delivered' && !options.resend) {
        if (entry.contentHash === item.contentHash) summary.alreadySent++;
        else {
          summary.changed++;
          reject({
            file: item.file,
            line: item.line,
            stage: 'skipped',
            row: item.row,
            issues: [
              {
                column: 'conversionId',
                value: item.record.conversionId ?? '',
                reason: 'changed since delivered',
                message: `conversionId "${item.record.conversionId}" was delivered before with other content; skipped (use --resend to send it again)`,
              },
            ],
          });
        }
        continue;
      }
      await deliverer.push(item);
    }
  };

  // SIGINT/SIGTERM stop the deliverer at once, not when the read loop next looks: otherwise the rest of
  // the look-up chunk in progress (up to LOOKUP_CHUNK records) was still sent after the signal, with no
  // bound from the grace period (found by test/e2e/crash.test.ts). Pushes after the abort are abandoned,
  // that is written pending for `revimport retry` and the next push.
  let stopping: Promise<unknown> | undefined;
  const onAbort = () => {
    stopping ??= deliverer?.abort(ABORT_GRACE_MS);
    stopping?.catch(() => undefined);
  };
  deps.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    if (deliverer && ledger) await resendOutstanding(ledger, deliverer, summary, resent);

    const isHeader = headerMatcher(settings.mapping);
    for (const file of options.files) {
      if (deps.signal?.aborted) break;
      hooks.onFileStart?.(file);
      const before = summary.rowsRead;
      const rows = readRows(file, {
        format: settings.format,
        delimiter: settings.delimiter,
        encoding: settings.encoding,
        isHeader,
        expectedHeader: isHeader.expected,
        stdin: deps.stdin,
        signal: deps.signal,
        onWarning: (message: string) => hooks.onWarning?.(`${file}: ${message}`),
      });
      const checked = checkRows(rows, {
        mapping: settings.mapping,
        transform: settings.transform,
        timezone: settings.timezone,
        currency: settings.currency,
        allowNegative: settings.allowNegative,
        onPreset: (f, preset) => {
          summary.presets[f] = preset;
          hooks.onPreset?.(f, preset);
        },
      });
      for await (const result of checked as AsyncIterable<CheckedRow>) {
        summary.rowsRead++;
        if (!result.ok) {
          summary.invalid++;
          if (result.duplicate) summary.duplicates++;
          reject(result.rejection);
        } else {
          summary.valid++;
          validTotals.add(result.record.conversionCurrency, result.record.conversionValue);
          if (deliverer) {
            const { key, contentHash } = recordIdentity(result.record);
            const row = result.row;
            toLookUp.push({
              record: result.record,
              key,
              contentHash,
              row,
              file: row.source.file,
              line: row.line,
            });
            if (toLookUp.length >= LOOKUP_CHUNK) await flushLookups();
          }
        }
        if ((summary.rowsRead & 1023) === 0) hooks.onRowRead?.(summary.rowsRead);
        if (pendingWrites.length > 0) await Promise.all(pendingWrites.splice(0));
        if (deps.signal?.aborted) break;
      }
      hooks.onRowRead?.(summary.rowsRead);
      hooks.onFileDone?.(file, summary.rowsRead - before);
    }
    if (deliverer && deps.signal?.aborted) await (stopping ?? deliverer.abort(ABORT_GRACE_MS));
    // After a stop the valid rows read but not yet looked up are recorded pending too (the deliverer
    // abandons them), so the summary accounts for every valid row and `revimport retry` sends them.
    await flushLookups();
    if (deliverer) {
      const stats = await deliverer.close();
      summary.batches = stats.batches;
      summary.requests = stats.requests;
    }
  } catch (error) {
    if (deliverer && error instanceof AuthError) {
      await deliverer.abort(0).catch(() => undefined);
    }
    throw error;
  } finally {
    deps.signal?.removeEventListener('abort', onAbort);
    await Promise.all(pendingWrites);
  }

  summary.totals = options.check ? validTotals.toJSON() : deliveredTotals.toJSON();
  summary.errors = errors.groups();
  summary.durationMs = Math.round(deps.now() - started);
  return summary;
}

function makeDeliverer(
  settings: Settings,
  deps: RunDeps,
  hooks: PipelineHooks,
  summary: Summary,
  totals: Totals,
  reject: (rejection: Rejection) => void,
  settled: (items: Item[]) => void,
): Deliverer<Item> {
  const ledger = deps.ledger;
  // Items whose batch was written pending (with its Idempotency-Key) before a request went out.
  const written = new WeakSet<Item>();
  const writePending = (items: Item[], idempotencyKey: string) => {
    ledger?.ledger.markPending(
      ledger.targetId,
      ledger.runId,
      items.map((i) => ({
        key: i.key,
        contentHash: i.contentHash,
        payload: JSON.stringify(i.record),
        idempotencyKey,
      })),
      { resend: true },
    );
    for (const item of items) written.add(item);
  };
  // Items that never reached beforeSend (stopped, or the retry budget was spent first) are written now,
  // so that the next run or `revimport retry` finds them. Sent ones keep the key they went out with.
  const writeUnsent = (items: Item[]) => {
    const unsent = items.filter((i) => !written.has(i));
    if (unsent.length > 0) writePending(unsent, '');
  };
  const serverRejection = (
    item: Item,
    stage: 'rejected' | 'failed',
    reason: string,
    message: string,
  ): Rejection => ({
    file: item.file,
    line: item.line,
    stage,
    row: item.row,
    issues: [{ column: '(record)', value: item.record.conversionId ?? '', reason, message }],
  });
  return createDeliverer<Item>({
    url: checkUrl(settings.baseUrl ?? '', settings.allowHttp),
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
      beforeSend(items, idempotencyKey) {
        writePending(items, idempotencyKey);
      },
      onDelivered(items, info) {
        ledger?.ledger.markDelivered(
          ledger.targetId,
          items.map((i) => i.key),
          info.idempotencyKey,
        );
        summary.sent += items.length;
        for (const item of items) totals.add(item.record.conversionCurrency, item.record.conversionValue);
        hooks.onDelivered?.(items.length);
        settled(items);
      },
      onRejected(items, info) {
        ledger?.ledger.markRejected(
          ledger.targetId,
          items.map((i) => ({ key: i.key, message: info.message })),
        );
        summary.rejected += items.length;
        // The transport's message already starts with "HTTP <status>" (serverMessage, classify): adding
        // the status again printed "HTTP 422: HTTP 422: ..." (found by test/e2e/delivery.test.ts).
        for (const item of items) {
          reject(serverRejection(item, 'rejected', 'rejected by server', info.message));
        }
        settled(items);
      },
      onFailed(items, info) {
        writeUnsent(items);
        ledger?.ledger.markFailed(
          ledger.targetId,
          items.map((i) => i.key),
          info.reason,
        );
        summary.failed += items.length;
        for (const item of items) {
          reject(serverRejection(item, 'failed', 'delivery failed', `${info.reason}; kept for the next run`));
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
}

/**
 * The records resendOutstanding handed to the deliverer and not yet settled. The files are read only
 * once they all are: while a resent batch is in flight its records are still `pending` in the ledger,
 * so the file's copy of them was pushed again in a new batch under a new Idempotency-Key, and stored
 * twice after a crash (found by test/e2e/crash.test.ts).
 */
class Resent {
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
async function resendOutstanding(
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

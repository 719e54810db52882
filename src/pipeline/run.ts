// Composes the stages: read -> check -> (ledger look-up) -> deliver, and returns the Summary.
// `--check` stops after checking and touches neither the ledger nor the network.
import type { Settings } from '../config/settings.js';
import { AuthError } from '../errors.js';
import { readRows } from '../input/read-rows.js';
import type { SourceInfo } from '../input/types.js';
import { recordIdentity } from '../ledger/record-key.js';
import type { LedgerEntry, ReportedIn } from '../ledger/types.js';
import { minorUnits } from '../record/currency.js';
import type { Rejection } from '../report/rejection.js';
import { ErrorCollector, emptySummary, type Summary, Totals } from '../report/summary.js';
import { createRowChecker, headerMatcher, type RowOutcome } from './checked-rows.js';
import { settleDateOrders } from './date-order.js';
import { makeDeliverer } from './deliver-items.js';
import type { PipelineHooks } from './hooks.js';
import type { Item } from './item.js';
import { knownRecords } from './known-records.js';
import { type OpenedLookup, openLookup } from './lookup-table.js';
import { Resent, resendOutstanding } from './resend.js';
import type { ErrorWithSummary, RunDeps, RunOptions } from './types.js';

export type { ErrorWithSummary, RunDeps, RunOptions } from './types.js';

const LOOKUP_CHUNK = 512;
/** Lookup chunks in flight at most (a ledger on another thread): bounds the items held, ~2,000. */
const LOOKUPS_AHEAD = 4;
/** How long requests in flight may finish after SIGINT/SIGTERM (README: 10 s grace). */
export const ABORT_GRACE_MS = 10_000;

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
  const changedDifference = new Totals(minorUnits);
  const pendingWrites: Promise<void>[] = [];
  /** A warning goes into the summary and is shown as it happens. */
  const warn = (message: string) => {
    summary.warnings.push(message);
    hooks.onWarning?.(message);
  };

  const reject = (rejection: Rejection) => {
    errors.add(rejection);
    hooks.onInvalid?.(rejection);
    const wait = deps.rejects?.write(rejection);
    if (wait) pendingWrites.push(wait);
  };

  const resent = new Resent();
  const deliverer = options.check
    ? undefined
    : makeDeliverer(
        settings,
        deps,
        hooks,
        summary,
        deliveredTotals,
        reject,
        (items) => resent.settle(items),
        options.resend !== false,
      );
  const ledger = deps.ledger;

  let toLookUp: Item[] = [];
  /**
   * Valid records not handed on yet (to the look-up, then the deliverer, or counted already sent or
   * changed). Those a stop leaves here are counted `notSent`: the ledger does not hold them either.
   */
  let waiting = 0;
  // A ledger on other threads answers lookups later: up to LOOKUPS_AHEAD chunks are looked up while the
  // next rows are read, and handled in order. A synchronous ledger's chunk is handled at once.
  let lookedUp: Promise<void> = Promise.resolve();
  let ahead = 0;
  const flushLookups = async () => {
    const items = toLookUp;
    toLookUp = [];
    if (!deliverer || items.length === 0) return;
    // The rows read so far are shown before any of these is delivered: a display updated every 1,024 rows
    // showed more delivered than read (`1024 rows read, 1225 delivered`, issue 20).
    hooks.onRowRead?.(summary.rowsRead);
    const known = ledger
      ? ledger.ledger.lookup(
          ledger.targetId,
          items.map((i) => i.key),
        )
      : new Map<string, LedgerEntry>();
    if (known instanceof Promise) known.catch(() => undefined);
    ahead++;
    lookedUp = lookedUp.then(async () => {
      await handleLookedUp(items, await known);
      ahead--;
    });
    // Observed here so that a failure waits for the next await of `lookedUp` instead of going unhandled.
    lookedUp.catch(() => undefined);
    if (ahead >= LOOKUPS_AHEAD || !(known instanceof Promise)) await lookedUp;
  };
  const knownAlready =
    deliverer &&
    knownRecords({
      settings,
      resend: options.resend,
      summary,
      changedDifference,
      deliverer,
      ledger,
      reject,
      reportKnown: deps.known?.reportKnown ?? false,
    });
  const handleLookedUp = async (items: Item[], known: Map<string, LedgerEntry>) => {
    if (!deliverer || !knownAlready) return;
    for (const item of items) {
      // Handed on now: the deliverer reports every record pushed, also one it refuses after a stop.
      waiting--;
      const entry = known.get(item.key);
      if (entry && (await knownAlready(item, entry))) continue;
      // Known pending or failed: the ledger's per-record tables hold this key, so its batch goes there too.
      if (entry?.state === 'pending' || entry?.state === 'failed') item.perRecord = true;
      await deliverer.push(item);
    }
  };

  // SIGINT/SIGTERM stop the deliverer at once, not when the read loop next looks: otherwise the rest of
  // the look-up chunk in progress (up to LOOKUP_CHUNK records) was still sent after the signal, with no
  // bound from the grace period (found by test/e2e/crash.test.ts). Pushes after the abort are abandoned,
  // that is written pending for `revimport retry` and the next push.
  let stopping: Promise<unknown> | undefined;
  let lookup: OpenedLookup | undefined;
  const onAbort = () => {
    stopping ??= deliverer?.abort(ABORT_GRACE_MS);
    stopping?.catch(() => undefined);
  };
  deps.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    if (deliverer && ledger) await resendOutstanding(ledger, deliverer, summary, resent);

    const isHeader = headerMatcher(settings.mapping);
    lookup = await openLookup(settings.mapping, {
      // The lookup file's encoding is detected on its own: the inputs' --encoding is not its.
      path: settings.lookupPath,
      signal: deps.signal,
      maxFieldBytes: settings.limits.maxRowBytes,
      maxGzipRatio: settings.limits.maxGzipRatio,
    });
    if (lookup && lookup.conflicts > 0) {
      const message =
        `${lookup.file}: ${lookup.conflicts} key(s) of mapping.lookup appear again with other values; ` +
        'the first row of each is used';
      warn(message);
    }
    // One checker for the whole run: a conversionId repeated in a later file is a duplicate too.
    const check = createRowChecker({
      mapping: settings.mapping,
      lookup,
      transform: settings.transform,
      timezone: settings.timezone,
      currency: settings.currency,
      allowNegative: settings.allowNegative,
      refunds: settings.refunds,
      onWarning: warn,
      earliestMs: settings.earliestMs,
      latestMs: (deps.wallClock ?? Date.now)() + settings.futureMs,
      onPreset: (f, preset) => {
        summary.presets[f] = preset;
        hooks.onPreset?.(f, preset);
      },
    });
    /** One outcome of the checker: counted, and a record queued for the ledger look-up and delivery. */
    const take = async (result: Exclude<RowOutcome, 'folded'>) => {
      if ('skipped' in result) {
        summary.skipped++;
        summary.skippedReasons[result.skipped] = (summary.skippedReasons[result.skipped] ?? 0) + 1;
        if (settings.rejectsSkipped && deps.rejects) {
          const wait = deps.rejects.write({
            file: result.row.source.file,
            line: result.row.line,
            stage: 'not revenue',
            row: result.row,
            issues: [
              { column: '(row)', value: '', reason: result.skipped, message: `skipped: ${result.skipped}` },
            ],
          });
          if (wait) pendingWrites.push(wait);
        }
      } else if (!result.ok) {
        summary.invalid++;
        if (result.duplicate) summary.duplicates++;
        const before = deps.known?.reportedBefore(result.rejection);
        if (!before || deps.known?.reportKnown) reject(result.rejection);
        else hooks.onInvalid?.(result.rejection);
        if (before) noteKnownInvalid(summary, before);
      } else {
        summary.valid++;
        validTotals.add(result.record.conversionCurrency, result.record.conversionValue);
        hooks.onValid?.(result.record, result.row.source.file, result.row.line);
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
            idColumn: result.idColumn,
          });
          waiting++;
          if (toLookUp.length >= LOOKUP_CHUNK) await flushLookups();
        }
      }
    };
    let bytesRead = 0;
    const onBytes = (bytes: number) => {
      bytesRead += bytes;
      hooks.onBytesRead?.(bytesRead);
    };
    const sources = new Map<string, SourceInfo>();
    const readOptions = {
      format: settings.format,
      delimiter: settings.delimiter,
      encoding: settings.encoding,
      isHeader,
      expectedHeader: isHeader.expected,
      stdin: deps.stdin,
      signal: deps.signal,
      maxFieldBytes: settings.limits.maxRowBytes,
      maxGzipRatio: settings.limits.maxGzipRatio,
    };
    const open = (file: string) =>
      readRows(file, {
        ...readOptions,
        onWarning: hooks.onWarning,
        onSource: (info) => sources.set(file, info),
        onBytes,
      });
    // Each file's day/month order, from all its rows, before any row of the run is checked or sent.
    const inputs = await settleDateOrders(options.files, {
      open,
      readOnce: (file) => readRows(file, readOptions),
      mapping: settings.mapping,
      lookup,
      useFormats: (file, formats) => check.useDateFormats(file, formats),
      warn,
    });
    for (const file of options.files) {
      if (deps.signal?.aborted) break;
      hooks.onFileStart?.(file);
      const before = summary.rowsRead;
      let sourceRows = 0;
      const rows = inputs.get(file) ?? open(file);
      for await (const row of rows) {
        sourceRows++;
        const result = check(row);
        // Every data row counts as read, a line item folded into its order too (init counts the same); only
        // once checked: a row that ends the run (a file no preset reads) has no outcome to be counted in.
        summary.rowsRead++;
        if ((summary.rowsRead & 1023) === 0) hooks.onRowRead?.(summary.rowsRead);
        if (result === 'folded') {
          summary.folded++;
          continue;
        }
        await take(result);
        if (pendingWrites.length > 0) await Promise.all(pendingWrites.splice(0));
        if (deps.signal?.aborted) break;
      }
      hooks.onRowRead?.(summary.rowsRead);
      const source = sources.get(file);
      if (sourceRows === 0 && !deps.signal?.aborted) {
        // "No conversions today": a successful run of 0 rows, said so in case the export went wrong.
        if (source) check.bindHeader(source);
        const what = source?.header ? 'only a header' : 'the file is empty';
        const message = `${file}: no data rows (${what}): nothing to import from it`;
        warn(message);
      }
      for (const warning of check.drainWarnings()) warn(warning);
      hooks.onFileDone?.(file, summary.rowsRead - before);
    }
    // Conversions summed over the run (mapping.sumBy: a refund may come in a later file than its
    // charge) are complete only now. After a stop they are neither sent nor pending: the next run
    // reads the files again and sums them again.
    // Each sum stands for the first of its rows, counted folded until now.
    if (!deps.signal?.aborted) {
      for (const result of check.flush()) {
        summary.folded--;
        await take(result);
      }
    }
    if (deliverer && deps.signal?.aborted) await (stopping ?? deliverer.abort(ABORT_GRACE_MS));
    // After a stop the valid rows read but not yet looked up are recorded pending too (the deliverer
    // abandons them), so the summary accounts for every valid row and `revimport retry` sends them.
    await flushLookups();
    await lookedUp;
    if (deliverer) {
      const stats = await deliverer.close();
      summary.batches = stats.batches;
      summary.requests = stats.requests;
      await deliverer.written();
    }
  } catch (error) {
    // Whatever ends the run (a refused key, a later file that cannot be read), the requests in flight
    // finish and are recorded, the rest is written pending: the ledger is closed only after that.
    if (deliverer) {
      const grace = error instanceof AuthError ? 0 : ABORT_GRACE_MS;
      // Chunks looked up ahead go to the stopping deliverer: abandoned, so written pending.
      const aborted = stopping ?? deliverer.abort(grace);
      aborted.catch(() => undefined);
      await lookedUp.catch(() => undefined);
      const stats = await aborted.then(
        () => deliverer.stats,
        () => deliverer.stats,
      );
      summary.batches = stats.batches;
      summary.requests = stats.requests;
      await deliverer.written().catch(() => undefined);
    }
    await Promise.all(pendingWrites).catch(() => undefined);
    throw attachSummary(error, finalize());
  } finally {
    lookup?.close();
    deps.signal?.removeEventListener('abort', onAbort);
    await Promise.all(pendingWrites);
  }

  return finalize();

  function finalize(): Summary {
    summary.notSent += waiting;
    waiting = 0;
    summary.totals = options.check ? validTotals.toJSON() : deliveredTotals.toJSON();
    summary.changedDifference = changedDifference.toJSON();
    summary.errors = errors.groups();
    summary.durationMs = Math.round(deps.now() - started);
    return summary;
  }
}

/** A row reported invalid by an earlier run: counted apart, with the earliest run that reported one. */
function noteKnownInvalid(summary: Summary, before: ReportedIn): void {
  summary.knownInvalid++;
  const earliest = summary.knownReportedIn;
  if (earliest && earliest.runId <= before.runId) return;
  summary.knownReportedIn = { runId: before.runId, at: new Date(before.at).toISOString() };
}

function attachSummary(error: unknown, summary: Summary): unknown {
  if (error instanceof Error) (error as Error & ErrorWithSummary).summary = summary;
  return error;
}

// A push's spans of rows already delivered (raw-spans.ts), opened where they can hold: the run's fingerprint, the
// ledger's two calls, and how a span counted known enters the run's counts and its value guard.
import type { Settings } from '../config/settings.js';
import type { LedgerPort } from '../ledger/ledger-port.js';
import type { RawSpan } from '../ledger/types.js';
import { countSkipped } from '../report/summary.js';
import type { RunGuard } from './guard/run-guard.js';
import { type RawSpanBody, RawSpans } from './raw-spans.js';
import type { RunTally } from './run-tally.js';
import { writesSkippedRows } from './take-outcome.js';
import type { RunDeps, RunOptions } from './types.js';

/** A ledger that keeps spans of rows: LedgerPort's two optional calls, both there. */
type RawSpanLedger = Required<Pick<LedgerPort, 'rawSpanDigests' | 'lookupRawSpan' | 'noteRawSpans'>>;

/**
 * The run's spans, or undefined where a span counted known could differ from its rows checked: under --check (no
 * ledger), --resend (every record is sent), a transform or mapping.lookup (a record is not a function of its row
 * alone; sumBy is refused per file: checked-rows.ts fileKey), rows on the row thread, a ledger without spans
 * (PostgreSQL), or `deps.rawSpans` false (REVIMPORT_RAW_SPANS=0).
 */
export function openRawSpans(
  settings: Settings,
  options: RunOptions,
  deps: RunDeps,
  onThread: boolean,
  counts: { tally: RunTally; guard: RunGuard | undefined },
): RawSpans | undefined {
  const port = deps.ledger?.ledger;
  if (!port?.rawSpanDigests || !port.lookupRawSpan || !port.noteRawSpans || deps.rawSpans === false)
    return undefined;
  if (options.check || options.resend !== false || onThread) return undefined;
  if (settings.transform || settings.lookupPath !== undefined) return undefined;
  const ledger = port as RawSpanLedger;
  const targetId = deps.ledger!.targetId;
  const { tally, guard } = counts;
  const steps = {
    digests: () => ledger.rawSpanDigests(targetId),
    lookup: (digest: string) => ledger.lookupRawSpan(targetId, digest),
    note: (spans: readonly RawSpan[]) => ledger.noteRawSpans(targetId, spans),
    countKnown: (rows: number, body: RawSpanBody) =>
      countKnown(tally, guard, body, rows, { row: 0, record: 0, skip: 0, fold: 0 }),
  };
  // Skipped rows written to the rejects file are each checked: a span holds none.
  const countsSkipped = !writesSkippedRows(settings.rejectsSkipped, tally);
  return new RawSpans(runFingerprint(settings, deps.userAgent), steps, countsSkipped);
}

/** Where counting a span's rows is: the next row, record, skipped row and folded row. */
interface CountedTo {
  row: number;
  record: number;
  skip: number;
  fold: number;
}

/**
 * A noted span's rows from `at` on, in order: a skipped row counted skipped by its reason, a folded row folded (a line
 * item of the order above, counted read as check-files.ts counts it), a record counted valid, in the totals, and
 * already sent, or handed to the value guard as the records of checked rows are (held, the decision taken at the same
 * record; already sent once released, not sent if it stops the run). Returns the rows counted: fewer when the guard
 * stopped the run (reading ends there, as after a checked row).
 */
function countKnown(
  tally: RunTally,
  guard: RunGuard | undefined,
  body: RawSpanBody,
  rows: number,
  at: CountedTo,
): number | Promise<number> {
  const summary = tally.summary;
  const { c: currencies, i: currencyOf, v: values, d: days, skips, folded } = body;
  while (at.row < rows) {
    const row = at.row++;
    if (skips !== undefined && skips.at[at.skip] === row) {
      countSkipped(summary, skips.reasons[skips.why[at.skip++]!]!);
      continue;
    }
    if (folded !== undefined && folded[at.fold] === row) {
      at.fold++;
      summary.folded++;
      continue;
    }
    const index = at.record++;
    const currency = currencies[currencyOf[index]!]!;
    summary.valid++;
    tally.validTotals.add(currency, values[index]!);
    const handed = guard ? guard.addKnown(currency, values[index]!, days[index]!) : 'sent';
    if (handed === 'sent') summary.alreadySent++;
    else if (handed === 'due') {
      return guard!
        .flush()
        .then(() => (guard!.signal.aborted ? at.row : countKnown(tally, guard, body, rows, at)));
    }
  }
  return rows;
}

/**
 * Everything of the run that turns a row into a record, beside the file's own part (checked-rows.ts fileKey): the
 * settings the row path reads, revimport's version (in the user agent), the zone and Unicode data of this node, and
 * the machine's zone.
 */
function runFingerprint(settings: Settings, userAgent: string): string {
  const { mapping, timezone, currency, allowNegative, refunds, earliestMs, futureMs, limits } = settings;
  const { format, delimiter, encoding } = settings;
  const { tz, icu, unicode } = process.versions;
  // The machine's zone is in TZ: the start-up sets it from /etc/localtime where it was unset (cli/zone-env.ts).
  return JSON.stringify({
    ...{ userAgent, tz, icu, unicode, TZ: process.env.TZ ?? null },
    ...{
      mapping,
      timezone,
      currency,
      allowNegative,
      refunds,
      earliestMs,
      futureMs,
      limits,
      format,
      delimiter,
      encoding,
    },
  });
}

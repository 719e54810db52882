// A push's spans of rows already delivered (raw-spans.ts), opened where they can hold: the run's fingerprint, the
// ledger's two calls, and how a span counted known enters the run's counts and its value guard.
import type { Settings } from '../config/settings.js';
import type { LedgerPort } from '../ledger/ledger-port.js';
import type { RunGuard } from './guard/run-guard.js';
import { type RawSpanBody, RawSpans } from './raw-spans.js';
import type { RunTally } from './run-tally.js';
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
  return new RawSpans(runFingerprint(settings, deps.userAgent), {
    digests: () => ledger.rawSpanDigests(targetId),
    lookup: (digest) => ledger.lookupRawSpan(targetId, digest),
    note: (spans) => ledger.noteRawSpans(targetId, spans),
    countKnown: (records: number, body: RawSpanBody) => countKnown(tally, guard, records, body, 0),
  });
}

/**
 * A noted span's records from `from` on: counted valid, in the totals, and already sent, or handed to the value guard
 * as the records of checked rows are (held, the decision taken at the same record; already sent once released, not
 * sent if it stops the run). Returns the records counted: fewer when the guard stopped the run (reading ends there,
 * as after a checked row).
 */
function countKnown(
  tally: RunTally,
  guard: RunGuard | undefined,
  records: number,
  body: RawSpanBody,
  from: number,
): number | Promise<number> {
  const summary = tally.summary;
  const { c: currencies, i: currencyOf, v: values, d: days } = body;
  for (let index = from; index < records; index++) {
    const currency = currencies[currencyOf[index]!]!;
    summary.valid++;
    tally.validTotals.add(currency, values[index]!);
    const handed = guard ? guard.addKnown(currency, values[index]!, days[index]!) : 'sent';
    if (handed === 'sent') summary.alreadySent++;
    else if (handed === 'due') {
      const next = index + 1;
      return guard!
        .flush()
        .then(() => (guard!.signal.aborted ? next : countKnown(tally, guard, records, body, next)));
    }
  }
  return records;
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

// The result on stdout: the summary as text, or exactly one JSON object under --json.
import { quote } from '../quote.js';
import { localDay } from '../report/rejects-path.js';
import type { GuardComparison } from '../report/run-report.js';
import type { ErrorExample, Summary } from '../report/summary.js';
import { byCodeUnits } from '../text-order.js';
import { explainCodes } from './system-errors.js';

/** `1 row`, `2 rows`; `counted(1, 'batch', 'batches')`. */
export function counted(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

export interface RenderOptions {
  /** `retry` reads no file: no "0 rows read" line. */
  command?: 'push' | 'retry';
  /** --report-known: rows an earlier run reported were written again (said so in the summary). */
  settings?: { reportKnown?: boolean };
}

/** The --json object: every key always present (zeros, not missing keys). */
export function summaryJson(summary: Summary): Record<string, unknown> {
  const { check, presets, aborted, ...rest } = summary;
  return { ...rest, presets, ...(aborted === undefined ? {} : { aborted }), check };
}

/** `101 rows read, 50 orders (51 line-item rows folded into them)`: init counts rows the same way. */
function rowsRead(summary: Summary): string {
  const read = `${counted(summary.rowsRead, 'row')} read`;
  if (summary.folded === 0) return read;
  const orders = summary.rowsRead - summary.folded;
  return `${read}, ${counted(orders, 'order')} (${counted(summary.folded, 'row')} folded into ${orders === 1 ? 'it' : 'them'})`;
}

function validity(summary: Summary): string {
  const duplicates = summary.duplicates ? ` (${counted(summary.duplicates, 'duplicate')})` : '';
  return `${summary.valid} valid, ${summary.invalid} invalid${duplicates}`;
}

/** What became of this run's valid records: each is counted in one of these. */
function outcomes(summary: Summary): string {
  return (
    `delivered ${summary.sent}, rejected ${summary.rejected}, failed ${summary.failed}, already sent ${summary.alreadySent}` +
    (summary.changed ? `, changed since delivered ${summary.changed}` : '') +
    (summary.adjusted ? `, adjustments ${summary.adjusted}` : '') +
    (Object.keys(summary.changedDifference).length > 0
      ? ` (value change since delivered: ${formatTotals(summary.changedDifference)})`
      : '') +
    (summary.pending ? `, left pending ${summary.pending}` : '') +
    (summary.notSent ? `, not sent ${summary.notSent}` : '')
  );
}

/** What happened to the records of earlier runs resent first. */
function resentLine(summary: Summary): string {
  const parts = [`delivered ${summary.retriedSent}`];
  if (summary.retriedRejected) parts.push(`rejected ${summary.retriedRejected}`);
  if (summary.retriedFailed) parts.push(`failed ${summary.retriedFailed}`);
  if (summary.retriedPending) parts.push(`left pending ${summary.retriedPending}`);
  return `resent from earlier runs ${summary.retried}: ${parts.join(', ')}`;
}

function formatTotals(totals: Record<string, number>): string {
  const entries = Object.entries(totals);
  if (entries.length === 0) return 'none';
  return entries.map(([currency, sum]) => `${currency} ${sum}`).join(', ');
}

export function renderSummary(summary: Summary, options: RenderOptions = {}): string {
  const lines: string[] = [];
  const seconds = (summary.durationMs / 1000).toFixed(1);
  const skipped = summary.skipped
    ? `, ${summary.skipped} skipped (${Object.entries(summary.skippedReasons)
        .sort((a, b) => b[1] - a[1] || byCodeUnits(a[0], b[0]))
        .map(([reason, count]) => `${count} ${reason}`)
        .join(', ')})`
    : '';
  const read = rowsRead(summary);
  if (summary.check) {
    lines.push(`check: ${read}, ${summary.valid} valid, ${summary.invalid} invalid${skipped} (nothing sent)`);
    lines.push(`valid totals: ${formatTotals(summary.totals)}`);
  } else {
    // retry reads no file: no rows of its own, only the records of earlier runs it resends.
    if (options.command !== 'retry') lines.push(`${read}, ${validity(summary)}${skipped}`, outcomes(summary));
    // Apart from this run's rows: a re-run after a failure printed "delivered 5000 ... already sent 5000,
    // resent from earlier runs 5000" for a 5,000-row file (issue 20).
    if (summary.retried || options.command === 'retry') lines.push(resentLine(summary));
    lines.push(...knownLines(summary, options.settings?.reportKnown === true));
    lines.push(
      `${counted(summary.requests, 'request')} in ${counted(summary.batches, 'batch', 'batches')}, ${seconds} s`,
    );
    lines.push(`delivered totals: ${formatTotals(summary.totals)}`);
    // Issue 19: what the ledger could not keep is said, so the counts add up to what it holds.
    if (summary.guard?.verdict === 'stopped') lines.push(...guardLines(summary.guard, summary));
    else if (summary.notSent)
      lines.push(
        `not sent: ${counted(summary.notSent, 'record')} the run stopped before, not in the ledger: ` +
          'the next push of the same files sends them',
      );
    if (summary.unrecorded)
      lines.push(
        `not recorded: ${counted(summary.unrecorded, 'record')} answered by the server, the ledger could not ` +
          'record the answer (it holds them pending): the next run sends them again, same Idempotency-Key',
      );
  }
  if (summary.aborted) lines.push(`not sent: ${summary.aborted}`);
  for (const group of summary.errors) {
    lines.push(`${group.reason}: ${group.count}`);
    for (const e of group.examples) lines.push(`  ${renderExample(e)}`);
    const shown = group.examples.reduce((sum, e) => sum + (e.records ?? 1), 0);
    if (group.count > shown) lines.push(`  … and ${group.count - shown} more`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The value guard's stop (issue 25), in the summary too: under --quiet the warning is not shown, and a cron
 * log must still say why nothing was sent.
 */
function guardLines(guard: GuardComparison, summary: Summary): string[] {
  // Stopped late (a currency never delivered, past the held records): the records before it went on.
  const before = summary.valid - summary.notSent;
  const what =
    before > 0
      ? `the ${counted(before, 'record')} before it went on as usual, ${counted(summary.notSent, 'record')} not sent`
      : `none of its ${counted(summary.valid, 'record')} sent`;
  return [
    ...guard.findings.map((finding) => `value guard: ${finding.message}`),
    `not sent: the value guard stopped the run (exit 6), ${what}: check the values, ` +
      'fix the mapping, or push again with --accept-shift',
  ];
}

/**
 * Problems an earlier run reported (issue 20): said apart, so a cron log shows they are not new and why the
 * run exits 0 for them.
 */
function knownLines(summary: Summary, reportedAgain: boolean): string[] {
  const lines: string[] = [];
  const written = reportedAgain
    ? 'written again (--report-known)'
    : 'not reported again; --report-known to write them';
  if (summary.knownInvalid > 0) {
    const all = summary.knownInvalid === summary.invalid ? 'all ' : `${summary.knownInvalid} of them `;
    const when = summary.knownReportedIn;
    const since = when ? ` on ${localDay(new Date(when.at))} (run ${when.runId})` : '';
    lines.push(`${summary.invalid} invalid, ${all}already reported${since}: ${written}`);
  }
  if (summary.knownRefused > 0) {
    lines.push(
      `${counted(summary.knownRefused, 'record')} refused by the server in an earlier run, unchanged: ` +
        `not sent, ${written}; --resend sends them as they are`,
    );
  }
  return lines;
}

function renderExample(e: ErrorExample): string {
  const where = e.line > 0 ? `${e.file}:${e.line}` : e.file;
  const message = explainCodes(e.message);
  // A whole request body failed or was refused: one line for it, named by its first record.
  if (e.records !== undefined) {
    const first = e.value === '' ? '' : ` (first ${quote(e.value, 200)})`;
    return `batch of ${e.records} records from ${where}${first}: ${message}`;
  }
  // Most messages quote the value already; name it only where they do not.
  const shown = quote(e.value, 200);
  const named = e.value === '' || e.message.includes(e.value) || e.message.includes(shown.slice(1, -1));
  const value = named ? '' : ` ${shown}`;
  return `${where} [${e.column}]${value}: ${message}`;
}

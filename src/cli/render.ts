// The result on stdout: the summary as text, or exactly one JSON object under --json.
import type { Summary } from '../report/summary.js';

/** The --json object: every key always present (zeros, not missing keys). */
export function summaryJson(summary: Summary): Record<string, unknown> {
  const { check, presets, aborted, ...rest } = summary;
  return { ...rest, presets, ...(aborted === undefined ? {} : { aborted }), check };
}

function formatTotals(totals: Record<string, number>): string {
  const entries = Object.entries(totals);
  if (entries.length === 0) return 'none';
  return entries.map(([currency, sum]) => `${currency} ${sum}`).join(', ');
}

export function renderSummary(summary: Summary): string {
  const lines: string[] = [];
  const seconds = (summary.durationMs / 1000).toFixed(1);
  const skipped = summary.skipped
    ? `, ${summary.skipped} skipped (${Object.entries(summary.skippedReasons)
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .map(([reason, count]) => `${count} ${reason}`)
        .join(', ')})`
    : '';
  if (summary.check) {
    lines.push(
      `check: ${summary.rowsRead} rows read, ${summary.valid} valid, ${summary.invalid} invalid${skipped} (nothing sent)`,
    );
    lines.push(`valid totals: ${formatTotals(summary.totals)}`);
  } else {
    lines.push(
      `${summary.rowsRead} rows read, ${summary.valid} valid, ${summary.invalid} invalid` +
        (summary.duplicates ? ` (${summary.duplicates} duplicates)` : '') +
        skipped,
    );
    lines.push(
      `delivered ${summary.sent}, rejected ${summary.rejected}, failed ${summary.failed}, already sent ${summary.alreadySent}` +
        (summary.changed ? `, changed since delivered ${summary.changed}` : '') +
        (summary.adjusted ? `, adjustments ${summary.adjusted}` : '') +
        (Object.keys(summary.changedDifference).length > 0
          ? ` (value change since delivered: ${formatTotals(summary.changedDifference)})`
          : '') +
        (summary.retried ? `, resent from earlier runs ${summary.retried}` : '') +
        (summary.pending ? `, left pending ${summary.pending}` : ''),
    );
    lines.push(`${summary.requests} requests in ${summary.batches} batches, ${seconds} s`);
    lines.push(`delivered totals: ${formatTotals(summary.totals)}`);
  }
  if (summary.aborted) lines.push(`not sent: ${summary.aborted}`);
  for (const group of summary.errors) {
    lines.push(`${group.reason}: ${group.count}`);
    for (const e of group.examples) {
      const where = e.line > 0 ? `${e.file}:${e.line}` : e.file;
      // Most messages quote the value already; name it only where they do not.
      const value = e.value === '' || e.message.includes(e.value) ? '' : ` ${JSON.stringify(e.value)}`;
      lines.push(`  ${where} [${e.column}]${value}: ${e.message}`);
    }
    if (group.count > group.examples.length)
      lines.push(`  … and ${group.count - group.examples.length} more`);
  }
  return `${lines.join('\n')}\n`;
}

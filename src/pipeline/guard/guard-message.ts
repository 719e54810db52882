// What the value guard says when it stops a run (issue 25): each figure found and the history it was
// compared with, the likely causes, and how to go on. Pure: the text is tested as it is printed.
import { groupedNumber } from '../../grouped-number.js';
import type { GuardComparison, GuardFinding } from '../../report/run-report.js';
import { medianRatio } from './compare-values.js';

/** The lines printed when the guard stopped the run before sending `held` records. */
export function stopMessage(comparison: GuardComparison, held: number): string {
  const lines = [
    `value guard: stopped before sending (${groupedNumber(held)} valid records held, none sent): ` +
      `this run does not look like what this target was sent before`,
    ...comparison.findings.map((finding) => `  - ${finding.message}`),
    'likely causes:',
    ...causes(comparison).map((cause) => `  - ${cause}`),
    'check the values (revimport push --check --emit records.jsonl <files> writes what would be sent), fix ' +
      'the mapping, or, if the values are right, run again with --accept-shift',
  ];
  return lines.join('\n');
}

/** The line said when --accept-shift lets such a run through. */
export function acceptedMessage(comparison: GuardComparison): string {
  const found = comparison.findings.map((finding) => finding.message).join('; ');
  return `value guard: sent with --accept-shift although ${found}`;
}

/** The line said when a currency the target never had appears after the held records were sent. */
export function lateStopMessage(finding: GuardFinding, sent: number): string {
  return (
    `value guard: stopped reading: ${finding.message}, after the first ${groupedNumber(sent)} ` +
    `valid records were released; the rest of the run was not sent (check the currency column or default ` +
    `currency; if it is right, run again with --accept-shift)`
  );
}

/** The likely causes of what was found, most specific first, each once. */
function causes(comparison: GuardComparison): string[] {
  const said = new Set<string>();
  for (const finding of comparison.findings) {
    for (const cause of causesOf(finding, comparison)) said.add(cause);
  }
  return [...said];
}

function causesOf(finding: GuardFinding, comparison: GuardComparison): string[] {
  if (finding.kind === 'new-currency') {
    return [
      'a wrong currency column or default currency (--currency, `currency` in the config)',
      "another shop's or account's export pushed to this target",
    ];
  }
  if (finding.kind === 'zero-share') {
    return [
      'refunds, cancelled or unpaid orders sent as revenue (a status column not filtered)',
      'a value column that is empty or 0 for most rows (the wrong column)',
    ];
  }
  const entry = comparison.currencies.find((c) => c.currency === finding.currency);
  const ratio = entry?.history ? medianRatio(entry.run, entry.history) : undefined;
  if (ratio !== undefined && ratio > 1) {
    return [
      'values in minor units (cents) read as units: set `unit: minor` on conversionValue in the mapping',
      'a column of totals over several orders, or of another currency, taken for the value',
    ];
  }
  return [
    'a part-of-total column (shipping, tax, discount or subtotal) mapped as the value instead of the total',
    'values in units where the history was sent in minor units (or `unit: minor` set where it does not belong)',
    'refunds sent as revenue',
  ];
}

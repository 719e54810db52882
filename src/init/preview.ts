// What init shows on stdout: what it read, the guess per field as a table (choice, runner-up, a sample value),
// the sample's totals, the first records as they would be sent (e-mails masked), the review list and notes.
import type { SourceInfo } from '../input/types.js';
import type { Preset } from '../mapping/presets/types.js';
import { escapeControls, quote } from '../quote.js';
import { type ConversionRecord, type RecordField, recordFields } from '../record/fields.js';
import { maskEmail } from '../report/rejection.js';
import type { Tried } from './try-sample.js';
import type { Candidate, FieldGuess, MappingGuess } from './types.js';

/** What the preview is drawn from. */
export interface InitReport {
  sample: string;
  source: SourceInfo;
  preset: Preset | undefined;
  guess: MappingGuess | undefined;
  currency: string | undefined;
  unguessed: readonly RecordField[];
  /** Rows read from the sample. */
  sampled: number;
  tried: Pick<Tried, 'records' | 'skipped' | 'folded'>;
  review: readonly string[];
  notes: readonly string[];
}

/** The preview's lines; `written` is the config file as the user named it. */
export function previewLines(report: InitReport, written: string): string[] {
  const { sample, source, preset, guess, tried, review, notes } = report;
  const { records, skipped } = tried;
  const out: string[] = [
    `read ${sample}: ${source.format}, ${source.encoding}` +
      (source.delimiter ? `, delimiter ${JSON.stringify(source.delimiter)}` : '') +
      (source.headerLine ? `, header on line ${source.headerLine}` : ''),
    preset
      ? `preset: ${preset.name} (${preset.title})`
      : 'no preset matched: mapping guessed from the column names and the cells of the sample',
  ];
  if (guess) out.push('', ...guessTable(guess, report.currency, report.unguessed));
  if (records.length) out.push('', ...sampleTotals(records, report.sampled, tried.folded));
  if (skipped.size) {
    const list = [...skipped].map(([reason, n]) => `${n} ${reason}`).join(', ');
    out.push(
      `${records.length ? '' : '\n'}skipped in the sample, not revenue by the mapping's rules: ${list}`,
    );
  }
  out.push(
    `wrote ${written}`,
    '',
    records.length ? 'first records as they would be sent:' : 'no valid record in the sample yet:',
    // Masked as the error lines mask them: a terminal or a pasted log is no place for addresses.
    ...records.slice(0, 3).map((r) => JSON.stringify(withMaskedEmail(r))),
  );
  if (review.length)
    out.push(
      '',
      'review before a push (init exits 1 until these are settled):',
      ...review.map((m) => `- ${m}`),
    );
  if (notes.length) out.push('', 'notes:', ...notes.map((m) => `- ${m}`));
  return out;
}

/** A candidate as the table and the config's comments name it: its columns and the evidence. */
export function describe(candidate: Candidate | undefined): string {
  if (!candidate) return '-';
  return `${candidate.columns.map((c) => quote(c, 200)).join(' + ')} (${candidate.evidence})`;
}

/** Per field: the choice, the runner-up and a sample value, as a table. */
function guessTable(
  guess: MappingGuess,
  currency: string | undefined,
  unsettled: readonly RecordField[],
): string[] {
  const rows = recordFields.map((field) => {
    const { choice, runnerUp } = guess.fields[field] as FieldGuess;
    const review = guess.fields[field].review !== undefined || unsettled.includes(field);
    const chosen =
      choice !== undefined
        ? describe(choice)
        : field === 'conversionCurrency' && currency
          ? `${currency} (from the value column's header)`
          : 'none found';
    // The sample is a cell: an ESC in it must not act on the terminal (issue 24).
    return [
      field + (review ? ' (review)' : ''),
      chosen,
      describe(runnerUp),
      escapeControls(shownSample(field, choice?.sample)),
    ];
  });
  const table = [['field', 'column', 'runner-up', 'sample'], ...rows];
  const widths = [0, 1, 2].map((i) => Math.min(48, Math.max(...table.map((r) => r[i]!.length))));
  return table.map((r) =>
    r
      .map((cell, i) => (i < 3 ? cell.padEnd(widths[i]!) : cell))
      .join('  ')
      .trimEnd(),
  );
}

/** A field's sample cell as the table shows it: an e-mail masked as the error lines mask it. */
function shownSample(field: RecordField, sample: string | undefined): string {
  if (!sample) return '';
  return field === 'conversionEmail' ? maskEmail(sample) : sample;
}

/** A record as the preview shows it: the e-mail as `j***@example.com`. */
function withMaskedEmail(record: ConversionRecord): ConversionRecord {
  const email = record.conversionEmail;
  return email === undefined ? record : { ...record, conversionEmail: maskEmail(email) };
}

/** The sample's total and value range per currency: a cents column or a shipping column shows here. */
function sampleTotals(records: readonly ConversionRecord[], sampled: number, folded: number): string[] {
  const by = new Map<string, { total: number; min: number; max: number; count: number }>();
  for (const r of records) {
    const t = by.get(r.conversionCurrency) ?? { total: 0, min: Infinity, max: -Infinity, count: 0 };
    t.total += r.conversionValue;
    t.min = Math.min(t.min, r.conversionValue);
    t.max = Math.max(t.max, r.conversionValue);
    t.count++;
    by.set(r.conversionCurrency, t);
  }
  const round = (n: number) => Math.round(n * 100) / 100;
  return [
    // Rows and orders as push counts them: `19 rows read, 15 orders` in both (issue 20).
    `sample totals (${records.length} valid record${records.length === 1 ? '' : 's'} of ${sampled} rows read` +
      `${folded > 0 ? `, ${sampled - folded} order${sampled - folded === 1 ? '' : 's'}` : ''}):`,
    ...[...by].map(
      ([code, t]) =>
        `  ${code} ${round(t.total)} over ${t.count} record${t.count === 1 ? '' : 's'}` +
        (t.count > 1 ? `, each from ${round(t.min)} to ${round(t.max)}` : ''),
    ),
  ];
}

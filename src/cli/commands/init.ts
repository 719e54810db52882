// `revimport init <sample>`: detect encoding, delimiter, header and preset of a sample export, write a
// commented revimport.config.yaml, and show the first records exactly as they would be sent. Without a
// preset every column is scored for every field (guess-mapping.ts); the choice, the runner-up and a
// sample value are shown per field, with the sample's totals, and what needs a look exits 1.
import { accessSync, constants, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FieldSpec, WrittenMapping } from '../../config/schema.js';
import { toYaml, type YamlEntry } from '../../config/write-yaml.js';
import { ConfigError, UnlinkableError, UsageError, WrongReportError } from '../../errors.js';
import { guessDatetimeFormat, undecidedDayMonth } from '../../init/datetime-formats.js';
import { guessMapping } from '../../init/guess-mapping.js';
import type { Candidate, ColumnSample, FieldGuess, MappingGuess } from '../../init/types.js';
import { looksLikeHeader } from '../../input/header-guess.js';
import { readRows } from '../../input/read-rows.js';
import type { SourceRow } from '../../input/types.js';
import { besideConfigFileName } from '../../ledger/paths.js';
import { detectJsonPreset, detectPreset } from '../../mapping/presets/index.js';
import type { Preset } from '../../mapping/presets/types.js';
import { createRowChecker, headerMatcher, type RowOutcome } from '../../pipeline/checked-rows.js';
import { escapeControls, quote } from '../../quote.js';
import { createDatetimeParser } from '../../record/datetime.js';
import { type ConversionRecord, type RecordField, recordFields } from '../../record/fields.js';
import { canonicalZone } from '../../record/zone.js';
import { maskEmail } from '../../report/rejection.js';
import { ExitCode } from '../exit-codes.js';
import type { CommandContext } from '../program.js';
import { describeSystemError } from '../system-errors.js';

const SAMPLE_ROWS = 200;

const fieldComments: Record<RecordField, string> = {
  conversionValue: 'the revenue (a number; decimal comma and grouping are understood)',
  conversionCurrency: 'ISO 4217 code',
  conversionDatetime: 'when the conversion happened',
  conversionTimezone: 'an IANA zone column (optional: else `timezone` below)',
  serviceId: "the tracking script's visitor id",
  conversionId: 'your order reference: re-runs never send the same id twice',
  conversionName: 'the kind of conversion',
  conversionEmail: "the customer's e-mail (links the record when there is no visitor id)",
};

/** A value has a format's shape even when its zone is still to be settled (an ambiguous `EST`, no zone yet, a DST gap). */
const shapeOnly = new Set(['ambiguous time zone', 'missing time zone', 'nonexistent local time']);
const accepts = (format: string, value: string) => {
  const result = createDatetimeParser([format])(value, 'UTC');
  return result.ok || shapeOnly.has(result.reason);
};

export async function initCommand(sample: string, options: Record<string, unknown>, context: CommandContext) {
  const { io } = context;
  const output = path.resolve(io.cwd, String(options.output ?? 'revimport.config.yaml'));
  const file = path.resolve(io.cwd, sample);
  // The sample first: a config in the way is no news when there is nothing to read (issue 20).
  try {
    accessSync(file, constants.R_OK);
  } catch (error) {
    throw new ConfigError(`cannot read ${sample}: ${describeSystemError(error)}`);
  }
  if (existsSync(output) && !options.force) {
    throw new UsageError(`${path.relative(io.cwd, output) || output} exists; use --force to overwrite it`);
  }
  const timezone = typeof options.timezone === 'string' ? canonicalZone(options.timezone) : undefined;
  if (options.timezone !== undefined && !timezone)
    throw new UsageError(`unknown time zone "${options.timezone}"`);

  let rows: SourceRow[] | undefined;
  let preset: Preset | undefined;
  if (options.preset !== false) {
    rows = await sampleRows(file, sample, headerMatcher(undefined)).catch((error: unknown) => {
      if (error instanceof ConfigError) return undefined;
      throw error;
    });
    const first = rows?.find((r) => r.kind !== 'malformed') ?? rows?.[0];
    if (first) {
      const found =
        first.kind === 'json' ? detectJsonPreset(first.value) : detectPreset(first.source.header ?? []);
      preset = found.match;
    }
  }
  let guess: MappingGuess | undefined;
  if (!preset) {
    // The same header search as push's, for a file no preset describes: the first row of column names.
    rows = await sampleRows(file, sample, looksLikeHeader);
    // A short preamble row (`Orders report,Shop: Example`) also reads as names: when the rows below are
    // wider than it, the header is the first row about as wide as they are.
    const width = typicalWidth(rows);
    const named = (cells: readonly string[]) => cells.filter((c) => c.trim() !== '').length;
    if (named(rows[0]?.source.header ?? []) < width * 0.8) {
      rows = await sampleRows(file, sample, (cells) => looksLikeHeader(cells) && named(cells) >= width * 0.8);
    }
    guess = guessMapping(columnSamples(rows), accepts);
  }
  if (!rows || rows.length === 0) throw new ConfigError(`${sample} holds no data rows`);
  const malformed = rows.filter((r): r is SourceRow & { kind: 'malformed' } => r.kind === 'malformed');
  const isJson = rows.some((r) => r.kind === 'json');
  const specs: Partial<Record<RecordField, FieldSpec>> = preset
    ? linkColumns(preset, rows)
    : specsFrom(guess!, isJson);
  const currency =
    guess?.headerCurrency !== undefined && guess.headerCurrency !== '$' ? guess.headerCurrency : undefined;

  const mapping: WrittenMapping = preset
    ? { preset: preset.name, fields: specs, defaults: {} }
    : { fields: specs, defaults: {}, ...policyOf(guess!, isJson) };
  const unguessed = guess
    ? (['conversionValue', 'conversionDatetime', 'conversionCurrency'] as const).filter(
        (field) => !guess.fields[field].choice && !(field === 'conversionCurrency' && currency),
      )
    : [];
  // Without a value and a time column the mapping cannot be tried on the sample yet.
  const sampleRowsToCheck =
    unguessed.includes('conversionValue') || unguessed.includes('conversionDatetime') ? [] : rows;
  let tried = trySample(sampleRowsToCheck, mapping, timezone, currency);
  // A re-saved export (a spreadsheet writes `09/09/2025 23:01`) no longer has the preset's date form:
  // read the sample's own form and propose it over the preset's.
  let resaved: { format: string; swapped: string | undefined } | undefined;
  const invalidTimes = tried.reasons.get('invalid datetime') ?? 0;
  if (preset && specs.conversionDatetime === undefined && invalidTimes * 2 >= sampleRowsToCheck.length) {
    resaved = presetDatetimeFormat(preset, rows);
    if (resaved) {
      specs.conversionDatetime = { format: resaved.format };
      tried = trySample(sampleRowsToCheck, mapping, timezone, currency);
    }
  }
  const { records, reasons, skipped, folded, stop: stopped } = tried;

  // What must be looked at before a push (exit 1), and what is only worth knowing.
  const review: string[] = [];
  const notes: string[] = [];
  if (malformed.length > 0) {
    const first = malformed[0]!;
    (malformed.length === rows.length ? review : notes).push(
      `${malformed.length} of the ${rows.length} sample rows cannot be read: line ${first.line}: ${first.message}`,
    );
  }
  if (preset) notes.push(...preset.notes);
  if (guess) {
    for (const field of recordFields) {
      const note = guess.fields[field].review;
      if (field === 'conversionValue' && guess.fields.conversionValue.unitUndecided)
        review.push(
          unitQuestion(guess, { rows: sampleRowsToCheck, mapping, timezone, currency, isJson, records }),
        );
      else if (note) review.push(`${field}: ${note}`);
    }
    const id = guess.fields.conversionId;
    if (id.runnerUp?.repeats && id.choice && !id.choice.repeats)
      notes.push(
        `conversionId: "${id.runnerUp.columns[0]}" repeats in the sample (${id.runnerUp.repeats}): init chose "${id.choice.columns[0]}", unique in the sample`,
      );
    if (guess.status) {
      const { column, keep, notRevenue } = guess.status;
      const seen = notRevenue.map(([value, n]) => `${value} (${n})`).join(', ');
      review.push(
        keep.length > 0
          ? `"${column}" holds ${seen} in the sample: money not received is not revenue, so init keeps only rows whose ${column} is ${keep.join(' or ')} (mapping.keep); check that list`
          : `"${column}" holds only ${seen} in the sample: money not received is not revenue; add mapping.keep: [{ column: "${column}", in: [<the values meaning paid>] }]`,
      );
    }
    const value = guess.fields.conversionValue.choice;
    if (value?.unit === 'minor' && !value.unitEvidence) {
      review.push(
        `conversionValue: "${value.columns[0]}" is read as integer cents (unit: minor, from its name): check the sample totals`,
      );
    }
    const datetime = guess.fields.conversionDatetime.choice;
    if (datetime && guess.fields.conversionDatetime.dateOnly) {
      notes.push(
        `conversionDatetime: "${datetime.columns.join(' + ')}" holds dates without times: each conversion is sent at local midnight`,
      );
    }
    // A name written twice in the header: the mapping reads the first of them only.
    const header = rows.find((r) => r.kind === 'csv')?.source.header ?? [];
    for (const field of recordFields) {
      for (const column of guess.fields[field].choice?.columns ?? []) {
        if (header.filter((name) => name.trim() === column).length > 1)
          review.push(`${field}: the header has two columns named "${column}"; the mapping reads the first`);
      }
    }
    if (guess.kinds) {
      const { column, values } = guess.kinds;
      const shown = values.slice(0, 8).join(', ') + (values.length > 8 ? ', ...' : '');
      review.push(
        `"${column}" holds ${values.length} kinds of rows (${shown}): every kind is sent as revenue; keep only the sales: mapping.keep: [{ column: "${column}", in: [...] }]`,
      );
    }
    if (guess.refunded) {
      notes.push(`"${guess.refunded}" is taken off the value (mapping.refunded; refunds: net, the default)`);
    }
    for (const field of unguessed) {
      if (guess.fields[field].review) continue;
      const ruled = guess.fields[field].ruledOut;
      review.push(
        `no column found for ${field}: set mapping.fields.${field} to the column that holds it` +
          (ruled.length ? ` (ruled out: ${ruled.slice(0, 3).join('; ')})` : '') +
          (field === 'conversionCurrency' ? ', or `currency` to the one currency of the export' : ''),
      );
    }
    if (guess.headerCurrency === '$')
      review.push(
        'the value column names "$", which several currencies use: set `currency` (USD, CAD, AUD...)',
      );
  }
  const link = preset ? preset.mapping.fields : specs;
  const linked = link?.serviceId || link?.conversionEmail || specs.serviceId || specs.conversionEmail;
  if (resaved) {
    const undecided = resaved.swapped ? ` (or "${resaved.swapped}": no day in the sample is above 12)` : '';
    review.push(
      `conversionDatetime: the dates are not in the form the ${preset!.name} preset reads (a re-saved export?): init set format "${resaved.format}"${undecided}, the form of the sample; check day and month order`,
    );
  }
  if (stopped) review.push(stopped.hint ? `${stopped.message}; ${stopped.hint}` : stopped.message);
  // An UnlinkableError has said what links a record; other stops leave that still to say.
  if (!linked && !(stopped instanceof UnlinkableError)) {
    review.push(
      'no visitor id and no e-mail column: set mapping.fields.serviceId or mapping.fields.conversionEmail',
    );
  } else if (!preset && !specs.serviceId && specs.conversionEmail) {
    notes.push(
      'no visitor id column: records are linked by e-mail; if the export has the tracking script visitor id, set mapping.fields.serviceId to its column',
    );
  }
  const ambiguous = reasons.get('ambiguous time zone');
  if (ambiguous !== undefined) {
    (ambiguous === sampleRowsToCheck.length ? review : notes).push(
      'the zone abbreviations (EST, PST, CST...) have several meanings: set `timezone` to the zone the export was written in (or rerun init with --timezone), or mapping.zoneAbbreviations: default',
    );
  }
  if (reasons.has('missing time zone')) {
    review.push(
      'times carry no zone: set `timezone` (an IANA name such as Europe/Berlin) or rerun init with --timezone',
    );
  }
  for (const [reason, count] of reasons) {
    if (reason === 'missing time zone' || reason === 'ambiguous time zone') continue;
    const line = `${count} of the ${rows.length} sample rows: ${reason}`;
    // Every row refused for one reason, or no row valid at all, is a mapping problem, not a few bad rows.
    if (count === sampleRowsToCheck.length || records.length === 0 || reason === 'missing currency')
      review.push(line);
    else notes.push(line);
  }

  const source = rows[0]!.source;
  writeFileSync(output, configYaml(sample, source, preset, guess, specs, timezone, currency, review), {
    mode: 0o600,
  });

  const out: string[] = [
    `read ${sample}: ${source.format}, ${source.encoding}` +
      (source.delimiter ? `, delimiter ${JSON.stringify(source.delimiter)}` : '') +
      (source.headerLine ? `, header on line ${source.headerLine}` : ''),
    preset
      ? `preset: ${preset.name} (${preset.title})`
      : 'no preset matched: mapping guessed from the column names and the cells of the sample',
  ];
  if (guess) out.push('', ...guessTable(guess, currency, unguessed));
  if (records.length) out.push('', ...sampleTotals(records, rows.length, folded));
  if (skipped.size) {
    const list = [...skipped].map(([reason, n]) => `${n} ${reason}`).join(', ');
    out.push(
      `${records.length ? '' : '\n'}skipped in the sample, not revenue by the mapping's rules: ${list}`,
    );
  }
  out.push(
    `wrote ${path.relative(io.cwd, output) || output}`,
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
  io.stdout.write(`${out.join('\n')}\n`);
  return review.length ? ExitCode.partial : ExitCode.ok;
}

/** What trying the sample again with another reading of the value needs. */
interface SampleRun {
  rows: readonly SourceRow[];
  mapping: WrittenMapping;
  timezone: string | undefined;
  currency: string | undefined;
  isJson: boolean;
  /** The records of the config as written (the value read as units). */
  records: readonly ConversionRecord[];
}

/** Whole numbers that read either way: the column and the sample's total under each reading (issue 21). */
function unitQuestion(guess: MappingGuess, run: SampleRun): string {
  const choice = guess.fields.conversionValue.choice!;
  const minor = specOf({ ...choice, unit: 'minor' }, run.isJson);
  const asMinor = trySample(
    run.rows,
    { ...run.mapping, fields: { ...run.mapping.fields, conversionValue: minor } },
    run.timezone,
    run.currency,
  ).records;
  return (
    `conversionValue: "${choice.columns[0]}" holds whole numbers the sample cannot tell apart: as units (the config as written) ` +
    `the sample totals ${totalsText(run.records)}; as minor units (unit: minor, cents) ${totalsText(asMinor)}; ` +
    'if they are cents, set mapping.fields.conversionValue to { column, unit: minor }'
  );
}

/** `USD 17640, EUR 12` : the sample's total per currency, as sampleTotals rounds it. */
function totalsText(records: readonly ConversionRecord[]): string {
  const by = new Map<string, number>();
  for (const r of records)
    by.set(r.conversionCurrency, (by.get(r.conversionCurrency) ?? 0) + r.conversionValue);
  if (by.size === 0) return 'nothing (no valid record)';
  return [...by].map(([code, total]) => `${code} ${Math.round(total * 100) / 100}`).join(', ');
}

interface Tried {
  records: ConversionRecord[];
  reasons: Map<string, number>;
  /** Rows that are not revenue by the mapping's rules (a pending order), by reason. */
  skipped: Map<string, number>;
  /** Rows folded into another row's order (line items: foldBy; rows summed by sumBy). */
  folded: number;
  /** A run with this config would stop before any row (nothing to attribute by, a column the file lacks). */
  stop?: ConfigError;
}

/** The sample through the same checks as a push: its valid records, and the count of each refusal reason. */
function trySample(
  rows: readonly SourceRow[],
  mapping: WrittenMapping,
  timezone: string | undefined,
  currency: string | undefined,
): Tried {
  const tried: Tried = { records: [], reasons: new Map(), skipped: new Map(), folded: 0 };
  const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
  const take = (outcome: RowOutcome) => {
    if (outcome === 'folded') {
      tried.folded++;
      return;
    }
    if ('skipped' in outcome) count(tried.skipped, outcome.skipped);
    else if (outcome.ok) tried.records.push(outcome.record);
    else for (const issue of outcome.rejection.issues) count(tried.reasons, issue.reason);
  };
  try {
    const check = createRowChecker({
      mapping,
      transform: undefined,
      timezone,
      currency,
      allowNegative: false,
    });
    for (const row of rows) take(check(row));
    // Each sum stands for the first of its rows, counted folded until now (as push counts them).
    for (const outcome of check.flush()) {
      tried.folded--;
      take(outcome);
    }
  } catch (error) {
    // Another report than the export it looks like: there is nothing to configure (exit 2).
    if (!(error instanceof ConfigError) || error instanceof WrongReportError) throw error;
    tried.stop = error;
  }
  return tried;
}

/**
 * The datetime format the sample's cells have in the columns the preset reads the datetime from, and the
 * day-month swap of it when the sample cannot tell them apart.
 */
function presetDatetimeFormat(
  preset: Preset,
  rows: readonly SourceRow[],
): { format: string; swapped: string | undefined } | undefined {
  const spec = preset.mapping.fields?.conversionDatetime;
  if (spec === undefined) return undefined;
  const names =
    typeof spec === 'string'
      ? [spec]
      : (spec.columns ?? (spec.column === undefined ? [] : [spec.column].flat()));
  const columns = columnSamples(rows);
  const cells = columns.filter((c) => names.includes(c.name)).flatMap((c) => c.cells);
  const format = guessDatetimeFormat(cells, accepts);
  if (format === undefined || format === 'iso' || format === 'epoch') return undefined;
  return { format, swapped: undecidedDayMonth(format, cells, accepts) };
}

/** The most common number of cells of the sample's CSV rows (0 for JSON lines). */
function typicalWidth(rows: readonly SourceRow[]): number {
  const counts = new Map<number, number>();
  for (const row of rows.slice(0, 50)) {
    if (row.kind === 'csv') counts.set(row.cells.length, (counts.get(row.cells.length) ?? 0) + 1);
  }
  let best = 0;
  let bestCount = 0;
  for (const [width, count] of counts) {
    if (count > bestCount) {
      best = width;
      bestCount = count;
    }
  }
  return best;
}

async function sampleRows(
  file: string,
  display: string,
  isHeader: ((cells: string[]) => boolean) | undefined,
): Promise<SourceRow[]> {
  const rows: SourceRow[] = [];
  for await (const row of readRows(file, { isHeader })) {
    row.source.file = display;
    rows.push(row);
    if (rows.length >= SAMPLE_ROWS) break;
  }
  return rows;
}

/** The sample as columns: CSV by header position, JSON lines by dotted path to each scalar. */
export function columnSamples(rows: readonly SourceRow[]): ColumnSample[] {
  // A report footer (`Totals`, eBay's `4,record(s) downloaded`) is no sample of a column's cells.
  const data = rows.filter((r) => r.kind !== 'malformed' && !(r.kind === 'csv' && r.footer));
  const names: string[] = [];
  const seen = new Set<string>();
  const add = (name: string) => {
    if (!seen.has(name)) {
      seen.add(name);
      names.push(name);
    }
  };
  const header = data.find((r) => r.kind === 'csv')?.source.header ?? [];
  // A name's first position, from one pass: `header.indexOf` per name made a 100,000-column header cost
  // 5 billion comparisons (issue 24).
  const position = new Map<string, number>();
  header.forEach((name, i) => {
    if (!position.has(name)) position.set(name, i);
  });
  for (const name of header) if (name !== '') add(name);
  const flat = data.map((row) => (row.kind === 'json' ? flatten(row.value) : undefined));
  for (const values of flat) if (values) for (const name of values.keys()) add(name);
  return names.map((name) => {
    const index = position.get(name) ?? -1;
    const cells = data.map((row, i) => {
      if (row.kind === 'csv') return (index >= 0 ? row.cells[index] : undefined)?.trim() ?? '';
      return flat[i]?.get(name) ?? '';
    });
    return { name, cells };
  });
}

/** How deep init looks into a JSON line for columns: no export nests its fields further. */
const FLATTEN_DEPTH = 16;

/** Scalars by dotted path, at most FLATTEN_DEPTH levels down: a line nested 5,000 deep must not overflow the stack (issue 24). */
function flatten(value: Record<string, unknown>, prefix = '', out = new Map<string, string>(), depth = 0) {
  for (const [key, inner] of Object.entries(value)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (inner !== null && typeof inner === 'object' && !Array.isArray(inner)) {
      if (depth + 1 < FLATTEN_DEPTH) flatten(inner as Record<string, unknown>, name, out, depth + 1);
    } else if (typeof inner === 'string' || typeof inner === 'number') out.set(name, String(inner).trim());
  }
  return out;
}

/** The revenue policy a guess proposes: keep rows of a received status, take refunds off. */
function policyOf(guess: MappingGuess, isJson: boolean): Pick<WrittenMapping, 'keep' | 'refunded'> {
  const source = (column: string) => (isJson ? { path: column } : { column });
  return {
    ...(guess.status?.keep.length
      ? { keep: [{ ...source(guess.status.column), in: guess.status.keep }] }
      : {}),
    ...(guess.refunded ? { refunded: isJson ? { path: guess.refunded } : guess.refunded } : {}),
  };
}

/** The mapping a guess proposes: a column name, or an object with format, decimal, scale or joined columns. */
function specsFrom(guess: MappingGuess, isJson: boolean): Partial<Record<RecordField, FieldSpec>> {
  const specs: Partial<Record<RecordField, FieldSpec>> = {};
  for (const field of recordFields) {
    const choice = guess.fields[field].choice;
    if (choice) specs[field] = specOf(choice, isJson);
  }
  return specs;
}

function specOf(candidate: Candidate, isJson: boolean): FieldSpec {
  const [column] = candidate.columns as [string, ...string[]];
  const extra = {
    ...(candidate.format && candidate.format !== 'iso' && candidate.format !== 'epoch'
      ? { format: candidate.format }
      : {}),
    ...(candidate.timezone ? { timezone: candidate.timezone } : {}),
    ...(candidate.decimal ? { decimal: candidate.decimal } : {}),
    ...(candidate.scale ? { scale: candidate.scale } : {}),
    ...(candidate.unit ? { unit: candidate.unit } : {}),
  };
  if (candidate.columns.length > 1) return { columns: candidate.columns, ...extra };
  if (Object.keys(extra).length === 0) return column;
  return isJson ? { path: column, ...extra } : { column, ...extra };
}

function describe(candidate: Candidate | undefined): string {
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

/**
 * A preset never invents a visitor id; but where the user added a visitor-id or e-mail column to the
 * export (a common practice with ad-platform templates), init proposes it for the field the preset leaves open.
 */
function linkColumns(preset: Preset, rows: readonly SourceRow[]): Partial<Record<RecordField, FieldSpec>> {
  if (!rows.some((r) => r.kind === 'csv')) return {};
  const guess = guessMapping(columnSamples(rows), accepts);
  const links: Partial<Record<RecordField, FieldSpec>> = {};
  for (const field of ['serviceId', 'conversionEmail'] as const) {
    const column = guess.fields[field].choice?.columns[0];
    if (preset.mapping.fields?.[field] === undefined && column !== undefined) links[field] = column;
  }
  return links;
}

function configYaml(
  sample: string,
  source: SourceRow['source'],
  preset: Preset | undefined,
  guess: MappingGuess | undefined,
  specs: Partial<Record<RecordField, FieldSpec>>,
  timezone: string | undefined,
  currency: string | undefined,
  review: readonly string[],
): string {
  const mappingChildren: YamlEntry[] = [];
  const fieldEntry = (field: RecordField): YamlEntry => {
    const spec = specs[field];
    const fieldGuess = guess?.fields[field];
    const comment = [
      fieldComments[field] + (preset && spec !== undefined ? ' (a column the preset does not map)' : ''),
      ...(fieldGuess?.choice ? [`init chose ${describe(fieldGuess.choice)}`] : []),
      ...(fieldGuess?.review ? [`>> review: ${fieldGuess.review}`] : []),
      ...(spec === undefined && !preset && !fieldGuess?.runnerUp ? ['no column found'] : []),
    ].join('\n');
    if (spec !== undefined) return { key: field, value: spec, comment };
    const runnerUp = fieldGuess?.runnerUp;
    if (runnerUp)
      return {
        key: field,
        suggestion: specOf(runnerUp, false),
        comment: `${comment}\nrunner-up, to use it remove the "# ": ${describe(runnerUp)}`,
      };
    return { key: field, comment };
  };
  if (preset) {
    mappingChildren.push({ key: 'preset', value: preset.name, comment: preset.title });
    mappingChildren.push({
      key: 'fields',
      comment: 'override the preset field by field, e.g. serviceId: "Visitor ID"',
      children: (Object.keys(specs) as RecordField[]).map(fieldEntry),
    });
  } else {
    mappingChildren.push({ key: 'fields', children: recordFields.map(fieldEntry) });
    const policy = policyOf(guess!, source.format === 'jsonl');
    if (policy.keep) {
      mappingChildren.push({
        key: 'keep',
        value: policy.keep,
        comment: `only rows whose ${guess!.status!.column} means money received are revenue; the others are skipped`,
      });
    }
    if (policy.refunded) {
      mappingChildren.push({
        key: 'refunded',
        value: policy.refunded,
        comment: 'the amount refunded, taken off the value',
      });
    }
  }
  const header = [
    `written by revimport init from ${sample} (${source.format}, ${source.encoding}` +
      (source.headerLine ? `, header on line ${source.headerLine})` : ')'),
    ...(review.length ? ['>> review before a push:', ...review.map((r) => `>> - ${r}`)] : []),
    'the CRM; or set REVIMPORT_BASE_URL',
  ].join('\n');
  const entries: YamlEntry[] = [
    { key: 'baseUrl', suggestion: 'https://crm.example.com', comment: header },
    {
      key: 'apiKeyFile',
      suggestion: 'revimport.key',
      comment: 'a file holding the API key (chmod 600); or set REVIMPORT_API_KEY',
    },
    {
      key: 'state',
      value: besideConfigFileName,
      comment: [
        'the ledger of what was delivered where (SQLite), relative to this file: whoever runs this config,',
        'by hand or from cron under another user or HOME, uses this one ledger, so nothing is sent twice.',
        'Keep it (back it up, keep it out of version control); a postgres:// URL shares it between hosts',
      ].join('\n'),
    },
    { key: 'mapping', children: mappingChildren },
    {
      key: 'timezone',
      ...(timezone ? { value: timezone } : { suggestion: 'Europe/Berlin' }),
      comment: 'the zone of local times that carry none (IANA name)',
    },
  ];
  if (currency || (guess && !guess.fields.conversionCurrency.choice)) {
    entries.push({
      key: 'currency',
      ...(currency ? { value: currency } : { suggestion: 'USD' }),
      comment: currency
        ? "the currency of every value: the value column's header names it"
        : 'the currency of every value, when the export has no currency column',
    });
  }
  return toYaml(entries);
}

// `revimport init <sample>`: detect encoding, delimiter, header and preset of a sample export, write a
// commented revimport.config.yaml, and show the first records exactly as they would be sent.
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FieldSpec, WrittenMapping } from '../../config/schema.js';
import { toYaml, type YamlEntry } from '../../config/write-yaml.js';
import { ConfigError, UnlinkableError, UsageError } from '../../errors.js';
import { readRows } from '../../input/read-rows.js';
import type { SourceRow } from '../../input/types.js';
import { guessDatetimeFormat, guessDecimal, guessFields } from '../../mapping/guess-mapping.js';
import { detectJsonPreset, detectPreset } from '../../mapping/presets/index.js';
import type { Preset } from '../../mapping/presets/types.js';
import { checkRows, headerMatcher } from '../../pipeline/checked-rows.js';
import { createDatetimeParser } from '../../record/datetime.js';
import type { ConversionRecord, RecordField } from '../../record/fields.js';
import { canonicalZone } from '../../record/zone.js';
import { ExitCode } from '../exit-codes.js';
import type { CommandContext } from '../program.js';

const SAMPLE_ROWS = 200;

export async function initCommand(sample: string, options: Record<string, unknown>, context: CommandContext) {
  const { io } = context;
  const output = path.resolve(io.cwd, String(options.output ?? 'revimport.config.yaml'));
  if (existsSync(output) && !options.force) {
    throw new UsageError(`${path.relative(io.cwd, output) || output} exists; use --force to overwrite it`);
  }
  const timezone = typeof options.timezone === 'string' ? canonicalZone(options.timezone) : undefined;
  if (options.timezone !== undefined && !timezone)
    throw new UsageError(`unknown time zone "${options.timezone}"`);
  const file = path.resolve(io.cwd, sample);

  let rows = await sampleRows(file, sample, headerMatcher(undefined)).catch((error: unknown) => {
    if (error instanceof ConfigError) return undefined;
    throw error;
  });
  let preset: Preset | undefined;
  let fields: Partial<Record<RecordField, string>> = {};
  if (rows?.[0]) {
    const first = rows.find((r) => r.kind !== 'malformed') ?? rows[0];
    const found =
      first.kind === 'json' ? detectJsonPreset(first.value) : detectPreset(first.source.header ?? []);
    preset = found.match;
  }
  if (!preset) {
    rows = await sampleRows(file, sample, undefined);
    const first = rows.find((r) => r.kind !== 'malformed');
    const header = first?.kind === 'json' ? Object.keys(first.value) : (first?.source.header ?? []);
    fields = guessFields(header);
  }
  if (!rows || rows.length === 0) throw new ConfigError(`${sample} holds no data rows`);
  const specs: Partial<Record<RecordField, FieldSpec>> = preset ? linkColumns(preset, rows) : { ...fields };
  if (!preset) refineFromSample(rows, fields, specs);

  const mapping: WrittenMapping = preset
    ? { preset: preset.name, fields: specs, defaults: {} }
    : { fields: specs, defaults: {} };
  const records: ConversionRecord[] = [];
  const reasons = new Map<string, number>();
  const unguessed = (['conversionValue', 'conversionDatetime', 'conversionCurrency'] as const).filter(
    (field) => !preset && !fields[field],
  );
  // Without a value and a time column the mapping cannot be tried on the sample yet.
  const sampleRowsToCheck =
    unguessed.includes('conversionValue') || unguessed.includes('conversionDatetime') ? [] : rows;
  let unlinkable: UnlinkableError | undefined;
  try {
    for await (const checked of checkRows(toAsync(sampleRowsToCheck), {
      mapping,
      transform: undefined,
      timezone,
      currency: undefined,
      allowNegative: false,
    })) {
      if (checked.ok) {
        if (records.length < 3) records.push(checked.record);
      } else {
        for (const issue of checked.rejection.issues)
          reasons.set(issue.reason, (reasons.get(issue.reason) ?? 0) + 1);
      }
    }
  } catch (error) {
    // Nothing links a record to a visitor yet: what to add goes under "still to do".
    if (!(error instanceof UnlinkableError)) throw error;
    unlinkable = error;
  }

  const source = rows[0]!.source;
  const missing: string[] = [];
  if (preset) missing.push(...preset.notes);
  for (const field of unguessed) {
    missing.push(`no column found for ${field}: set mapping.fields.${field} to the column that holds it`);
  }
  if (unlinkable) missing.push(`${unlinkable.message}; ${unlinkable.hint}`);
  else if (!preset && !fields.serviceId) {
    missing.push(
      fields.conversionEmail
        ? 'no visitor id column: records are linked by e-mail; if the export has the tracking script visitor id, set mapping.fields.serviceId to its column'
        : 'no visitor id and no e-mail column: set mapping.fields.serviceId or mapping.fields.conversionEmail',
    );
  }
  if (reasons.has('missing time zone')) {
    missing.push(
      'times carry no zone: set `timezone` (an IANA name such as Europe/Berlin) or rerun init with --timezone',
    );
  }
  for (const [reason, count] of reasons) {
    if (reason !== 'missing time zone') missing.push(`${count} of the ${rows.length} sample rows: ${reason}`);
  }

  writeFileSync(output, configYaml(sample, source, preset, specs, timezone), { mode: 0o600 });

  const out: string[] = [
    `read ${sample}: ${source.format}, ${source.encoding}` +
      (source.delimiter ? `, delimiter ${JSON.stringify(source.delimiter)}` : '') +
      (source.headerLine ? `, header on line ${source.headerLine}` : ''),
    preset
      ? `preset: ${preset.name} (${preset.title})`
      : 'no preset matched: mapping guessed from the column names',
    `wrote ${path.relative(io.cwd, output) || output}`,
    '',
    records.length ? 'first records as they would be sent:' : 'no valid record in the sample yet:',
    ...records.map((r) => JSON.stringify(r)),
  ];
  if (missing.length) out.push('', 'still to do:', ...missing.map((m) => `- ${m}`));
  io.stdout.write(`${out.join('\n')}\n`);
  return ExitCode.ok;
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

async function* toAsync<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

/**
 * A preset never invents a visitor id; but where the user added a visitor-id or e-mail column to the
 * export (a common practice with ad-platform templates), init proposes it for the field the preset leaves open.
 */
function linkColumns(preset: Preset, rows: readonly SourceRow[]): Partial<Record<RecordField, FieldSpec>> {
  const header = rows.find((r) => r.kind === 'csv')?.source.header;
  if (!header) return {};
  const guessed = guessFields(header);
  const links: Partial<Record<RecordField, FieldSpec>> = {};
  for (const field of ['serviceId', 'conversionEmail'] as const) {
    const column = guessed[field];
    if (preset.mapping.fields?.[field] === undefined && column !== undefined) links[field] = column;
  }
  return links;
}

/** Reads the sample's datetime and value cells to pick a `format` and a `decimal` the defaults would miss. */
function refineFromSample(
  rows: readonly SourceRow[],
  fields: Partial<Record<RecordField, string>>,
  specs: Partial<Record<RecordField, FieldSpec>>,
): void {
  const cellsOf = (column: string | undefined): string[] => {
    if (column === undefined) return [];
    return rows.flatMap((row) => {
      if (row.kind === 'csv') {
        const index = (row.source.header ?? []).indexOf(column);
        const cell = index >= 0 ? row.cells[index] : undefined;
        return cell === undefined ? [] : [cell.trim()];
      }
      if (row.kind === 'json') {
        const value = row.value[column];
        return typeof value === 'string' || typeof value === 'number' ? [String(value)] : [];
      }
      return [];
    });
  };
  const times = cellsOf(fields.conversionDatetime);
  const format = guessDatetimeFormat(times, (f, value) => createDatetimeParser([f])(value, 'UTC').ok);
  if (fields.conversionDatetime && format && format !== 'iso' && format !== 'epoch') {
    specs.conversionDatetime = { column: fields.conversionDatetime, format };
  }
  const decimal = guessDecimal(cellsOf(fields.conversionValue));
  if (fields.conversionValue && decimal) specs.conversionValue = { column: fields.conversionValue, decimal };
}

function configYaml(
  sample: string,
  source: SourceRow['source'],
  preset: Preset | undefined,
  fields: Partial<Record<RecordField, FieldSpec>>,
  timezone: string | undefined,
): string {
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
  const mappingChildren: YamlEntry[] = [];
  if (preset) {
    mappingChildren.push({ key: 'preset', value: preset.name, comment: preset.title });
    mappingChildren.push({
      key: 'fields',
      comment: 'override the preset field by field, e.g. serviceId: "Visitor ID"',
      children: Object.entries(fields).map(([key, value]) => ({
        key,
        value: typeof value === 'string' ? value : undefined,
        comment: `${fieldComments[key as RecordField]} (a column the preset does not map)`,
      })),
    });
  } else {
    const children: YamlEntry[] = (Object.keys(fieldComments) as RecordField[]).map((field) => {
      const spec = fields[field];
      const comment = fieldComments[field] + (spec ? '' : ' (no column found)');
      if (spec === undefined || typeof spec === 'string') return { key: field, value: spec, comment };
      const entries = Object.entries(spec).filter((e): e is [string, string] => typeof e[1] === 'string');
      return { key: field, comment, children: entries.map(([key, value]) => ({ key, value })) };
    });
    mappingChildren.push({ key: 'fields', children });
  }
  const entries: YamlEntry[] = [
    {
      key: 'baseUrl',
      comment: `written by revimport init from ${sample} (${source.format}, ${source.encoding})\nthe CRM; or set REVIMPORT_BASE_URL`,
    },
    { key: 'apiKeyFile', comment: 'a file holding the API key (chmod 600); or set REVIMPORT_API_KEY' },
    { key: 'mapping', children: mappingChildren },
    {
      key: 'timezone',
      value: timezone,
      comment: 'the zone of local times that carry none (IANA name, e.g. Europe/Berlin)',
    },
  ];
  return toYaml(entries);
}

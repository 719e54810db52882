// The revimport.config.yaml init writes: every setting with a comment saying what it is, the fields init chose
// (and the runner-up as a commented suggestion), the review list in the file's head; YAML by config/write-yaml.
import { toYaml, type YamlEntry } from '../config/write-yaml.js';
import type { SourceInfo } from '../input/types.js';
import { besideConfigFileName } from '../ledger/paths.js';
import type { Preset } from '../mapping/presets/types.js';
import { type RecordField, recordFields } from '../record/fields.js';
import { describe } from './preview.js';
import { type FieldSpecs, policyOf, specOf } from './propose.js';
import type { MappingGuess } from './types.js';

/** What the file is written from. */
export interface ConfigInput {
  sample: string;
  source: SourceInfo;
  preset: Preset | undefined;
  guess: MappingGuess | undefined;
  specs: FieldSpecs;
  timezone: string | undefined;
  currency: string | undefined;
  review: readonly string[];
}

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

export function configYaml(input: ConfigInput): string {
  const { timezone, currency, guess } = input;
  const entries: YamlEntry[] = [
    { key: 'baseUrl', suggestion: 'https://crm.example.com', comment: headComment(input) },
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
    { key: 'mapping', children: mappingEntries(input) },
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

/** The file's head: where it was written from, and the review list. */
function headComment({ sample, source, review }: ConfigInput): string {
  return [
    `written by revimport init from ${sample} (${source.format}, ${source.encoding}` +
      (source.headerLine ? `, header on line ${source.headerLine})` : ')'),
    ...(review.length ? ['>> review before a push:', ...review.map((r) => `>> - ${r}`)] : []),
    'the CRM; or set REVIMPORT_BASE_URL',
  ].join('\n');
}

/** `mapping:` with a preset (its name, and the fields it leaves open), or the guess's fields and policy. */
function mappingEntries(input: ConfigInput): YamlEntry[] {
  const { preset, guess, specs, source } = input;
  if (preset)
    return [
      { key: 'preset', value: preset.name, comment: preset.title },
      {
        key: 'fields',
        comment: 'override the preset field by field, e.g. serviceId: "Visitor ID"',
        children: (Object.keys(specs) as RecordField[]).map((field) => fieldEntry(input, field)),
      },
    ];
  const children: YamlEntry[] = [
    { key: 'fields', children: recordFields.map((field) => fieldEntry(input, field)) },
  ];
  const policy = policyOf(guess!, source.format === 'jsonl');
  if (policy.keep) {
    children.push({
      key: 'keep',
      value: policy.keep,
      comment: `only rows whose ${guess!.status!.column} means money received are revenue; the others are skipped`,
    });
  }
  if (policy.refunded) {
    children.push({
      key: 'refunded',
      value: policy.refunded,
      comment: 'the amount refunded, taken off the value',
    });
  }
  return children;
}

/** One field: its spec with what it is and why init chose it, or the runner-up as a suggestion. */
function fieldEntry({ specs, guess, preset }: ConfigInput, field: RecordField): YamlEntry {
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
}

// The sample through the same row checks as a push (pipeline/checked-rows.ts): the records the proposed config
// gives, the refusal reasons counted, what is skipped or folded, and a stop before any row. A preset whose date
// form the sample no longer has (a re-saved export) is tried again with the sample's own form.
import type { WrittenMapping } from '../config/schema.js';
import { ConfigError, WrongReportError } from '../errors.js';
import type { SourceRow } from '../input/types.js';
import { createRowChecker, type RowOutcome } from '../pipeline/checked-rows.js';
import type { ConversionRecord } from '../record/fields.js';
import { type Proposal, presetDatetimeFormat, type Resaved, specOf } from './propose.js';

export interface Tried {
  records: ConversionRecord[];
  reasons: Map<string, number>;
  /** Rows that are not revenue by the mapping's rules (a pending order), by reason. */
  skipped: Map<string, number>;
  /** Rows folded into another row's order (line items: foldBy; rows summed by sumBy). */
  folded: number;
  /** A run with this config would stop before any row (nothing to attribute by, a column the file lacks). */
  stop?: ConfigError;
}

/** The proposal tried on the sample: the rows checked (none while the value or time is unmapped), the outcome. */
export interface Trial {
  checked: readonly SourceRow[];
  tried: Tried;
  /** The sample's own date form, set over the preset's. */
  resaved?: Resaved;
}

export function trySampleOf(
  proposal: Proposal,
  rows: readonly SourceRow[],
  timezone: string | undefined,
): Trial {
  const { mapping, currency, unguessed, preset, specs } = proposal;
  // Without a value and a time column the mapping cannot be tried on the sample yet.
  const checked =
    unguessed.includes('conversionValue') || unguessed.includes('conversionDatetime') ? [] : rows;
  const tried = trySample(checked, mapping, timezone, currency);
  // A re-saved export (a spreadsheet writes `09/09/2025 23:01`) no longer has the preset's date form:
  // read the sample's own form and propose it over the preset's.
  const invalidTimes = tried.reasons.get('invalid datetime') ?? 0;
  if (!preset || specs.conversionDatetime !== undefined || invalidTimes * 2 < checked.length)
    return { checked, tried };
  const resaved = presetDatetimeFormat(preset, rows);
  if (!resaved) return { checked, tried };
  specs.conversionDatetime = { format: resaved.format };
  return { checked, tried: trySample(checked, mapping, timezone, currency), resaved };
}

/** The sample through the same checks as a push: its valid records, and the count of each refusal reason. */
export function trySample(
  rows: readonly SourceRow[],
  mapping: WrittenMapping,
  timezone: string | undefined,
  currency: string | undefined,
): Tried {
  const tried: Tried = { records: [], reasons: new Map(), skipped: new Map(), folded: 0 };
  try {
    const check = createRowChecker({
      mapping,
      transform: undefined,
      timezone,
      currency,
      allowNegative: false,
    });
    for (const row of rows) take(tried, check(row));
    // Each sum stands for the first of its rows, counted folded until now (as push counts them).
    for (const outcome of check.flush()) {
      tried.folded--;
      take(tried, outcome);
    }
  } catch (error) {
    // Another report than the export it looks like: there is nothing to configure (exit 2).
    if (!(error instanceof ConfigError) || error instanceof WrongReportError) throw error;
    tried.stop = error;
  }
  return tried;
}

function take(tried: Tried, outcome: RowOutcome): void {
  if (outcome === 'folded') {
    tried.folded++;
    return;
  }
  if ('skipped' in outcome) count(tried.skipped, outcome.skipped);
  else if (outcome.ok) tried.records.push(outcome.record);
  else for (const issue of outcome.rejection.issues) count(tried.reasons, issue.reason);
}

function count(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

/** Whole numbers that read either way: the column and the sample's total under each reading (issue 21). */
export function unitQuestion(proposal: Proposal, trial: Trial, timezone: string | undefined): string {
  const { mapping, currency, isJson } = proposal;
  const choice = proposal.guess!.fields.conversionValue.choice!;
  const minor = specOf({ ...choice, unit: 'minor' }, isJson);
  const asMinor = trySample(
    trial.checked,
    { ...mapping, fields: { ...mapping.fields, conversionValue: minor } },
    timezone,
    currency,
  ).records;
  return (
    `conversionValue: "${choice.columns[0]}" holds whole numbers the sample cannot tell apart: as units (the config as written) ` +
    `the sample totals ${totalsText(trial.tried.records)}; as minor units (unit: minor, cents) ${totalsText(asMinor)}; ` +
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

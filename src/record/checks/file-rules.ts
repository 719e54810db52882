// What the row checks of one file need, resolved once per file from the bound mapping and the run's
// options: the datetime parser, the zones, the value's unit and scale, the bounds, the warnings collector.
import { ConfigError } from '../../errors.js';
import { createDatetimeParser, type DatetimeParser } from '../datetime.js';
import type { DeductionSource, FieldSource, MappingSource } from '../field-source.js';
import type { RecordField } from '../fields.js';
import type { ParseAmountOptions } from '../money.js';
import type { AbbreviationReading } from '../zone-abbreviations.js';
import { type FileZones, resolveFileZones } from './file-zones.js';
import { FileWarnings } from './warnings.js';

export interface ValidateOptions {
  /** Default zone for local times (`timezone` / `--timezone`). */
  timezone: string | undefined;
  /** Default currency (`currency` / `--currency`). */
  currency: string | undefined;
  allowNegative: boolean;
  /** Plausible instants (UTC ms): earlier or later ones are invalid. Default: 2000-01-01 and no upper bound. */
  earliestMs?: number;
  latestMs?: number;
  /** How an ambiguous zone abbreviation is read when the zone cannot decide (mapping.zoneAbbreviations). */
  zoneAbbreviations?: AbbreviationReading;
  /** The platform a preset's reading is for ("PayPal"): the note on the meanings applied names it. */
  abbreviationsWriter?: string;
  /** `net` and `adjust` (default net): the mapping's `refunded` amount is taken off the value; `gross`: it is not. */
  refunds?: 'net' | 'gross' | 'adjust';
  /** The row is one of several summed into a conversion (mapping.sumBy): nothing left is no reason to skip it. */
  summing?: boolean;
}

/** 2000-01-01T00:00:00Z. */
export const DEFAULT_EARLIEST_MS = 946_684_800_000;

export interface FileRules {
  fields: Record<RecordField, FieldSource>;
  refunded: DeductionSource | undefined;
  unpaid: DeductionSource | undefined;
  parseTime: DatetimeParser;
  /** The value's decimal separator, as parseAmount takes it (one object per file, not per row). */
  amountOptions: ParseAmountOptions;
  /** The value's multiplier (micros), and whether it is written in minor units (cents). */
  valueScale: number | undefined;
  minorUnit: boolean;
  allowNegative: boolean;
  /** The refunded amount comes off the value (refunds: net or adjust). */
  netRefunds: boolean;
  summing: boolean;
  earliestMs: number;
  latestMs: number;
  zones: FileZones;
  warnings: FileWarnings;
}

export function resolveFileRules(bound: MappingSource, options: ValidateOptions): FileRules {
  const f = bound.fields;
  const parseTime = datetimeParserFor(f.conversionDatetime, options.zoneAbbreviations);
  const zones = resolveFileZones(bound, options.timezone);
  const value = f.conversionValue.spec;
  return {
    fields: f,
    refunded: bound.refunded,
    unpaid: bound.unpaid,
    parseTime,
    amountOptions: { decimal: value.decimal },
    valueScale: value.scale,
    minorUnit: value.unit === 'minor',
    allowNegative: options.allowNegative,
    netRefunds: options.refunds !== 'gross',
    summing: options.summing === true,
    earliestMs: options.earliestMs ?? DEFAULT_EARLIEST_MS,
    latestMs: options.latestMs ?? Number.POSITIVE_INFINITY,
    zones,
    warnings: new FileWarnings({
      file: bound.source.file,
      valueColumn: f.conversionValue.column,
      namedZone: zones.namedZone,
      configuredZone: zones.configuredZone,
      abbreviationsWriter: options.abbreviationsWriter,
    }),
  };
}

/** The parser of the field's formats; a format it cannot read is a configuration error. */
function datetimeParserFor(
  field: FieldSource,
  abbreviations: AbbreviationReading | undefined,
): DatetimeParser {
  const format = field.spec.format;
  try {
    return createDatetimeParser(
      format === undefined ? undefined : Array.isArray(format) ? format : [format],
      {
        abbreviations: abbreviations ?? 'strict',
      },
    );
  } catch (error) {
    throw new ConfigError(
      `mapping.fields.conversionDatetime.format: ${error instanceof Error ? error.message : String(error)}`,
      { hint: 'tokens: yyyy MM M MMM dd d HH H hh h mm ss SSS a, text in single quotes, or iso / epoch' },
    );
  }
}

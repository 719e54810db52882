// Turns one mapped row into a valid wire record or the list of what is wrong with it. Pure: the caller
// passes the bound mapping, the run's defaults and the set of conversionIds already seen.
import { ConfigError } from '../errors.js';
import type { SourceRow } from '../input/types.js';
import type { BoundDeduction, BoundField, BoundMapping } from '../mapping/compile-mapping.js';
import { codePointName, firstControl, preview, quote } from '../quote.js';
import { type Issue, maskEmail } from '../report/rejection.js';
import { normalizeCurrency } from './currency.js';
import { createDatetimeParser, type DatetimeParser, formatUtc } from './datetime.js';
import type { ConversionRecord } from './fields.js';
import {
  exactAmountLimit,
  fromMinorUnits,
  isExactAmount,
  parseAmount,
  roundToMinor,
  toMinorUnits,
} from './money.js';
import { canonicalZone, fixedOffsetZone, offsetAt, parseOffset } from './zone.js';
import {
  type Abbreviation,
  type AbbreviationReading,
  formatAbbreviationOffset,
  lookupAbbreviation,
} from './zone-abbreviations.js';

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

export type ValidateResult =
  | { ok: true; record: ConversionRecord }
  | { ok: false; issues: Issue[] }
  /** Not money received: nothing left after refunds, or nothing captured. Not an error. */
  | { ok: false; skipped: string };

/** Raw deduction cells (refunded, unpaid) read with the candidate; not part of the JS transform's fields. */
const deductionCells = Symbol('deductions');

/** Raw values per field after mapping (before normalization); the JS `transform` hook sees and edits these. */
export type Candidate = Partial<Record<keyof ConversionRecord, unknown>> & {
  [deductionCells]?: { refunded: unknown; unpaid: unknown };
};

export interface Validator {
  /** Reads the row's mapped values (constants and defaults applied). */
  candidate(row: SourceRow): Candidate;
  check(candidate: Candidate): ValidateResult;
  /** What this file's rows showed that deserves one warning (offsets that contradict the configured zone); then reset. */
  drainWarnings(): string[];
}

const EMAIL = /^[^\s@"<>(),;:]+@[^\s@"<>(),;:]+\.[^\s@"<>(),;:]+$/;
/** A number in a spreadsheet's scientific notation (`1.23457E+21`, `1,23456765432346E+021`): never an exact id. */
const SPREADSHEET_NUMBER = /^\d(?:[.,]\d+)?E\+\d+$/i;
/** An e-mail address inside other text (`Ann Lee (ann@example.com)`), for `transform: email`. */
const EMAIL_INSIDE = /[^\s@"<>(),;:]+@[^\s@"<>(),;:]+\.[^\s@"<>(),;:]+/;
const SHA256_HEX = /^[0-9a-f]{64}$/i;

/**
 * After the JS transform: the refunded and unpaid amounts still come off a value the transform left as
 * it was (a new object too); a value the transform changed is the transform's own, taken as final.
 */
export function carryDeductions(before: Candidate, after: Candidate): Candidate {
  const cells = before[deductionCells];
  if (cells !== undefined && after.conversionValue === before.conversionValue) after[deductionCells] = cells;
  else delete after[deductionCells];
  return after;
}

export function createValidator(bound: BoundMapping, options: ValidateOptions): Validator {
  const f = bound.fields;
  let parseTime: DatetimeParser;
  try {
    parseTime = createDatetimeParser(toList(f.conversionDatetime.spec.format), {
      abbreviations: options.zoneAbbreviations ?? 'strict',
    });
  } catch (error) {
    throw new ConfigError(
      `mapping.fields.conversionDatetime.format: ${error instanceof Error ? error.message : String(error)}`,
      { hint: 'tokens: yyyy MM M MMM dd d HH H hh h mm ss SSS a, text in single quotes, or iso / epoch' },
    );
  }
  const valueDecimal = f.conversionValue.spec.decimal;
  const valueScale = f.conversionValue.spec.scale;
  const minorUnit = f.conversionValue.spec.unit === 'minor';
  const earliestMs = options.earliestMs ?? DEFAULT_EARLIEST_MS;
  const latestMs = options.latestMs ?? Number.POSITIVE_INFINITY;
  const fieldZoneName = f.conversionDatetime.spec.timezone;
  const fieldZone = fieldZoneName === undefined ? undefined : canonicalZone(fieldZoneName);
  if (fieldZoneName !== undefined && fieldZone === undefined) {
    throw new ConfigError(
      `mapping.fields.conversionDatetime.timezone: "${fieldZoneName}" is not an IANA time zone name`,
    );
  }
  // A file zone that cannot be resolved (`+0530` has no IANA name) must not fall back to another zone:
  // every local time of that file would be shifted. Its rows are invalid instead.
  const fileZone = resolveFileZone(bound.fileZone);
  const badFileZone = bound.fileZone !== undefined && fileZone === undefined ? bound.fileZone : undefined;
  // mapping.defaults.conversionTimezone is a configured default like `timezone`: the file's own zone
  // beats it; only a zone in the row itself beats the file's.
  const defaultZoneText =
    f.conversionTimezone.fallback === undefined ? undefined : String(f.conversionTimezone.fallback);
  const defaultZone = defaultZoneText === undefined ? undefined : resolveFileZone(defaultZoneText);
  if (defaultZoneText !== undefined && defaultZone === undefined) {
    const abbreviation = lookupAbbreviation(defaultZoneText);
    throw new ConfigError(
      `mapping.defaults.conversionTimezone: "${defaultZoneText}" is not an IANA time zone name` +
        (abbreviation
          ? ` (it is an abbreviation, an offset: write the zone, such as ${abbreviation.meanings[0]!.zone})`
          : ''),
    );
  }
  const configuredZone = fileZone ?? fieldZone ?? defaultZone ?? canonicalZone(options.timezone ?? '');
  // The record's zone is a region/city name whenever one is known: a zone read from an offset (the file's
  // `-0500`, a row's `+0100`) only gives the instant. Etc/GMT±N or UTC only when no such name is known.
  const fileZoneIsOffset = fileZone !== undefined && canonicalZone(bound.fileZone ?? '') === undefined;
  const namedZone = [
    fileZoneIsOffset ? undefined : fileZone,
    fieldZone,
    defaultZone,
    canonicalZone(options.timezone ?? ''),
  ].find(isRegionZone);
  const netRefunds = options.refunds !== 'gross';
  let validRows = 0;
  let zeroRows = 0;
  let contradictions = 0;
  let contradictionExample = '';
  /** Ambiguous abbreviations read with a preset's meaning in this file (PST -> Pacific), for one note. */
  const assumed = new Map<string, string>();
  const contradicted = (raw: unknown, zone: string | undefined) => {
    if (contradictions++ === 0)
      contradictionExample = `${quote(raw)} is not ${zone ?? 'the configured zone'}`;
  };

  const read = (field: BoundField, row: SourceRow, withFallback = true): unknown => {
    let value: unknown = field.constant ?? field.get?.(row);
    if (Array.isArray(value)) value = value.length > 0 ? value[0] : undefined;
    if (typeof value === 'string') {
      value = value.trim();
      if (value === '') value = undefined;
    }
    return withFallback ? (value ?? field.fallback) : value;
  };

  return {
    candidate(row) {
      const candidate: Candidate = {
        conversionCurrency: read(f.conversionCurrency, row) ?? options.currency,
        conversionValue: read(f.conversionValue, row),
        conversionDatetime: read(f.conversionDatetime, row),
        conversionTimezone: read(f.conversionTimezone, row, false),
        serviceId: read(f.serviceId, row),
        conversionId: read(f.conversionId, row),
        conversionName: read(f.conversionName, row),
        conversionEmail: read(f.conversionEmail, row),
      };
      if (bound.refunded || bound.unpaid) {
        candidate[deductionCells] = { refunded: bound.refunded?.get(row), unpaid: bound.unpaid?.get(row) };
      }
      return candidate;
    },

    check(c) {
      const issues: Issue[] = [];
      const issue = (field: BoundField, value: unknown, reason: string, message: string) => {
        issues.push({ column: field.column, value: display(value), reason, message });
      };

      // Currency first: the value's rounding depends on it.
      let currency: string | undefined;
      const rawCurrency = textOf(c.conversionCurrency, f.conversionCurrency.spec.transform);
      let amountCurrency: string | undefined;
      let value: number | undefined;
      if (c.conversionValue === undefined) {
        issue(
          f.conversionValue,
          '',
          'missing value',
          `conversionValue is required but ${emptyWhy(f.conversionValue)}`,
        );
      } else if (typeof c.conversionValue !== 'string' && typeof c.conversionValue !== 'number') {
        issue(f.conversionValue, c.conversionValue, 'invalid number', 'the value is not a number');
      } else {
        const amount = parseAmount(c.conversionValue, { decimal: valueDecimal });
        if (!amount.ok) issue(f.conversionValue, c.conversionValue, amount.reason, amount.message);
        else {
          value = valueScale === undefined ? amount.value : amount.value * valueScale;
          amountCurrency = amount.currency;
          if (minorUnit && !Number.isInteger(value)) {
            issue(
              f.conversionValue,
              c.conversionValue,
              'invalid number',
              `${c.conversionValue} is not a whole number of minor units (the field has unit: minor)`,
            );
            value = undefined;
          } else if (value < 0 && !options.allowNegative) {
            issue(
              f.conversionValue,
              c.conversionValue,
              'negative value',
              `negative value ${c.conversionValue}: refunds are not imported unless allowNegative is set`,
            );
            value = undefined;
          }
        }
      }
      if (rawCurrency === undefined) {
        currency = amountCurrency;
        if (currency === undefined) {
          issue(
            f.conversionCurrency,
            '',
            'missing currency',
            'no currency: map a currency column or set `currency`',
          );
        }
      } else {
        currency = normalizeCurrency(rawCurrency);
        if (currency === undefined) {
          issue(
            f.conversionCurrency,
            rawCurrency,
            'invalid currency',
            `${quote(rawCurrency)} is not an ISO 4217 currency code`,
          );
        } else if (amountCurrency !== undefined && amountCurrency !== currency) {
          issue(
            f.conversionValue,
            c.conversionValue,
            'currency mismatch',
            `the value says ${amountCurrency} but the currency column says ${currency}`,
          );
        }
      }

      if (minorUnit && value !== undefined && currency !== undefined) value = fromMinorUnits(value, currency);
      // Past what a double holds in minor units the value would be sent inexact, or as null (issue 24).
      if (value !== undefined && currency !== undefined && !isExactAmount(value, currency)) {
        issue(
          f.conversionValue,
          c.conversionValue,
          'amount too large',
          tooLarge(c.conversionValue, currency),
        );
        value = undefined;
      }
      // Only money received counts: what was not captured, and (net) what was refunded, comes off.
      const cells = c[deductionCells];
      let deducted = { refunded: 0, unpaid: 0 };
      if (cells && value !== undefined && currency !== undefined) {
        const refundCell = netRefunds ? amountOf(bound.refunded, cells.refunded, currency) : 0;
        const refunded =
          typeof refundCell === 'number' ? refundOf(refundCell, bound.refunded, value, currency) : refundCell;
        const unpaidCell = amountOf(bound.unpaid, cells.unpaid, currency);
        // Issue 21: a negative Outstanding Balance (overpaid, Shopify Markets rounding) is nothing uncaptured.
        const unpaid = typeof unpaidCell === 'number' ? Math.max(0, unpaidCell) : unpaidCell;
        for (const [deduction, amount] of [
          [bound.refunded, refunded],
          [bound.unpaid, unpaid],
        ] as const) {
          if (typeof amount === 'object')
            issue(deductionField(deduction!), amount.value, amount.reason, amount.message);
        }
        if (typeof refunded === 'number' && typeof unpaid === 'number') deducted = { refunded, unpaid };
        else value = undefined;
      }

      // Zone: the row's zone column, else the file's Parameters zone, else the configured default.
      let rowZone = configuredZone;
      let rowZoneIsOffset = fileZoneIsOffset && configuredZone === fileZone;
      let rowAbbreviation: Abbreviation | undefined;
      const rawZone = textOf(c.conversionTimezone, undefined);
      if (rawZone === undefined && badFileZone !== undefined) {
        issues.push({
          column: 'Parameters:TimeZone',
          value: badFileZone,
          reason: 'unknown time zone',
          message: `the file's time zone ${quote(badFileZone)} is neither an IANA name nor a whole-hour offset; set a zone column or fix the Parameters row`,
        });
      } else if (rawZone !== undefined) {
        const zone = canonicalZone(rawZone) ?? offsetZone(rawZone);
        // An abbreviation (PDT) is an offset: the datetime is read with it, and the configured zone
        // decides the record's zone when it has that offset then.
        rowAbbreviation = zone === undefined ? lookupAbbreviation(rawZone) : undefined;
        if (zone === undefined && rowAbbreviation === undefined) {
          issue(
            f.conversionTimezone,
            rawZone,
            'unknown time zone',
            `${quote(rawZone)} is neither an IANA time zone name nor a zone abbreviation (like PDT)`,
          );
        }
        rowZone = rowAbbreviation === undefined ? zone : configuredZone;
        rowZoneIsOffset = zone !== undefined && canonicalZone(rawZone) === undefined;
      }

      let datetime: string | undefined;
      let timezone: string | undefined;
      const rawTime = c.conversionDatetime;
      if (rawTime === undefined) {
        issue(
          f.conversionDatetime,
          '',
          'missing datetime',
          `conversionDatetime is required but ${emptyWhy(f.conversionDatetime)}`,
        );
      } else if (typeof rawTime !== 'string' && typeof rawTime !== 'number') {
        issue(f.conversionDatetime, rawTime, 'invalid datetime', 'the datetime is not text or a number');
      } else if (
        (rawZone === undefined && badFileZone === undefined) ||
        rowZone !== undefined ||
        rowAbbreviation !== undefined
      ) {
        const parsed = parseTime(rawTime, rowZone, rowAbbreviation);
        if (!parsed.ok) issue(f.conversionDatetime, rawTime, parsed.reason, parsed.message);
        else if (parsed.utcMs < earliestMs || parsed.utcMs > latestMs) {
          const early = parsed.utcMs < earliestMs;
          issue(
            f.conversionDatetime,
            rawTime,
            'implausible datetime',
            early
              ? `${quote(rawTime)} is ${formatUtc(parsed.utcMs)}, before ${formatUtc(earliestMs).slice(0, 10)}: a placeholder or a typo (set \`earliest\` to accept older conversions)`
              : `${quote(rawTime)} is ${formatUtc(parsed.utcMs)}, in the future (set \`futureHours\` to accept later times)`,
          );
        } else {
          datetime = formatUtc(parsed.utcMs);
          if (parsed.contradicts) contradicted(rawTime, rowZone);
          if (parsed.assumed && options.abbreviationsWriter && !assumed.has(parsed.assumed.abbreviation)) {
            const { abbreviation, meaning } = parsed.assumed;
            assumed.set(
              abbreviation,
              `${abbreviation} read as ${meaning.name}, ${formatAbbreviationOffset(meaning.offsetMinutes)}, as ` +
                `${options.abbreviationsWriter} writes it; set \`timezone\` if your account is elsewhere`,
            );
          }
          if (parsed.zone !== undefined) timezone = parsed.zone;
          else if (
            parsed.offsetMinutes !== undefined &&
            parsed.offsetMinutes !== 0 &&
            rowZone !== undefined
          ) {
            // A written offset is a statement about the zone: one the zone does not have then keeps its
            // instant and is not given the configured zone's name.
            if (offsetAt(rowZone, parsed.utcMs) === parsed.offsetMinutes) timezone = rowZone;
            else {
              // The instant is the offset's; the record keeps the row's or the configured region zone.
              const region = isRegionZone(rowZone) ? rowZone : namedZone;
              contradicted(rawTime, region ?? rowZone);
              timezone = region ?? fixedOffsetZone(parsed.offsetMinutes) ?? 'UTC';
              rowZoneIsOffset = false;
            }
          }
          // An instant (Z, epoch) with no zone anywhere: the instant is exact, its zone unknown.
          else timezone = rowZone ?? 'UTC';
          if (rowZoneIsOffset && timezone === rowZone && namedZone !== undefined) {
            // Read with a fixed offset (Microsoft's `-0500`), named after the known zone; counted when
            // that zone has another offset then (New York in summer).
            if (offsetAt(namedZone, parsed.utcMs) !== offsetAt(rowZone, parsed.utcMs))
              contradicted(rawTime, namedZone);
            timezone = namedZone;
          }
        }
      }

      const email = textOf(textOf(c.conversionEmail, f.conversionEmail.spec.transform), 'lowercase');
      if (email !== undefined) {
        const control = controlCharacter(f.conversionEmail, email, maskEmail(email));
        if (control !== undefined) issue(f.conversionEmail, maskEmail(email), 'control character', control);
        else if (SHA256_HEX.test(email)) {
          issue(
            f.conversionEmail,
            `${email.slice(0, 8)}…`,
            'hashed e-mail',
            'the e-mail is a SHA-256 hash, which the CRM cannot match: map a plain e-mail column or a serviceId',
          );
        } else if (!EMAIL.test(email) || email.length > 254) {
          issue(
            f.conversionEmail,
            maskEmail(email),
            'invalid e-mail',
            `${quote(maskEmail(email))} is not an e-mail address`,
          );
        }
      }
      // A JSON number id above 2^53 has already lost digits in JSON.parse: two ids could merge into one.
      for (const field of [f.serviceId, f.conversionId]) {
        const raw = c[field.field];
        if (typeof raw === 'number' && Number.isInteger(raw) && !Number.isSafeInteger(raw)) {
          issue(
            field,
            raw,
            'id not exact',
            `the id ${raw} is a JSON number too large to be exact: write it as a string`,
          );
        }
        // A spreadsheet showed a long numeric id in scientific notation and saved it so (`1,23456765432346E+021`):
        // its last digits are gone, and ids that differed are now the same.
        if (typeof raw === 'string' && SPREADSHEET_NUMBER.test(raw.trim())) {
          issue(
            field,
            raw.trim(),
            'id not exact',
            `the id ${quote(raw.trim())} was saved by a spreadsheet in scientific notation: its digits are lost ` +
              '(export the file again and do not open and save it in a spreadsheet)',
          );
        }
      }
      const serviceId = textOf(c.serviceId, f.serviceId.spec.transform);
      const conversionId = textOf(c.conversionId, f.conversionId.spec.transform);
      const conversionName = textOf(c.conversionName, f.conversionName.spec.transform);
      for (const [field, text] of [
        [f.serviceId, serviceId],
        [f.conversionId, conversionId],
        [f.conversionName, conversionName],
      ] as const) {
        const control = text === undefined ? undefined : controlCharacter(field, text);
        if (control !== undefined) issue(field, text, 'control character', control);
      }
      if (serviceId === undefined && email === undefined) {
        issues.push({
          column: `${linkLabel(f.serviceId)} / ${linkLabel(f.conversionEmail)}`,
          value: '',
          reason: 'missing visitor id',
          message: 'a record needs a serviceId or a conversionEmail to link it to a visitor',
        });
      }

      if (issues.length > 0 || value === undefined || currency === undefined || !datetime || !timezone) {
        return { ok: false, issues };
      }
      if (cells) {
        // Where the mapping says what was refunded or not captured, the money decides: nothing left
        // (an order of 0.00 too) is no revenue. Exact in minor units: 232.81 - 14.00 is 218.81.
        const left =
          toMinorUnits(value, currency) - toMinorUnits(deducted.refunded + deducted.unpaid, currency);
        if (left <= 0 && !options.summing) {
          return { ok: false, skipped: deducted.refunded > 0 ? 'refunded in full' : 'nothing captured' };
        }
        value = fromMinorUnits(left, currency);
      }
      validRows++;
      if (value === 0) zeroRows++;
      const record: ConversionRecord = {
        conversionCurrency: currency,
        conversionValue: roundToMinor(value, currency),
        conversionDatetime: datetime,
        conversionTimezone: timezone,
      };
      if (serviceId !== undefined) record.serviceId = serviceId;
      if (conversionId !== undefined) record.conversionId = conversionId;
      if (conversionName !== undefined) record.conversionName = conversionName;
      if (email !== undefined) record.conversionEmail = email;
      return { ok: true, record };
    },

    drainWarnings() {
      const warnings: string[] = [];
      if (validRows > 0 && zeroRows * 2 > validRows) {
        warnings.push(
          `${bound.source.file}: ${zeroRows} of ${validRows} valid rows have the value 0 (column ${f.conversionValue.column}): ` +
            'is it the revenue column?',
        );
      }
      validRows = 0;
      zeroRows = 0;
      // Said once per run (the checker drops repeats): no file name.
      warnings.push(...assumed.values());
      assumed.clear();
      if (contradictions === 0) return warnings;
      const text =
        `${bound.source.file}: ${contradictions} row${contradictions === 1 ? '' : 's'} carry an offset or zone abbreviation ` +
        `that ${namedZone ?? configuredZone ?? 'the configured zone'} does not have at that time (e.g. ${contradictionExample}): ` +
        `their instants are kept as written${namedZone === undefined ? ', with the zone their offset names' : `, with the zone ${namedZone}`}; check \`timezone\``;
      contradictions = 0;
      warnings.push(text);
      return warnings;
    },
  };
}

type DeductionAmount = number | { value: unknown; reason: string; message: string };

/** A deduction cell as a signed amount in the record's currency: empty is 0; unreadable is an issue. */
function amountOf(deduction: BoundDeduction | undefined, raw: unknown, currency: string): DeductionAmount {
  if (deduction === undefined) return 0;
  if (typeof raw === 'string') raw = raw.trim();
  if (raw === undefined || raw === null || raw === '') return 0;
  if (typeof raw !== 'string' && typeof raw !== 'number') {
    return { value: raw, reason: 'invalid number', message: 'the amount is not a number' };
  }
  const amount = parseAmount(raw, { decimal: deduction.decimal });
  if (!amount.ok) return { value: raw, reason: amount.reason, message: amount.message };
  const scaled = amount.value * (deduction.scale ?? 1);
  const value = deduction.unit === 'minor' ? fromMinorUnits(scaled, currency) : scaled;
  if (!isExactAmount(value, currency)) {
    return { value: raw, reason: 'amount too large', message: tooLarge(raw, currency) };
  }
  return value;
}

/**
 * What a refund cell takes off the value, between 0 and the value: a deduction never adds to the value nor
 * flips its sign (issue 21), so a negative refund is none. A `remaining` cell is what is left after refunds:
 * the refund is the value less it (none when 0, as Etsy writes for an order never adjusted).
 */
function refundOf(
  cell: number,
  deduction: BoundDeduction | undefined,
  value: number,
  currency: string,
): number {
  if (!deduction?.remaining) return Math.max(0, cell);
  if (cell === 0) return 0;
  const refund = toMinorUnits(value, currency) - toMinorUnits(Math.max(0, cell), currency);
  return fromMinorUnits(Math.min(Math.max(0, refund), toMinorUnits(value, currency)), currency);
}

/** Issues name the deduction's source column. */
function deductionField(deduction: BoundDeduction): BoundField {
  return {
    field: 'conversionValue',
    column: deduction.column,
    get: undefined,
    constant: undefined,
    fallback: undefined,
    spec: {},
  };
}

function toList(format: string | string[] | undefined): string[] | undefined {
  return format === undefined ? undefined : Array.isArray(format) ? format : [format];
}

/** A file zone is an IANA name (Google) or a fixed GMT offset applied all year (Microsoft `-0500`). */
function resolveFileZone(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  return canonicalZone(raw) ?? offsetZone(raw);
}

/** A region/city zone (America/New_York), not UTC or a fixed Etc/GMT±N offset. */
function isRegionZone(zone: string | undefined): zone is string {
  return zone !== undefined && zone !== 'UTC' && !zone.startsWith('Etc/');
}

function offsetZone(raw: string): string | undefined {
  const offset = parseOffset(raw);
  return offset === undefined ? undefined : fixedOffsetZone(offset);
}

function textOf(
  value: unknown,
  transform: 'trim' | 'lowercase' | 'uppercase' | 'email' | undefined,
): string | undefined {
  if (value === undefined || value === null) return undefined;
  let text: string;
  if (typeof value === 'string') text = value.trim();
  else if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean')
    text = String(value);
  else return undefined;
  if (text === '') return undefined;
  if (transform === 'lowercase') return text.toLowerCase();
  if (transform === 'uppercase') return text.toUpperCase();
  if (transform === 'email') return EMAIL_INSIDE.exec(text)?.[0] ?? text;
  return text;
}

/** The value an issue names: text cut to 200 characters; a JSON value of any depth shown bounded, never recursed. */
function display(value: unknown): string {
  if (value === undefined || value === null) return '';
  return preview(value, 200);
}

function tooLarge(raw: unknown, currency: string): string {
  return (
    `${quote(raw)} is too large: an amount in ${currency} is exact in minor units up to ` +
    `${exactAmountLimit(currency)}`
  );
}

/**
 * Why a text field cannot be sent: a control character (a NUL, an ESC) would reach the CRM inside the
 * value, where it splits or hides what it is stored in (issue 24). Undefined when there is none.
 */
function controlCharacter(field: BoundField, text: string, shown = text): string | undefined {
  const at = firstControl(text);
  if (at < 0) return undefined;
  const code = text.charCodeAt(at);
  return `${field.field} ${quote(shown)} holds the control character ${codePointName(code)} (character ${at + 1}): it cannot be sent`;
}

/** Why a required field has no value: an empty cell, or (with a JS transform that did not set it) no such column. */
function emptyWhy(field: BoundField): string {
  if (field.get !== undefined || field.constant !== undefined) return 'the cell is empty';
  return field.column === field.field
    ? 'the mapping gives no column for it'
    : `there is no column ${field.column} in this file`;
}

/**
 * The link field as the missing-visitor-id issue names it: its column when the file has it, else the field name
 * (a preset's optional column the file lacks, e.g. google-ads' Email in a click-id upload, is no column to look at).
 */
function linkLabel(bound: BoundField): string {
  return bound.get === undefined && bound.constant === undefined ? bound.field : bound.column;
}

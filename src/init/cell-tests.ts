// Small tests of a sample's cells that the scoring and the settling steps share: filled cells, the share
// passing a test, and what a cell reads as (a number, a zone, a time of day, an e-mail, a currency mark).
import { currencyFromSymbolOrCode } from '../record/currency.js';
import { parseAmount } from '../record/money.js';
import { canonicalZone } from '../record/zone.js';
import { lookupAbbreviation } from '../record/zone-abbreviations.js';
import type { ColumnSample } from './types.js';

/** `,` when the sample writes decimals with a comma and never with a point; else undefined (inferred). */
export function guessDecimal(values: readonly string[]): ',' | '.' | undefined {
  const comma = values.some((v) => /\d,\d{1,2}$/.test(v.trim()));
  const point = values.some((v) => /\d\.\d{1,2}$/.test(v.trim()));
  if (comma && !point) return ',';
  if (point && !comma) return '.';
  return undefined;
}

export const emailShape = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
export const timeOfDay = /^\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(\s?[ap]\.?m\.?)?$/i;
export const personName = /^[\p{L}'.-]+(\s+[\p{L}'.-]+)+$/u;

export function isZone(value: string): boolean {
  return (
    canonicalZone(value) !== undefined ||
    lookupAbbreviation(value) !== undefined ||
    /^(utc|gmt)?\s*[+-]\d{1,2}(:?\d{2})?$/i.test(value)
  );
}

/** A number with either decimal separator (`1,234` is ambiguous alone, but a number). */
export function isNumber(value: string): boolean {
  return parseAmount(value).ok || parseAmount(value, { decimal: ',' }).ok;
}

export function filled(cells: readonly string[]): string[] {
  return cells.filter((c) => c !== '');
}

export function share(cells: readonly string[], test: (value: string) => boolean): number {
  return cells.length === 0 ? 0 : cells.filter(test).length / cells.length;
}

/** The currency a header names for its values (`Amount (USD)`, `Sale Price (€)`); `$` when it names `$` alone. */
export function currencyInHeader(name: string): string | undefined {
  const match = /\(\s*([^()]{1,4})\s*\)\s*$|\b([A-Z]{3})\s*$|\bin\s+([A-Z]{3})\b/.exec(name);
  const token = match?.[1] ?? match?.[2] ?? match?.[3];
  if (token === undefined) return undefined;
  if (token === '$' || token === 'US$') return token === 'US$' ? 'USD' : '$';
  return currencyFromSymbolOrCode(token);
}

/** The cells of the sample column named `name` (none when no column has that name). */
export function cellsOf(columns: readonly ColumnSample[], name: string | undefined): readonly string[] {
  return columns.find((c) => c.name === name)?.cells ?? [];
}

// What init reads from the cells alone (issue 21, item 4): a column of datetimes, ISO currency codes,
// e-mail addresses or amounts is a candidate whatever its name; a value column of whole numbers is read
// in minor units only when a sibling column or the order's parts say so; an id must not repeat.

import { normalizeCurrency } from '../record/currency.js';
import { parseAmount } from '../record/money.js';
import { emailShape, share } from './cell-tests.js';

/** What a column's cells plainly are, when its name said nothing. */
export type CellKind = 'datetime' | 'currency' | 'email' | 'money';

/** The score of a candidate found by its cells alone: below any name rule but the "other moment" ones. */
export const CELLS_ONLY_SCORE = 30;

/** A date's shape: digits split by `-` `/` `.`, or a month name (`Mar 5, 2024`, `5 Mar 2024`). */
const dateShape =
  /\d[-/.]\d{1,2}[-/.]\d|\b[A-Za-z]{3,9}\.? \d{1,2},? \d{4}\b|\b\d{1,2} [A-Za-z]{3,9}\.? \d{4}\b/;
/** Money as exports write it: two decimals, or a currency symbol or code beside the digits. */
const moneyShape = /\d[.,]\d{2}$|^\D{1,4}\s?\d|\d\s?\D{1,4}$/;

const amountOf = (cell: string): number | undefined => {
  if (cell === '') return undefined;
  const parsed = parseAmount(cell);
  return parsed.ok ? parsed.value : undefined;
};
const same = (a: number, b: number) => Math.abs(a - b) < 1e-6 * Math.max(1, Math.abs(b));

/**
 * The kinds the filled cells of a column plainly hold (90% of them, e-mail 80% as the name rules): dates
 * (by `readsAsDatetime`, a date's shape required, so `1001` is no year), upper-case ISO codes, e-mail
 * addresses, or amounts with two decimals or a currency mark (whole numbers are counts or ids as often).
 */
export function cellKinds(
  values: readonly string[],
  readsAsDatetime: (values: string[]) => boolean,
): CellKind[] {
  if (values.length === 0) return [];
  const kinds: CellKind[] = [];
  if (share(values, (v) => dateShape.test(v)) >= 0.9 && readsAsDatetime([...values])) kinds.push('datetime');
  if (share(values, (v) => /^[A-Z]{3}$/.test(v) && normalizeCurrency(v) !== undefined) >= 0.9)
    kinds.push('currency');
  if (share(values, (v) => emailShape.test(v)) >= 0.8) kinds.push('email');
  if (
    !kinds.includes('datetime') &&
    share(values, (v) => parseAmount(v).ok && moneyShape.test(v) && /\d/.test(v)) >= 0.9 &&
    values.some((v) => /[.,]\d{1,2}$/.test(v)) &&
    values.some((v) => (amountOf(v) ?? 0) !== 0)
  )
    kinds.push('money');
  return kinds;
}

/** How a value column of whole numbers reads: `minor` (with why), `major`, or undecided by the sample. */
export type UnitReading = { unit: 'minor'; evidence: string } | { unit: 'major' } | { unit: 'undecided' };

/** One column of the sample by name: its cells per row ('' when empty). */
export interface CellsByName {
  value: readonly string[];
  /** Other columns that could show the value in units: a formatted or decimal copy (`total_formatted`). */
  siblings: ReadonlyArray<{ name: string; cells: readonly string[] }>;
  /** The order's parts in the sample (`subtotal`, `tax`, `shipping`; `discount` is taken off). */
  parts: ReadonlyArray<{ part: string; cells: readonly string[] }>;
}

/**
 * Whether whole numbers in the value column are minor units (cents): a sibling column showing each value
 * divided by 10^digits (`total_formatted` "$88.20" beside `total` 8820), or parts (subtotal + tax +
 * shipping - discount) that add up to it only at /10^digits. Without such evidence, integers of at least
 * 10^digits that are not all round read either way: undecided, for the user (init exits 1).
 */
export function readUnit(sample: CellsByName, valueName: string, digits: number): UnitReading {
  const values = sample.value.map(amountOf);
  const filled = values.filter((v): v is number => v !== undefined);
  // `784.00` is written in units, whole or not.
  const decimals = sample.value.some((cell) => /[.,]\d{1,2}$/.test(cell));
  if (digits === 0 || filled.length === 0 || decimals || filled.some((v) => !Number.isInteger(v)))
    return { unit: 'major' };
  const scale = 10 ** digits;
  const sibling = minorSibling(sample, valueName, values, scale);
  if (sibling) return { unit: 'minor', evidence: sibling };
  const parts = partsReading(sample, values, scale);
  if (parts) return parts;
  const nonZero = filled.filter((v) => v !== 0);
  if (
    nonZero.length > 0 &&
    nonZero.every((v) => Math.abs(v) >= scale) &&
    nonZero.some((v) => v % scale !== 0)
  )
    return { unit: 'undecided' };
  return { unit: 'major' };
}

/** A sibling whose every compared cell is the value / scale (two rows at least, or its name built on the value's). */
function minorSibling(
  sample: CellsByName,
  valueName: string,
  values: ReadonlyArray<number | undefined>,
  scale: number,
): string | undefined {
  for (const { name, cells } of sample.siblings) {
    const pairs = values.flatMap((v, i) => {
      const s = amountOf(cells[i] ?? '');
      return v === undefined || v === 0 || s === undefined ? [] : [[v, s, cells[i]!] as const];
    });
    const named = name.toLowerCase().startsWith(valueName.toLowerCase());
    if (pairs.length === 0 || (pairs.length < 2 && !named)) continue;
    // A sibling with no decimals nor currency mark (a quantity of 1 beside 100) says nothing.
    if (!named && !pairs.some(([, , cell]) => moneyShape.test(cell))) continue;
    if (pairs.every(([v, s]) => same(s, v / scale) && !same(s, v))) {
      const [v, , cell] = pairs[0]!;
      return `"${name}" shows ${cell} for ${v}`;
    }
  }
  return undefined;
}

/** The parts' sum per row against the value: minor when it matches only at /scale, major when decimal parts match as is. */
function partsReading(
  sample: CellsByName,
  values: ReadonlyArray<number | undefined>,
  scale: number,
): UnitReading | undefined {
  const added = sample.parts.filter((p) => ['subtotal', 'tax', 'shipping', 'discount'].includes(p.part));
  if (!added.some((p) => p.part === 'subtotal' || p.part === 'tax')) return undefined;
  let minor = 0;
  let major = 0;
  let compared = 0;
  values.forEach((v, i) => {
    if (v === undefined || v === 0) return;
    let sum = 0;
    let discount = 0;
    for (const p of added) {
      const amount = amountOf(p.cells[i] ?? '') ?? 0;
      if (p.part === 'discount') discount += Math.abs(amount);
      else sum += amount;
    }
    compared++;
    if ([sum, sum - discount].some((s) => same(s, v / scale))) minor++;
    else if ([sum, sum - discount].some((s) => same(s, v)) && !Number.isInteger(sum)) major++;
  });
  if (compared > 0 && minor === compared)
    return {
      unit: 'minor',
      evidence: `its parts (${added.map((p) => p.part).join(', ')}) add up to it only divided by ${scale}`,
    };
  if (compared > 0 && major === compared) return { unit: 'major' };
  return undefined;
}

/** Repeats of a column over some rows: how many filled cells and how many distinct values. */
export function repeatsOf(
  cells: readonly string[],
  rows: readonly number[],
): { cells: number; values: number } {
  const filled = rows.map((i) => cells[i] ?? '').filter((c) => c !== '');
  return { cells: filled.length, values: new Set(filled).size };
}

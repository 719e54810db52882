// Rounding amounts to a currency's minor units, exact in decimal: 1.005 EUR is 1.01 although the double
// 1.005 is a hair below it. Plain Math.round(x * 100) / 100 gets such values wrong.
import { minorUnits } from './currency.js';

const powersOfTen = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000];

function scaleOf(digits: number): number {
  return powersOfTen[digits] ?? 10 ** digits;
}

/** |value| * 10^digits rounded half up, read from the shortest decimal form of the double (what the source wrote). */
function roundDecimalString(magnitude: number, digits: number): number {
  const text = String(magnitude);
  const e = text.indexOf('e');
  const mantissa = e < 0 ? text : text.slice(0, e);
  const exponent = e < 0 ? 0 : Number(text.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const allDigits = dot < 0 ? mantissa : mantissa.slice(0, dot) + mantissa.slice(dot + 1);
  const keep = (dot < 0 ? mantissa.length : dot) + exponent + digits;
  if (keep < 0) return 0;
  const kept = keep === 0 ? 0 : Number(allDigits.slice(0, keep).padEnd(keep, '0'));
  return keep < allDigits.length && allDigits.charCodeAt(keep) >= 53 ? kept + 1 : kept;
}

/**
 * `value` in integer minor units of `currency` (12.345 EUR -> 1235), rounded half away from zero on the
 * decimal value. Exact while the result is a safe integer (EUR up to about 90 trillion).
 */
export function toMinorUnits(value: number, currency: string): number {
  if (!Number.isFinite(value)) throw new RangeError(`Not a finite amount: ${value}`);
  const digits = minorUnits(currency);
  const scale = scaleOf(digits);
  const magnitude = Math.abs(value);
  const scaled = magnitude * scale;
  const floor = Math.floor(scaled);
  const fraction = scaled - floor;
  // Far from a half (beyond any float error at this size) Math.floor decides; near one, read the decimal digits.
  const units =
    scaled < 1e12 && Math.abs(fraction - 0.5) > 1e-3
      ? fraction < 0.5
        ? floor
        : floor + 1
      : roundDecimalString(magnitude, digits);
  return value < 0 && units !== 0 ? -units : units;
}

/**
 * The largest amount of `currency` whose minor units a double holds exactly, as decimal text
 * (EUR `90071992547409.91`, JPY `9007199254740991`). Past it cents are lost, and past about 1e306 EUR the
 * minor units are Infinity, which JSON sends as null (issue 24).
 */
export function exactAmountLimit(currency: string): string {
  const digits = minorUnits(currency);
  const text = String(Number.MAX_SAFE_INTEGER);
  return digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** Whether `value` is an amount of `currency` that can be rounded to minor units and sent as it is. */
export function isExactAmount(value: number, currency: string): boolean {
  return Number.isFinite(value) && Math.abs(value) * scaleOf(minorUnits(currency)) <= Number.MAX_SAFE_INTEGER;
}

/** Integer minor units back to an amount (1235 EUR -> 12.35, the double nearest the decimal). */
export function fromMinorUnits(minor: number, currency: string): number {
  return minor / scaleOf(minorUnits(currency));
}

/** `value` rounded half away from zero to the currency's minor units (JPY 1234.5 -> 1235, KWD 1.2345 -> 1.235). */
export function roundToMinor(value: number, currency: string): number {
  return fromMinorUnits(toMinorUnits(value, currency), currency);
}

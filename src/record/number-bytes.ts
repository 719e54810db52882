// A number's text as bytes, written where it goes (issue 23): a record's value is written twice a push, into its
// JSON (transport/record-json.ts) and into its content hash's bytes (ledger/record-key.ts), and String() of a
// fraction took ~130-190 ns of the ~600 a record's content bytes cost. Money is whole cents: such a value is
// written from its integer cents, any other number as String() writes it. Pure.

/** Bytes `writeNumber` may write: String()'s longest, -1.2345678901234567e-308. */
export const numberBytesMax = 25;

/** Values of whole cents under 10^12 in magnitude (10^14 cents) are written from their cents. */
const maxCents = 1e14;

/**
 * Writes `String(value)` as ASCII from `at` (room for `numberBytesMax` bytes needed); returns where it ends.
 *
 * For a value of whole cents below 10^12: the decimal `cents / 100` is the double nearest to it (one correctly
 * rounded division), so it reads back as `value`; and no decimal of fewer digits does, since below 10^12 doubles lie
 * less than 0.0002 apart and decimals a cent apart read back as different doubles. That decimal, trailing zeros
 * dropped, is then the shortest round trip, which is what String() writes (ECMA-262 Number::toString); -0 is
 * written "0" as String(-0) is. Any other value takes String() itself.
 */
export function writeNumber(out: Uint8Array, at: number, value: number): number {
  const cents = Math.round(value * 100);
  if (cents / 100 !== value || cents >= maxCents || cents <= -maxCents)
    return writeAscii(out, at, String(value));
  let end = at;
  if (cents < 0) out[end++] = 0x2d;
  const magnitude = Math.abs(cents);
  const whole = Math.floor(magnitude / 100);
  const fraction = magnitude - whole * 100;
  const digits = digitCount(whole);
  for (let i = digits - 1, rest = whole; i >= 0; i--, rest = Math.floor(rest / 10))
    out[end + i] = 0x30 + (rest % 10);
  end += digits;
  if (fraction === 0) return end;
  out[end++] = 0x2e;
  out[end++] = 0x30 + Math.floor(fraction / 10);
  if (fraction % 10 !== 0) out[end++] = 0x30 + (fraction % 10);
  return end;
}

/** An ASCII text's bytes from `at`; returns where they end. */
function writeAscii(out: Uint8Array, at: number, text: string): number {
  let end = at;
  for (let i = 0; i < text.length; i++) out[end++] = text.charCodeAt(i);
  return end;
}

/** Decimal digits of a whole number >= 0 (also a length's, for ledger/record-key.ts). */
export function digitCount(whole: number): number {
  let digits = 1;
  for (let rest = whole; rest >= 10; rest = Math.floor(rest / 10)) digits++;
  return digits;
}

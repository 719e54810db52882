// Numbers in messages and reports as en-US writes them ("1,234,567.89"), without Intl: `toLocaleString`
// loads ICU's formatting data, 7 MiB of RSS for the rest of the run (cli/zone-clock.ts, issue 23).

/**
 * `n.toLocaleString('en-US', { maximumFractionDigits })`, to the character: the shortest decimal that reads
 * back as `n` (what `String(n)` writes, as ICU takes it), rounded half away from zero to at most
 * `maximumFractionDigits` digits (3, Intl's default), trailing zeros dropped, thousands grouped by commas.
 */
export function groupedNumber(n: number, maximumFractionDigits = 3): string {
  if (Number.isNaN(n)) return 'NaN';
  const sign = n < 0 || Object.is(n, -0) ? '-' : '';
  if (!Number.isFinite(n)) return `${sign}∞`;
  const [mantissa, exponent = '0'] = String(Math.abs(n)).split('e');
  const point = mantissa!.indexOf('.');
  let digits = mantissa!.replace('.', '');
  // The value is 0.<digits> x 10^pointAt.
  let pointAt = (point < 0 ? mantissa!.length : point) + Number(exponent);
  const kept = pointAt + maximumFractionDigits;
  if (kept < digits.length) {
    const roundUp = kept >= 0 && digits.charCodeAt(kept) >= 53;
    digits = kept > 0 ? digits.slice(0, kept) : '';
    if (roundUp) {
      const raised = increment(digits);
      if (raised.length > digits.length) pointAt++;
      digits = raised;
    } else if (kept < 0) {
      pointAt = 0;
    }
  }
  const whole = pointAt <= 0 ? '0' : digits.slice(0, pointAt).padEnd(pointAt, '0');
  const fraction = (pointAt < 0 ? '0'.repeat(-pointAt) + digits : digits.slice(pointAt)).replace(/0+$/, '');
  const grouped = whole.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+$)/g, ',');
  return `${sign}${grouped}${fraction === '' ? '' : `.${fraction}`}`;
}

/** A string of decimal digits plus one ('' + 1 is '1', '99' + 1 is '100'). */
function increment(digits: string): string {
  let at = digits.length - 1;
  while (at >= 0 && digits[at] === '9') at--;
  if (at < 0) return `1${'0'.repeat(digits.length)}`;
  return digits.slice(0, at) + String(Number(digits[at]) + 1) + '0'.repeat(digits.length - at - 1);
}

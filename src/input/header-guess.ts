// Finding the header of an export no preset and no mapping describes (`revimport init`): the first row
// that reads as column names, past report titles, `#` comment blocks and instruction lines.

const numberOrDate = /^[-+]?[$€£¥]?\s?\d[\d.,\s:/-]*%?$/;

/**
 * Whether a row reads as a header: two or more named columns, not a `#` comment, its names distinct
 * and not numbers or dates. A title row (`Campaign report`, one cell) or a `### INSTRUCTIONS ###` line
 * is not; a data row (`A-1001,129.90,USD`) is not.
 */
export function looksLikeHeader(cells: readonly string[]): boolean {
  const names = cells.map((c) => c.trim()).filter((c) => c !== '');
  if (names.length < 2 || names[0]!.startsWith('#')) return false;
  if (names.some((name) => numberOrDate.test(name) || name.includes('@'))) return false;
  // Exports do repeat a name now and then (two `Notes` columns); a row of repeats is not a header.
  return new Set(names.map((n) => n.toLowerCase())).size >= names.length * 0.8;
}

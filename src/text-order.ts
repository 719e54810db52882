// Text in a fixed order without Intl: `localeCompare` loads ICU's collation data (+2.6 MiB of RSS for the rest of
// the run, issue 23). Used where the order is only for a stable output (ties of counts, currency codes).

/** Orders by UTF-16 code units, as `<` does: the same in every locale ('B' before 'a'). */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

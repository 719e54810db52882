// The values a target was delivered, per currency, for the value guard (issue 25): both backends read the
// delivered rows of each place a key's delivery is kept (SQLite: records, staged, the batch journal;
// PostgreSQL: records, the journal), each bounded, and this pure step combines them into one sample.

/** Values delivered to a target, per currency (Ledger.deliveredValues). */
export interface DeliveredValues {
  /** Per currency, the values of the delivered records read. */
  readonly values: Record<string, number[]>;
  /** The target has more delivered records than were read: `values` is a sample (the first keys in key order). */
  readonly sampled: boolean;
}

export interface DeliveredValuesOptions {
  /** Records read at most, over all currencies (and again per currency probed). */
  readonly limit: number;
  /**
   * Currencies to look for when the sample holds none of them: a currency rare in a big ledger must not
   * read as "never delivered". Each is probed apart, up to `limit` of its records.
   */
  readonly currencies?: readonly string[];
}

/** A delivered key as a backend reads it: key, currency, value. */
export type DeliveredRow = readonly [key: string, currency: string | null, value: number | null];

/**
 * One sample from the sources' rows, coldest first (a later source's row of a key wins: a hotter place
 * holds its newer delivery): the first `limit` keys in key order. Rows without an amount are left out.
 */
export function sampleDelivered(
  sources: readonly (readonly DeliveredRow[])[],
  limit: number,
): DeliveredValues {
  const byKey = new Map<string, DeliveredRow>();
  for (const rows of sources) for (const row of rows) byKey.set(row[0], row);
  const keys = [...byKey.keys()].sort();
  const values: Record<string, number[]> = {};
  for (const key of keys.slice(0, limit)) {
    const [, currency, value] = byKey.get(key)!;
    if (currency === null || typeof value !== 'number') continue;
    const list = values[currency];
    if (list) list.push(value);
    else values[currency] = [value];
  }
  return { values, sampled: keys.length > limit || sources.some((rows) => rows.length >= limit) };
}

/** The probes' values added for the currencies the sample lacked. */
export function withProbed(sample: DeliveredValues, probed: Record<string, number[]>): DeliveredValues {
  const values = { ...sample.values };
  for (const [currency, list] of Object.entries(probed)) if (list.length > 0) values[currency] ??= list;
  return { values, sampled: sample.sampled };
}

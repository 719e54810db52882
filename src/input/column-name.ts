// Column names are matched case- and space-insensitively: `Conversion Time`, `conversion time`
// and `ConversionTime` are the same column.

/** The key a header name is matched by: spaces removed, lower case (init's guess uses it too). */
export function normalizeColumnName(name: string): string {
  return name.replace(/\s+/g, '').toLowerCase();
}

/** Column positions by normalized name; a name written twice keeps its first position. */
export function headerIndex(header: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  header.forEach((name, i) => {
    const key = normalizeColumnName(name);
    if (!index.has(key)) index.set(key, i);
  });
  return index;
}

// Column names are matched case- and space-insensitively: `Conversion Time`, `conversion time`
// and `ConversionTime` are the same column.

export function normalizeColumnName(name: string): string {
  return name.replace(/\s+/g, '').toLowerCase();
}

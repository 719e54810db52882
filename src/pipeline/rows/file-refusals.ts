// Files refused whole, before any of their rows is sent: a lookalike of the preset's export, a value or
// datetime column the file lacks, nothing that links a conversion to a visitor. One error, not a row each.
import { ConfigError, UnlinkableError, WrongReportError } from '../../errors.js';
import { headerIndex, normalizeColumnName } from '../../input/column-name.js';
import { previewCells } from '../../input/csv.js';
import type { SourceRow } from '../../input/types.js';
import type { BoundField, BoundMapping } from '../../mapping/compile-mapping.js';
import type { Preset } from '../../mapping/presets/types.js';
import { didYouMean, nearColumns } from '../../similar.js';

/** A field something fills: a column or path the file has, a constant, or a default. */
function isFilled(f: BoundField): boolean {
  return f.get !== undefined || f.constant !== undefined || f.fallback !== undefined;
}

/**
 * A value or datetime whose column the file does not have (a preset's `Day` in a week-segmented report):
 * every row would be rejected as "the cell is empty", so the run stops once, naming the column and the
 * header's near matches. A default (mapping.defaults) fills the field instead and is no error.
 */
export function refuseAbsentColumns(bound: BoundMapping, preset: Preset | undefined): void {
  if (bound.source.format !== 'csv') return;
  const header = bound.source.header ?? [];
  for (const field of ['conversionValue', 'conversionDatetime'] as const) {
    const f = bound.fields[field];
    if (isFilled(f)) continue;
    if (f.column === field) {
      throw new ConfigError(`${bound.source.file}: the mapping gives no column for ${field}`, {
        hint: `map it: mapping.fields.${field}: "<column>"`,
      });
    }
    const spec = f.spec;
    const written = spec.columns ?? (spec.column === undefined ? [f.column] : [spec.column].flat());
    const near = [...new Set(written.flatMap((c) => nearColumns(c, header)))].slice(0, 3);
    const who = preset
      ? ` (the ${preset.name} preset reads ${field} from ${written.map((c) => `"${c}"`).join(' or ')})`
      : '';
    throw new ConfigError(
      `${bound.source.file}: no column ${written[0]} in this file for ${field}${who}` +
        (near.length > 0 ? `; ${didYouMean(near)}` : ''),
      {
        hint:
          `map it to a column of this file: mapping.fields.${field}: "<column>" ` +
          `(the header, line ${bound.source.headerLine ?? 1}, has: ${previewCells(header)})`,
      },
    );
  }
}

/**
 * A file in which nothing can link a conversion to a visitor (no visitor id, no e-mail: Etsy Sold Orders,
 * Shopify Payments, AWIN) would have every row rejected: the run stops at once, before anything is sent,
 * saying what is missing and how to supply it.
 */
export function refuseUnlinkable(bound: BoundMapping, preset: Preset | undefined): void {
  if (isFilled(bound.fields.serviceId) || isFilled(bound.fields.conversionEmail)) return;
  const file = bound.source.file;
  const what = preset ? `a ${preset.title}` : 'this file';
  throw new UnlinkableError(
    `${file}: no conversion in it can be attributed: ${what} has no customer e-mail or visitor id column ` +
      `(looked for ${bound.fields.conversionEmail.column} and ${bound.fields.serviceId.column})`,
    {
      hint:
        'map mapping.fields.serviceId or mapping.fields.conversionEmail to a column holding it, or take it from ' +
        'another export by a shared key: mapping.lookup: { file: orders.csv, key: <column here>, match: <column ' +
        'there> } and mapping.fields.conversionEmail: { lookup: Email } (README: "Fields from a second file")',
    },
  );
}

/** A file that looks like the preset's export but is another one (abandoned checkouts for orders): refused. */
export function refuseLookalike(preset: Preset, row: SourceRow & { kind: 'csv' }): void {
  const header = row.source.header ?? [];
  const index = headerIndex(header);
  const cell = (name: string) => {
    const i = index.get(normalizeColumnName(name));
    return i === undefined ? undefined : row.cells[i]?.trim();
  };
  const reason = preset.refuse?.(cell);
  if (reason !== undefined) {
    throw new WrongReportError(`${row.source.file} is not a ${preset.title}: ${reason}`, {
      hint: 'nothing was sent; export the right report and run again',
    });
  }
}

// A built-in mapping preset: the mapping base for one platform's export, plus what identifies it.
import type { MappingInput } from '../../config/schema.js';
import type { AbbreviationReading } from '../../record/zone-abbreviations.js';

export interface Preset {
  /** Name used in `mapping.preset` and `revimport presets <name>`, e.g. `google-ads`. */
  name: string;
  /** One line for `revimport presets`. */
  title: string;
  /** The export this preset reads, and where it comes from. */
  description: string;
  /** One line for `revimport presets`: which rows count as revenue, and the value sent. */
  policy: string;
  /**
   * Where the format is known from: `real` when the preset was tried on real exports found in public
   * repositories (docs/formats.md names them), `documented` when only from the platform's documentation
   * or third-party code ("documented, no real sample seen").
   */
  seen: 'real' | 'documented';
  /** The format this preset reads. */
  format: 'csv' | 'jsonl';
  /**
   * Detection: a header matches when it holds every `all` column and, if `any` is given, at least one
   * of `any` (names compared with normalizeColumnName). For JSON lines: dotted paths present in the first object.
   */
  detect: {
    all: string[];
    any?: string[];
    /**
     * Columns that identify the preset in a header holding none of `any`, but rank below any preset that found
     * one of its own `any` there: Google's leads upload has Email instead of a click id, and a Microsoft upload
     * with an Email column added for linking must stay Microsoft's.
     */
    fallback?: string[];
  };
  /** The mapping base; a user's `mapping.fields` override it field by field. */
  mapping: MappingInput;
  /**
   * Look-alike exports: given the first data row's cells by column name, a reason when the file is some
   * other export with the same header (Shopify abandoned checkouts for orders). The file is then refused.
   */
  refuse?: (cell: (column: string) => string | undefined) => string | undefined;
  /**
   * What the zone abbreviations the platform writes mean when no configured zone decides: PayPal writes an
   * account's North American or European ones, so its PST is Pacific (UTC-8), not Philippine. `writer`
   * names the platform in the run's note ("PST read as Pacific Standard Time ..., as PayPal writes it").
   * A configured `timezone` still decides first; `mapping.zoneAbbreviations` overrides the reading.
   */
  abbreviations?: { reading: AbbreviationReading; writer: string };
  /**
   * `per-file`: the platform writes dates in the account's locale order (PayPal: `03/05/2024` is March 5 from
   * a US account, 3 May from a UK one), so the day/month order of the preset's slash formats is decided per
   * file from all its rows (src/pipeline/date-order.ts). Unset: the formats are the platform's documented
   * ones (Google Ads and Microsoft Ads read `MM/dd/yyyy` month first whoever writes it).
   */
  dateOrder?: 'per-file';
  /** What `init` tells the user is still missing or how records are linked (e.g. "no visitor id: linked by e-mail"). */
  notes: string[];
}

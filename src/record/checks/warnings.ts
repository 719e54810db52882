// The per-file warnings: what a file's rows showed that deserves one warning rather than one issue per row
// (most values 0, offsets that contradict the configured zone, an abbreviation read with a preset's meaning).
import { quote } from '../../quote.js';
import type { AbbreviationMeaning } from '../zone-abbreviations.js';
import { formatAbbreviationOffset } from '../zone-abbreviations.js';

/** Rows of one file that showed one thing: how many, and the first one's example, which the warning quotes. */
export class Tally {
  count = 0;
  example = '';

  /** Counts one row; true for the first since the last reset (the caller then sets `example`). */
  add(): boolean {
    return this.count++ === 0;
  }

  reset(): void {
    this.count = 0;
    this.example = '';
  }
}

/** What the warnings name; fixed for the file. */
export interface WarningsAbout {
  file: string;
  /** The value's source column. */
  valueColumn: string;
  /** The region zone the records are named after, and the zone local times are read in. */
  namedZone: string | undefined;
  configuredZone: string | undefined;
  /** The platform whose reading of ambiguous abbreviations applies ("PayPal"); none: no note. */
  abbreviationsWriter: string | undefined;
}

export class FileWarnings {
  private valid = 0;
  private readonly zeros = new Tally();
  private readonly contradictions = new Tally();
  /** Ambiguous abbreviations read with a preset's meaning in this file (PST -> Pacific), for one note each. */
  private readonly assumed = new Map<string, string>();

  constructor(private readonly about: WarningsAbout) {}

  /** A row became a record worth `value`. */
  recordKept(value: number): void {
    this.valid++;
    if (value === 0) this.zeros.add();
  }

  /** The row's offset or abbreviation is not what `zone` has at that instant. */
  contradicted(raw: unknown, zone: string | undefined): void {
    if (this.contradictions.add())
      this.contradictions.example = `${quote(raw)} is not ${zone ?? 'the configured zone'}`;
  }

  /** An ambiguous abbreviation was read with the preset's meaning. */
  abbreviationAssumed(abbreviation: string, meaning: AbbreviationMeaning): void {
    const writer = this.about.abbreviationsWriter;
    if (!writer || this.assumed.has(abbreviation)) return;
    this.assumed.set(
      abbreviation,
      `${abbreviation} read as ${meaning.name}, ${formatAbbreviationOffset(meaning.offsetMinutes)}, as ` +
        `${writer} writes it; set \`timezone\` if your account is elsewhere`,
    );
  }

  /** The warnings of the rows checked since the last drain; then starts over. */
  drain(): string[] {
    const warnings: string[] = [];
    const zero = this.zeroWarning();
    if (zero !== undefined) warnings.push(zero);
    this.valid = 0;
    this.zeros.reset();
    // Said once per run (the checker drops repeats): no file name.
    warnings.push(...this.assumed.values());
    this.assumed.clear();
    const contradiction = this.contradictionWarning();
    if (contradiction !== undefined) warnings.push(contradiction);
    this.contradictions.reset();
    return warnings;
  }

  private zeroWarning(): string | undefined {
    const { file, valueColumn } = this.about;
    if (this.valid === 0 || this.zeros.count * 2 <= this.valid) return undefined;
    return (
      `${file}: ${this.zeros.count} of ${this.valid} valid rows have the value 0 (column ${valueColumn}): ` +
      'is it the revenue column?'
    );
  }

  private contradictionWarning(): string | undefined {
    const { count, example } = this.contradictions;
    if (count === 0) return undefined;
    const { file, namedZone, configuredZone } = this.about;
    return (
      `${file}: ${count} row${count === 1 ? '' : 's'} carry an offset or zone abbreviation ` +
      `that ${namedZone ?? configuredZone ?? 'the configured zone'} does not have at that time (e.g. ${example}): ` +
      `their instants are kept as written${namedZone === undefined ? ', with the zone their offset names' : `, with the zone ${namedZone}`}; check \`timezone\``
    );
  }
}

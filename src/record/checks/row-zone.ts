// The zone a row's local time is read in: the row's zone column (an IANA name, an offset or an
// abbreviation), else the file's Parameters zone, else the configured default.
import { quote } from '../../quote.js';
import { canonicalZone } from '../zone.js';
import { lookupAbbreviation } from '../zone-abbreviations.js';
import type { Candidate } from './candidate.js';
import type { FileRules } from './file-rules.js';
import { offsetZone } from './file-zones.js';
import { addIssue, pushIssue, type RowDraft } from './row-draft.js';
import { textOf } from './text.js';

export function checkRowZone(draft: RowDraft, c: Candidate, rules: FileRules): void {
  const { configuredZone, configuredIsOffset, badFileZone } = rules.zones;
  draft.rowZone = configuredZone;
  draft.rowZoneIsOffset = configuredIsOffset;
  const rawZone = textOf(c.conversionTimezone, undefined);
  draft.rawZone = rawZone;
  if (rawZone === undefined) {
    if (badFileZone !== undefined) {
      pushIssue(draft, {
        column: 'Parameters:TimeZone',
        value: badFileZone,
        reason: 'unknown time zone',
        message: `the file's time zone ${quote(badFileZone)} is neither an IANA name nor a whole-hour offset; set a zone column or fix the Parameters row`,
      });
    }
    return;
  }
  const canonical = canonicalZone(rawZone);
  const zone = canonical ?? offsetZone(rawZone);
  // An abbreviation (PDT) is an offset: the datetime is read with it, and the configured zone
  // decides the record's zone when it has that offset then.
  const abbreviation = zone === undefined ? lookupAbbreviation(rawZone) : undefined;
  draft.rowAbbreviation = abbreviation;
  if (zone === undefined && abbreviation === undefined) {
    const message = `${quote(rawZone)} is neither an IANA time zone name nor a zone abbreviation (like PDT)`;
    addIssue(draft, rules.fields.conversionTimezone.column, rawZone, 'unknown time zone', message);
  }
  draft.rowZone = abbreviation === undefined ? zone : configuredZone;
  draft.rowZoneIsOffset = zone !== undefined && canonical === undefined;
}

/** Whether the row's time can be read: its zone is known, or it has none and the file's zone is not bad. */
export function zoneReadable(draft: RowDraft, rules: FileRules): boolean {
  return (
    (draft.rawZone === undefined && rules.zones.badFileZone === undefined) ||
    draft.rowZone !== undefined ||
    draft.rowAbbreviation !== undefined
  );
}

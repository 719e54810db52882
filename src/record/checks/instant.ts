// conversionDatetime and conversionTimezone: the row's time read in its zone, within the plausible
// bounds, and the zone the record is named after (a region whenever one is known).
import { quote } from '../../quote.js';
import { type DatetimeResult, formatUtc } from '../datetime.js';
import { fixedOffsetZone, offsetAt } from '../zone.js';
import type { Candidate } from './candidate.js';
import type { FileRules } from './file-rules.js';
import { isRegionZone } from './file-zones.js';
import { addIssue, type RowDraft } from './row-draft.js';
import { zoneReadable } from './row-zone.js';
import { emptyWhy } from './text.js';

type ParsedTime = Extract<DatetimeResult, { ok: true }>;

export function checkDatetime(draft: RowDraft, c: Candidate, rules: FileRules): void {
  const field = rules.fields.conversionDatetime;
  const raw = c.conversionDatetime;
  if (raw === undefined) {
    addIssue(
      draft,
      field.column,
      '',
      'missing datetime',
      `conversionDatetime is required but ${emptyWhy(field)}`,
    );
    return;
  }
  if (typeof raw !== 'string' && typeof raw !== 'number') {
    addIssue(draft, field.column, raw, 'invalid datetime', 'the datetime is not text or a number');
    return;
  }
  if (!zoneReadable(draft, rules)) return;
  const parsed = rules.parseTime(raw, draft.rowZone, draft.rowAbbreviation);
  if (!parsed.ok) addIssue(draft, field.column, raw, parsed.reason, parsed.message);
  else if (parsed.utcMs < rules.earliestMs || parsed.utcMs > rules.latestMs) {
    addIssue(draft, field.column, raw, 'implausible datetime', implausible(raw, parsed.utcMs, rules));
  } else {
    draft.datetime = formatUtc(parsed.utcMs);
    if (parsed.contradicts) rules.warnings.contradicted(raw, draft.rowZone);
    if (parsed.assumed)
      rules.warnings.abbreviationAssumed(parsed.assumed.abbreviation, parsed.assumed.meaning);
    draft.timezone = recordZone(draft, parsed, raw, rules);
  }
}

function implausible(raw: string | number, utcMs: number, rules: FileRules): string {
  return utcMs < rules.earliestMs
    ? `${quote(raw)} is ${formatUtc(utcMs)}, before ${formatUtc(rules.earliestMs).slice(0, 10)}: a placeholder or a typo (set \`earliest\` to accept older conversions)`
    : `${quote(raw)} is ${formatUtc(utcMs)}, in the future (set \`futureHours\` to accept later times)`;
}

/** The record's zone: the time's own zone name, else the row's zone when its offset agrees, else a region. */
function recordZone(draft: RowDraft, parsed: ParsedTime, raw: unknown, rules: FileRules): string {
  const { rowZone } = draft;
  const { namedZone } = rules.zones;
  let rowZoneIsOffset = draft.rowZoneIsOffset;
  let timezone: string;
  if (parsed.zone !== undefined) timezone = parsed.zone;
  else if (parsed.offsetMinutes !== undefined && parsed.offsetMinutes !== 0 && rowZone !== undefined) {
    // A written offset is a statement about the zone: one the zone does not have then keeps its
    // instant and is not given the configured zone's name.
    if (offsetAt(rowZone, parsed.utcMs) === parsed.offsetMinutes) timezone = rowZone;
    else {
      // The instant is the offset's; the record keeps the row's or the configured region zone.
      const region = isRegionZone(rowZone) ? rowZone : namedZone;
      rules.warnings.contradicted(raw, region ?? rowZone);
      timezone = region ?? fixedOffsetZone(parsed.offsetMinutes) ?? 'UTC';
      rowZoneIsOffset = false;
    }
  }
  // An instant (Z, epoch) with no zone anywhere: the instant is exact, its zone unknown.
  else timezone = rowZone ?? 'UTC';
  if (rowZoneIsOffset && timezone === rowZone && namedZone !== undefined) {
    // Read with a fixed offset (Microsoft's `-0500`), named after the known zone; counted when
    // that zone has another offset then (New York in summer).
    if (offsetAt(namedZone, parsed.utcMs) !== offsetAt(rowZone, parsed.utcMs))
      rules.warnings.contradicted(raw, namedZone);
    timezone = namedZone;
  }
  return timezone;
}

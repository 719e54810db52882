// The row draft: what the checks of one row have found so far (each field's value once read, and the
// issues). One draft per file, reset per row, so a row costs no allocation beyond its issues and record.
import type { Issue } from '../../report/rejection.js';
import type { Abbreviation } from '../zone-abbreviations.js';
import type { Candidate } from './candidate.js';
import type { FileRules } from './file-rules.js';
import { display } from './text.js';

export interface RowDraft {
  /** Created at the first issue: a valid row allocates none. */
  issues: Issue[] | undefined;
  value: number | undefined;
  /** The currency written next to the amount (`€12.50`), and the record's currency. */
  amountCurrency: string | undefined;
  currency: string | undefined;
  /** What comes off the value: refunded (under refunds: net) and not captured. */
  refunded: number;
  unpaid: number;
  /** The zone column as written, and the zone the row's local time is read in. */
  rawZone: string | undefined;
  rowZone: string | undefined;
  /** The row's zone is a fixed offset (`-0500`), not a region. */
  rowZoneIsOffset: boolean;
  /** The zone column held an abbreviation (PDT), which gives the offset. */
  rowAbbreviation: Abbreviation | undefined;
  datetime: string | undefined;
  timezone: string | undefined;
  email: string | undefined;
  serviceId: string | undefined;
  conversionId: string | undefined;
  conversionName: string | undefined;
}

/** One step of the row path: reads the candidate, writes what it found (or an issue) into the draft. */
export type RowCheck = (draft: RowDraft, candidate: Candidate, rules: FileRules) => void;

export function newRowDraft(): RowDraft {
  const draft = {} as RowDraft;
  resetRowDraft(draft);
  return draft;
}

export function resetRowDraft(draft: RowDraft): void {
  draft.issues = undefined;
  draft.value = undefined;
  draft.amountCurrency = undefined;
  draft.currency = undefined;
  draft.refunded = 0;
  draft.unpaid = 0;
  draft.rawZone = undefined;
  draft.rowZone = undefined;
  draft.rowZoneIsOffset = false;
  draft.rowAbbreviation = undefined;
  draft.datetime = undefined;
  draft.timezone = undefined;
  draft.email = undefined;
  draft.serviceId = undefined;
  draft.conversionId = undefined;
  draft.conversionName = undefined;
}

/** An issue on `column` (the source column as the user knows it), its value shown bounded. */
export function addIssue(
  draft: RowDraft,
  column: string,
  value: unknown,
  reason: string,
  message: string,
): void {
  pushIssue(draft, { column, value: display(value), reason, message });
}

export function pushIssue(draft: RowDraft, issue: Issue): void {
  if (draft.issues === undefined) draft.issues = [issue];
  else draft.issues.push(issue);
}

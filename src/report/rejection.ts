// A row that is not delivered, as data: why, and where it came from (file, physical line, source column).
import type { SourceRow } from '../input/types.js';

/** One thing wrong with a row, named in the user's terms (the source column, not the internal field). */
export interface Issue {
  /** The source column header as written, the JSON path, or a field name when no column is mapped. */
  column: string;
  /** The offending value as text (e-mails masked); '' when missing. */
  value: string;
  /** Short grouping key, e.g. `invalid currency`, `duplicate`, `rejected by server`. */
  reason: string;
  /** A full sentence. */
  message: string;
}

export interface Rejection {
  file: string;
  line: number;
  /**
   * `invalid`: failed local checks; `rejected`: refused by the server; `failed`: not delivered after
   * retries; `skipped`: changed since delivered; `not revenue`: left out by the mapping's policy (not
   * paid, refunded in full, not a purchase), written only with --rejects-skipped.
   */
  stage: 'invalid' | 'rejected' | 'failed' | 'skipped' | 'not revenue';
  issues: Issue[];
  /** The record as JSON when there is no source row (a record resent from the ledger). */
  raw?: string;
  /** The row as read, for the rejects file (original columns). */
  row: SourceRow | undefined;
  /**
   * The request body this record went out in, when the server's answer (or its absence) was about the
   * whole body: the summary shows one example per body, not one per record.
   */
  batch?: { id: number; records: number };
}

/** `jane.doe@example.com` -> `j***@example.com`: enough to find the row, not enough to leak the address. */
export function maskEmail(value: string): string {
  const at = value.lastIndexOf('@');
  if (at <= 0) return value.length <= 2 ? '***' : `${value[0]}***`;
  return `${value[0]}***${value.slice(at)}`;
}

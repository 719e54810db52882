// Problems an earlier run reported already (issue 20): an invalid row read again with the same content
// and the same reasons is counted `knownInvalid` and not reported again, so a bad export left in the
// folder makes one run exit 1, not every later one. The ledger keeps the fingerprints per target.
import { createHash } from 'node:crypto';
import type { SourceRow } from '../input/types.js';
import type { ReportedIn } from '../ledger/types.js';
import type { Rejection } from '../report/rejection.js';

/**
 * The row's content as read plus what is wrong with it: the source columns and cells (CSV), the line
 * (JSON lines, malformed lines), never the file name or line number, so a renamed or re-downloaded export
 * of the same rows is known. Another reason for the same row (a mapping fixed, a new check) is new.
 */
export function problemFingerprint(rejection: Rejection): string {
  const hash = createHash('sha256');
  hash.update(rowContent(rejection.row, rejection.raw));
  for (const issue of rejection.issues) hash.update(`\u0000${issue.column}\u0001${issue.reason}`);
  return hash.digest('base64url').slice(0, 22);
}

function rowContent(row: SourceRow | undefined, raw: string | undefined): string {
  if (!row) return `raw\u0000${raw ?? ''}`;
  if (row.kind === 'malformed') return `malformed\u0000${row.raw}`;
  if (row.kind === 'json') return `json\u0000${row.text.trim()}`;
  // The header too: the same cells under other columns are another row.
  return `csv\u0000${framed(row.source.header ?? [])}\u0000${framed(row.cells)}`;
}

/** Each cell with its length first: no cell's content can pass for a boundary between two cells. */
function framed(cells: readonly string[]): string {
  let out = '';
  for (const cell of cells) out += `${cell.length}:${cell}`;
  return out;
}

/** The known set of one target, read once per run, and what this run reports for the first time. */
export class KnownProblems {
  readonly #earlier: ReadonlyMap<string, ReportedIn>;
  readonly #fresh = new Set<string>();
  /** `--report-known`: known rows are written to the rejects file and listed again (still counted known). */
  readonly reportKnown: boolean;

  constructor(earlier: ReadonlyMap<string, ReportedIn>, reportKnown = false) {
    this.#earlier = earlier;
    this.reportKnown = reportKnown;
  }

  /** The earlier run that reported this rejection, or undefined: new, and remembered for this run's record. */
  reportedBefore(rejection: Rejection): ReportedIn | undefined {
    const fingerprint = problemFingerprint(rejection);
    const earlier = this.#earlier.get(fingerprint);
    if (!earlier) this.#fresh.add(fingerprint);
    return earlier;
  }

  /** Fingerprints this run reported first, for the ledger (FinishRunInput.reported). */
  get fresh(): string[] {
    return [...this.#fresh];
  }
}

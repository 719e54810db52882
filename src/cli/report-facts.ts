// What a push gathers for its run report (issue 25) as it goes, the report built from it at the end (saved
// with the run, written by --report), and the mask every text of it passes: e-mails, a URL's password, the key.
import { writeFileSync } from 'node:fs';
import { maskUrl } from '../ledger/postgres/connection.js';
import { DayRevenueTally } from '../pipeline/day-revenue.js';
import { buildRunReport, maskEmails } from '../report/build-run-report.js';
import { renderRunReport } from '../report/render-run-report.js';
import type { RunReport } from '../report/run-report.js';
import { emptySummary, type Summary } from '../report/summary.js';

export class ReportFacts {
  readonly startedAt: Date;
  /** `push`, `push --check` or `retry`. */
  command = 'push';
  files: readonly string[] = [];
  /** Told each record the run delivered (--check: each valid record). */
  readonly revenue = new DayRevenueTally();
  /** The ledger's id of the run, once it holds the ledger (--check: none). */
  runId: number | null = null;
  /** The rejects file, absolute, once the run wrote its first row there. */
  rejectsFile: string | null = null;
  /** `push --report`: the page to write at the end, absolute, once its path was checked. */
  out: string | null = null;
  /** The API key, so that no text of the report can hold it. */
  apiKey: string | undefined;

  constructor(startedAt: Date) {
    this.startedAt = startedAt;
  }

  /** The report of the run as it ended: `summary` undefined when an error ended it before it counted. */
  report(summary: Summary | undefined, exitCode: number | null, finishedAt: Date): RunReport {
    const check = this.command.endsWith('--check');
    return buildRunReport(
      {
        runId: this.runId,
        startedAt: this.startedAt,
        finishedAt,
        command: this.command,
        files: this.files,
        summary: summary ?? emptySummary(check),
        revenue: this.revenue.toJSON(),
        rejectsFile: this.rejectsFile,
        exitCode,
      },
      hideSecrets(this.apiKey),
    );
  }
}

/** The mask of every text in a report: e-mails, the password of any URL in it, and the API key itself. */
export function hideSecrets(apiKey: string | undefined): (text: string) => string {
  return (text) => {
    const keyless = apiKey ? text.split(apiKey).join('***') : text;
    // A URL's user is no e-mail: URLs get maskUrl (the password), the text between them the e-mail mask.
    const pieces = keyless.split(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+)/i);
    return pieces.map((piece, i) => (i % 2 === 1 ? maskUrl(piece) : maskEmails(piece))).join('');
  };
}

/** Writes the report page (mode 0644: it holds no secret; the rejects file it links to is 0600). */
export function writeReportFile(file: string, report: RunReport): void {
  writeFileSync(file, renderRunReport(report));
}

import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { counted, renderSummary } from '../../src/cli/render.js';
import { runPipeline } from '../../src/pipeline/run.js';
import type { Rejection } from '../../src/report/rejection.js';
import { ErrorCollector, emptySummary, type Summary } from '../../src/report/summary.js';
import { tempDir } from '../helpers/cli.js';
import { orderFields, testSettings } from '../helpers/settings.js';

const summaryOf = (fields: Partial<Summary>): Summary => ({ ...emptySummary(false), ...fields });

/** One record of a body of `records` that failed as a whole (what deliver-items reports). */
const failedRecord = (line: number, batchId: number, records: number): Rejection => ({
  file: 'a.csv',
  line,
  stage: 'failed',
  row: undefined,
  issues: [
    {
      column: '(record)',
      value: `A-${line}`,
      reason: 'delivery failed',
      message: 'gave up after 6 attempts: ECONNREFUSED; kept for the next run',
    },
  ],
  batch: { id: batchId, records },
});

describe('renderSummary', () => {
  it('says 1 row, 1 request, 1 batch, 1 duplicate in the singular', () => {
    const text = renderSummary(summaryOf({ rowsRead: 1, valid: 1, duplicates: 1, requests: 1, batches: 1 }));
    expect(text).toContain('1 row read, 1 valid, 0 invalid (1 duplicate)');
    expect(text).toContain('1 request in 1 batch,');
    expect(renderSummary(summaryOf({ rowsRead: 2, requests: 3, batches: 2 }))).toContain(
      '3 requests in 2 batches,',
    );
    expect(counted(0, 'batch', 'batches')).toBe('0 batches');
  });

  it('says why a run the value guard stopped sent nothing, also where --quiet hides its warning (issue 25)', () => {
    const message = "EUR: the median value of this run's 60 records is 3,450, 100 times the median 34.5 …";
    const guard = {
      verdict: 'stopped' as const,
      currencies: [],
      findings: [{ kind: 'median-shift' as const, currency: 'EUR', message }],
      missingDays: [],
    };
    const text = renderSummary(summaryOf({ rowsRead: 60, valid: 60, notSent: 60, guard }));
    expect(text).toContain(`value guard: ${message}\n`);
    expect(text).toContain('not sent: the value guard stopped the run (exit 6)');
    expect(text).toContain('--accept-shift');
    expect(text).not.toContain('the next push of the same files sends them');
  });

  it('calls rows a mapping.skip rule left out skipped, with the rule as the reason', async () => {
    // Through the pipeline: the summary a real mapping.skip run produces, rendered.
    const file = path.join(tempDir('revimport-render-'), 'orders.csv');
    writeFileSync(
      file,
      'id,email,time,total,currency,Status\n1,a@example.com,2024-07-01T10:00:00Z,5,USD,Paid\n' +
        '2,b@example.com,2024-07-01T11:00:00Z,6,USD,Failed\n3,c@example.com,2024-07-01T12:00:00Z,7,USD,failed\n',
    );
    const summary = await runPipeline(
      testSettings({
        mappingInput: {
          fields: orderFields,
          skip: [{ column: 'Status', in: ['Failed'] }],
        },
      }),
      { files: [file], check: true, resend: false },
      { userAgent: 't', now: () => 0 },
    );
    const text = renderSummary(summary);
    // Each reason is the value as written: `Failed` and `failed` are counted apart (ties in code-unit order).
    expect(text).toContain('3 rows read, 1 valid, 0 invalid, 2 skipped (1 Status: Failed, 1 Status: failed)');
    expect(text).not.toMatch(/dropped|transform/);
  });

  it('prints one line per failed body, not per record, with the code explained', () => {
    const errors = new ErrorCollector();
    for (let line = 2; line <= 501; line++) errors.add(failedRecord(line, 1, 500));
    for (let line = 502; line <= 701; line++) errors.add(failedRecord(line, 2, 200));
    const text = renderSummary(
      summaryOf({ rowsRead: 700, valid: 700, failed: 700, errors: errors.groups() }),
    );
    const lines = text.split('\n');
    const start = lines.indexOf('delivery failed: 700');
    expect(lines.slice(start, start + 4)).toEqual([
      'delivery failed: 700',
      '  batch of 500 records from a.csv:2 (first "A-2"): gave up after 6 attempts: the connection was refused: nothing listens at that address and port (ECONNREFUSED); kept for the next run',
      '  batch of 200 records from a.csv:502 (first "A-502"): gave up after 6 attempts: the connection was refused: nothing listens at that address and port (ECONNREFUSED); kept for the next run',
      '',
    ]);
  });

  it('a retry reads no file: no "0 rows read" line', () => {
    const summary = summaryOf({ retried: 5, retriedSent: 5, requests: 1, batches: 1 });
    expect(renderSummary(summary, { command: 'retry' })).not.toContain('rows read');
    expect(renderSummary(summary, { command: 'retry' })).toContain(
      'resent from earlier runs 5: delivered 5\n',
    );
    expect(renderSummary(summary)).toContain('0 rows read');
  });

  it("keeps records of earlier runs resent apart from this run's rows (issue 20)", () => {
    const summary = summaryOf({
      rowsRead: 5000,
      valid: 5000,
      alreadySent: 5000,
      retried: 5000,
      retriedSent: 4998,
      retriedFailed: 2,
    });
    const text = renderSummary(summary);
    expect(text).toContain('delivered 0, rejected 0, failed 0, already sent 5000\n');
    expect(text).toContain('resent from earlier runs 5000: delivered 4998, failed 2\n');
  });

  it('says rows and orders when line items are folded (issue 20)', () => {
    const summary = summaryOf({ rowsRead: 101, folded: 51, valid: 50 });
    expect(renderSummary(summary)).toContain(
      '101 rows read, 50 orders (51 rows folded into them), 50 valid, 0 invalid',
    );
  });

  it('says what the ledger could not keep: records not sent, answers not recorded (issue 19)', () => {
    const text = renderSummary(summaryOf({ valid: 10, sent: 6, notSent: 4, unrecorded: 2 }));
    expect(text).toContain('delivered 6, rejected 0, failed 0, already sent 0, not sent 4\n');
    expect(text).toContain(
      'not sent: 4 records the run stopped before, not in the ledger: the next push of the same files sends them',
    );
    expect(text).toContain('not recorded: 2 records answered by the server, the ledger could not record');
    expect(renderSummary(summaryOf({ valid: 1, sent: 1 }))).not.toContain('not ');
  });
});

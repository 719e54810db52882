// Issue 20, "counts that add up": each example the issue quotes, run end to end (bin/revimport.js, a real
// receiver, a real ledger, a pseudo-terminal for the spinner). runCli checks the identities of every --json
// line as well (src/report/identities.ts, test/helpers/cli.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeEach, describe, expect, it } from 'vitest';
import { violatedIdentities } from '../../src/report/identities.js';
import type { ScriptedResponse } from '../../src/testing/receiver.js';
import { root, runCli, tempDir } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { acceptedIds, exportCsv, range } from '../helpers/exports.js';
import { hasScript, runInPty } from '../helpers/pty.js';

const key = 'e2e-counts-key-5e21';
const shopify = path.join(root, 'fixtures/presets/shopify/orders_export.csv');

const e2e = useE2E({
  key,
  startFirst: true,
  receiver: {
    honourIdempotencyKey: false,
    intercept: (elements) => {
      const first = Number((elements?.[0] as { conversionId?: string } | undefined)?.conversionId);
      return down || first <= failUpTo ? outage : undefined;
    },
  },
});
/** While true the receiver answers 503 to every request (a CRM that is down). */
let down = false;
/** Bodies whose first conversionId is at most this are answered 503 too. */
let failUpTo = 0;
let file: string;

const outage: ScriptedResponse = { status: 503, body: '{"error":"down"}' };

beforeEach(() => {
  down = false;
  failUpTo = 0;
  file = path.join(e2e.work, 'orders.csv');
});

const env = () => e2e.env();

async function push(...flags: string[]) {
  const result = await runCli(['push', file, '-c', e2e.config, '--retries', '0', ...flags], {
    cwd: e2e.work,
    env: env(),
  });
  return { ...result, summary: flags.includes('--json') ? JSON.parse(result.stdout) : undefined };
}

describe('a re-run after a failure', () => {
  it('counts the records of the failed run it resends apart from the rows of this run', async () => {
    writeFileSync(file, exportCsv({ to: 300 }));
    down = true;
    expect((await push('--json')).summary).toMatchObject({ valid: 300, failed: 300, sent: 0 });
    down = false;

    const again = await push('--json');
    expect(again.code).toBe(0);
    // Was: sent 300, alreadySent 300, retried 300 for a 300-row file (600 outcomes for 300 records).
    expect(again.summary).toMatchObject({
      valid: 300,
      sent: 0,
      alreadySent: 300,
      retried: 300,
      retriedSent: 300,
    });
    expect(violatedIdentities(again.summary)).toEqual([]);
    expect(acceptedIds(e2e.receiver.accepted)).toEqual(range(1, 300));

    // The text says it the same way: this run's rows on one line, the resent records on their own.
    down = true;
    writeFileSync(file, exportCsv({ from: 301, to: 310 }));
    await push();
    down = false;
    const text = await push();
    expect(text.stdout).toContain('delivered 0, rejected 0, failed 0, already sent 10\n');
    expect(text.stdout).toContain('resent from earlier runs 10: delivered 10\n');
  });

  it('a record that fails again is counted once for this run and once as resent, not twice as failed', async () => {
    writeFileSync(file, exportCsv({ to: 4 }));
    down = true;
    expect((await push('--json')).summary).toMatchObject({ failed: 4 });
    const again = await push('--json');
    expect(again.code).toBe(4);
    // Was: failed 4 and pending 4 for the 4 rows of this run (8 outcomes for 4 records).
    expect(again.summary).toMatchObject({ valid: 4, failed: 0, pending: 4, retried: 4, retriedFailed: 4 });
    expect(violatedIdentities(again.summary)).toEqual([]);
  });
});

describe('rows and orders (line items folded)', () => {
  it('init and push both say the same rows read and orders for a Shopify export of line-item rows', async () => {
    // Counted here with csv-parse, not revimport: every data row, and one order per run of rows with the same
    // Name (a line item follows its order; the fixture's Name repeated further down is a duplicate order).
    const rows: Record<string, string>[] = parse(readFileSync(shopify), { columns: true, bom: true });
    const orders = rows.filter((row, i) => i === 0 || row.Name !== rows[i - 1]?.Name).length;
    expect(rows.length).toBeGreaterThan(orders);
    const init = await runCli(['init', shopify], { cwd: tempDir() });
    expect(init.stdout).toContain(`of ${rows.length} rows read, ${orders} orders)`);
    const cwd = tempDir();
    const check = await runCli(['push', shopify, '--check', '--preset', 'shopify', '--json'], { cwd });
    const summary = JSON.parse(check.stdout);
    expect(summary).toMatchObject({ rowsRead: rows.length, folded: rows.length - orders });
    expect(summary.valid + summary.invalid + summary.skipped).toBe(orders);
    const text = await runCli(['push', shopify, '--check', '--preset', 'shopify'], { cwd });
    expect(text.stdout).toContain(
      `check: ${rows.length} rows read, ${orders} orders (${rows.length - orders} rows folded into them), ${summary.valid} valid, ${summary.invalid} invalid`,
    );
  });
});

describe('times', () => {
  it('--json durationMs is finishedAt - startedAt, and the summary text shows the same seconds', async () => {
    writeFileSync(file, exportCsv({ to: 20 }));
    // Slow answers make the time outside the pipeline (start-up, ledger) a small share: any gap shows.
    e2e.receiver.setDelay(300);
    const result = await push('--json');
    const line = result.summary;
    expect(line.durationMs).toBe(Date.parse(line.finishedAt) - Date.parse(line.startedAt));
    writeFileSync(file, exportCsv({ to: 40 }));
    const started = Date.now();
    const text = await push();
    const wall = (Date.now() - started) / 1000;
    const seconds = Number(/, ([\d.]+) s\n/.exec(text.stdout)?.[1]);
    // Not a timing assertion: the run's own seconds cannot exceed the wall time around the process, and
    // the pipeline alone (what it showed before) leaves out the process start and the ledger.
    expect(seconds).toBeLessThanOrEqual(wall + 0.05);
    const history = JSON.parse(
      (await runCli(['history', '--json', '--state', e2e.state], { cwd: e2e.work })).stdout,
    );
    expect(history[0].startedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(history[0].finishedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(history[0].durationMs).toBe(Date.parse(history[0].finishedAt) - Date.parse(history[0].startedAt));
  });
});

/**
 * Every spinner frame of `push <file> -c <config> <flags>` in a pty: `<rows> rows read, <delivered> delivered, ...`
 * and what follows it.
 */
async function spinnerFrames(...flags: string[]): Promise<{ code: number | null; frames: string[] }> {
  const args = ['push', file, '-c', e2e.config, ...flags];
  const { code, output } = await runInPty(args, { columns: 200, rows: 40, env: env(), cwd: e2e.work });
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's escape sequences are stripped
  const plain = output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '\n');
  return { code, frames: plain.match(/\d+ rows read, \d+ delivered[^\n]*/g) ?? [] };
}

describe.skipIf(!hasScript)('the spinner (a pseudo-terminal)', () => {
  const counts = (frame: string) =>
    frame
      .match(/^(\d+) rows read, (\d+) delivered/)!
      .slice(1)
      .map(Number);

  it('never shows more delivered than rows read', async () => {
    writeFileSync(file, exportCsv({ to: 6000 }));
    e2e.receiver.setDelay(20);
    const run = await spinnerFrames('--batch-size', '64', '--concurrency', '2');
    expect(run.code).toBe(0);
    expect(run.frames.length).toBeGreaterThan(0);
    const over = run.frames.filter((frame) => counts(frame)[1]! > counts(frame)[0]!);
    expect(over).toEqual([]);
  });

  it('does not count records that failed (kept for the next run) as rejected', async () => {
    writeFileSync(file, exportCsv({ to: 200 }));
    // The first half fails, the second is delivered: each delivery redraws the counts.
    failUpTo = 100;
    e2e.receiver.setDelay(100);
    const run = await spinnerFrames('--batch-size', '20', '--concurrency', '1', '--retries', '0');
    expect(run.code).toBe(4);
    expect(run.frames.length).toBeGreaterThan(0);
    expect(run.frames.filter((frame) => !frame.includes(' delivered, 0 rejected,'))).toEqual([]);
  });

  it('shows records of earlier runs resent apart, as resent from earlier runs', async () => {
    writeFileSync(file, exportCsv({ to: 200 }));
    down = true;
    // Bodies of 20: the resend is then ten slow requests, long enough for the spinner to draw (with one body of
    // 200 it could be over before the first frame: seen failing now and then on CI's Node 24 leg).
    await push('--batch-size', '20');
    down = false;
    e2e.receiver.setDelay(150);
    const run = await spinnerFrames('--batch-size', '20', '--concurrency', '1');
    expect(run.code).toBe(0);
    const resending = run.frames.filter((frame) => frame.includes('resent from earlier runs'));
    expect(resending.length).toBeGreaterThan(0);
    const over = run.frames.filter((frame) => counts(frame)[1]! > counts(frame)[0]!);
    expect(over).toEqual([]);
  });
});

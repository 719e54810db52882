// The value guard end to end (issue 25), on an SQLite ledger file and on the real PostgreSQL: history built
// by an ordinary export, then a cents run (every value x100), a shipping-column run (~1/20) and a run in a
// currency the target never had stop before sending (exit 6, the message, nothing at the receiver); an
// ordinary next day goes through; --accept-shift sends; without history nothing is checked or said. Gaps in a
// series: where earlier runs' reports show daily deliveries, a run with a hole warns naming the days, and sends.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../src/ledger/ledger.js';
import type { LedgerStore } from '../../src/ledger/ledger-store.js';
import { PostgresLedger } from '../../src/ledger/postgres/postgres-ledger.js';
import type { RunReport } from '../../src/report/run-report.js';
import { type CliResult, runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { defaultValue, header, writeConfig } from '../helpers/exports.js';
import { createDatabase, dropDatabase, skipPostgres } from '../helpers/postgres.js';

const key = 'guard-e2e-key-51d0';
const e2e = useE2E({ key, startFirst: true, receiver: { honourIdempotencyKey: false } });

/** Rows `from..to` (conversionIds), one second apart on 2024-05-01, in `currency`, valued `valueFor(id)`. */
function writeRows(
  name: string,
  from: number,
  to: number,
  valueFor = defaultValue,
  currency = 'EUR',
): string {
  const lines = [header];
  for (let id = from; id <= to; id++) {
    const time = new Date(Date.UTC(2024, 4, 1) + id * 1000).toISOString();
    lines.push([id, `v-${id}`, valueFor(id), currency, time].join(','));
  }
  const file = path.join(e2e.work, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const cents = (id: number) => String(Math.round(Number(defaultValue(id)) * 100));
const shipping = (id: number) => (Number(defaultValue(id)) / 20).toFixed(2);

describe.each(['sqlite', 'postgres'] as const)('the value guard on %s', (backend) => {
  const skip = backend === 'postgres' && skipPostgres();
  let state: string;
  beforeEach(async (context) => {
    if (skip) context.skip();
    state = backend === 'postgres' ? await createDatabase() : e2e.state;
  });
  afterEach(async () => {
    if (!skip && backend === 'postgres') await dropDatabase(state);
  });

  const push = async (file: string, extra: string[] = []) => {
    const result = await runCli(['push', file, '-c', e2e.config, '--json', ...extra], {
      cwd: e2e.work,
      env: e2e.env(e2e.receiver, key, state),
    });
    return { ...result, json: JSON.parse(result.stdout) as Record<string, unknown> & CliResult };
  };
  /** 200 ordinary orders delivered: the target's history. */
  const withHistory = async () => {
    const first = await push(writeRows('history.csv', 1, 200));
    expect(first.code, first.stderr).toBe(0);
    expect(first.json).toMatchObject({ sent: 200, guard: { verdict: 'no-history', findings: [] } });
    expect(e2e.receiver.accepted).toHaveLength(200);
  };

  it.each([
    ['cents (every value x100)', cents, 'EUR', 'median-shift', 'minor units (cents)'],
    ['a shipping column (~1/20 of the total)', shipping, 'EUR', 'median-shift', 'part-of-total column'],
    ['a currency the target never had', defaultValue, 'USD', 'new-currency', 'wrong currency column'],
  ])(
    'stops %s before sending: exit 6, the message, nothing at the receiver',
    async (_n, value, currency, kind, cause) => {
      await withHistory();
      const run = await push(writeRows('next.csv', 201, 260, value, currency));
      expect(run.code, run.stderr).toBe(6);
      expect(run.json).toMatchObject({ valid: 60, sent: 0, notSent: 60, exitCode: 6 });
      expect(run.json.guard).toMatchObject({ verdict: 'stopped', findings: [{ kind, currency }] });
      expect(run.stderr).toContain('value guard: stopped before sending (60 valid records held, none sent)');
      expect(run.stderr).toContain(cause);
      expect(run.stderr).toContain('--accept-shift');
      expect(e2e.receiver.accepted).toHaveLength(200);
      // Nothing of it is in the ledger: the same export checked and accepted later is sent whole.
      const accepted = await push(writeRows('next.csv', 201, 260, value, currency), ['--accept-shift']);
      expect(accepted.code, accepted.stderr).toBe(0);
      expect(accepted.json).toMatchObject({ sent: 60, guard: { verdict: 'accepted' } });
      expect(accepted.stderr).toContain('value guard: sent with --accept-shift although');
      expect(e2e.receiver.accepted).toHaveLength(260);
    },
  );

  it('lets an ordinary next day through, saying nothing', async () => {
    await withHistory();
    const run = await push(writeRows('next.csv', 201, 260));
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ sent: 60, guard: { verdict: 'passed', findings: [] } });
    expect(run.json.guard).toMatchObject({ currencies: [{ currency: 'EUR', run: { count: 60 } }] });
    expect(run.stderr).not.toContain('value guard');
    expect(e2e.receiver.accepted).toHaveLength(260);
  });

  it('without history checks nothing and says nothing', async () => {
    const run = await push(writeRows('cents.csv', 1, 10, cents));
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ sent: 10, guard: { verdict: 'no-history', findings: [] } });
    expect(run.stderr).not.toContain('value guard');
    // Fewer delivered records of a currency than minHistory (20) are no history either.
    const more = await push(writeRows('more.csv', 11, 40, (id) => String(Number(cents(id)) * 100)));
    expect(more.code, more.stderr).toBe(0);
    expect(more.json).toMatchObject({ sent: 30, guard: { verdict: 'no-history' } });
    expect(more.stderr).not.toContain('value guard');
    expect(e2e.receiver.accepted).toHaveLength(40);
  });
});

describe('the value guard past its hold (guard.holdRecords)', () => {
  it('decides on the first records held, sends them, and stops where a currency the target never had appears', async () => {
    const push = async (file: string) => {
      const result = await runCli(['push', file, '-c', e2e.config, '--json', '--batch-size', '10'], {
        cwd: e2e.work,
        env: e2e.env(),
      });
      return { ...result, json: JSON.parse(result.stdout) };
    };
    expect((await push(writeRows('history.csv', 1, 100))).code).toBe(0);
    writeConfig(e2e.work, { guard: { holdRecords: 20 } });
    // 30 ordinary EUR rows, then USD: the first 20 are decided on and released, the USD row stops the run.
    const lines = readFileSync(writeRows('eur.csv', 101, 130), 'utf8')
      .trimEnd()
      .split('\n');
    const usd = readFileSync(writeRows('usd.csv', 131, 140, defaultValue, 'USD'), 'utf8')
      .split('\n')
      .slice(1);
    const file = path.join(e2e.work, 'mixed.csv');
    writeFileSync(file, `${[...lines, ...usd].join('\n')}`);
    const run = await push(file);
    expect(run.code, run.stderr).toBe(6);
    expect(run.json.guard).toMatchObject({
      verdict: 'stopped',
      findings: [{ kind: 'new-currency', currency: 'USD' }],
    });
    expect(run.stderr).toContain('value guard: stopped reading: USD: 1 records in a currency');
    expect(run.json).toMatchObject({ sent: 30, notSent: 1 });
    expect(run.json.rowsRead).toBe(31);
    const ids = e2e.receiver.accepted.map((a) => Number(a.record.conversionId));
    expect(Math.max(...ids)).toBe(130);
    // The summary says what was sent stays sent (a late stop is not "nothing sent").
    const text = await runCli(['push', file, '-c', e2e.config, '--batch-size', '10'], {
      cwd: e2e.work,
      env: e2e.env(),
    });
    expect(text.code, text.stderr).toBe(6);
    expect(text.stdout).toContain(
      'the value guard stopped the run (exit 6), the 30 records before it went on as usual, 1 record not sent',
    );
    // Checked by the user: --accept-shift takes the late currency too, and the rest of the run is sent.
    const accepted = await runCli(['push', file, '-c', e2e.config, '--json', '--accept-shift'], {
      cwd: e2e.work,
      env: e2e.env(),
    });
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(JSON.parse(accepted.stdout)).toMatchObject({
      sent: 10,
      alreadySent: 30,
      notSent: 0,
      guard: { verdict: 'accepted', findings: [{ kind: 'new-currency', currency: 'USD' }] },
    });
    expect(accepted.stderr).toContain('value guard: sent with --accept-shift although USD:');
    expect(e2e.receiver.accepted.filter((a) => a.record.conversionCurrency === 'USD')).toHaveLength(10);
  });

  it('counts the held records not sent when the delivery stops while they are released (a refused key)', async () => {
    expect(
      (
        await runCli(['push', writeRows('history.csv', 1, 100), '-c', e2e.config], {
          cwd: e2e.work,
          env: e2e.env(),
        })
      ).code,
    ).toBe(0);
    // 3,000 ordinary records held whole, released in look-up spans (delivered-spans.ts); the first request gets a 401.
    const run = await runCli(['push', writeRows('next.csv', 101, 3100), '-c', e2e.config, '--json'], {
      cwd: e2e.work,
      env: e2e.env(e2e.receiver, 'not-the-key-9f3a'),
    });
    expect(run.code, run.stderr).toBe(3);
    const json = JSON.parse(run.stdout);
    expect(json).toMatchObject({ valid: 3000, sent: 0, guard: { verdict: 'passed' } });
    // Every valid record has one outcome: none dropped from the counts between the guard and the delivery.
    const outcomes = ['sent', 'alreadySent', 'changed', 'rejected', 'failed', 'pending', 'notSent'];
    expect(outcomes.reduce((sum, k) => sum + (json[k] as number), 0)).toBe(3000);
  });
});

describe('the value guard under --check', () => {
  it('has no ledger, so no guard: guard null in --json', async () => {
    const run = await runCli(
      ['push', writeRows('a.csv', 1, 30, cents), '-c', e2e.config, '--check', '--json'],
      {
        cwd: e2e.work,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ valid: 30, guard: null });
  });
});

describe.each(['sqlite', 'postgres'] as const)('gaps in a series on %s', (backend) => {
  const skip = backend === 'postgres' && skipPostgres();
  let state: string;
  beforeEach(async (context) => {
    if (skip) context.skip();
    state = backend === 'postgres' ? await createDatabase() : e2e.state;
  });
  afterEach(async () => {
    if (!skip && backend === 'postgres') await dropDatabase(state);
  });

  const open = (): Promise<LedgerStore> =>
    backend === 'postgres'
      ? PostgresLedger.open({ url: state, env: {} })
      : Promise.resolve(openLedger(state));
  /** One row a day at noon UTC, for each day given (May 2024). */
  const daily = (name: string, days: number[], firstId: number) => {
    const lines = [header];
    days.forEach((day, n) => {
      const time = new Date(Date.UTC(2024, 4, day, 12)).toISOString();
      lines.push([firstId + n, `v-${firstId + n}`, defaultValue(firstId + n), 'EUR', time].join(','));
    });
    const file = path.join(e2e.work, name);
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  };
  const push = (file: string) =>
    runCli(['push', file, '-c', e2e.config, '--json'], {
      cwd: e2e.work,
      env: e2e.env(e2e.receiver, key, state),
    });

  /** An earlier run delivered 1-7 May, one day each; its report (runs.report) says so. */
  const earlierDaily = async () => {
    const first = await push(daily('week.csv', [1, 2, 3, 4, 5, 6, 7], 1));
    expect(first.code, first.stderr).toBe(0);
    const ledger = await open();
    try {
      const [run] = await ledger.history({ limit: 1 });
      const revenue = [1, 2, 3, 4, 5, 6, 7].map((d) => ({
        day: `2024-05-0${d}`,
        currency: 'EUR',
        records: 1,
        value: 1,
      }));
      await ledger.saveRunReport(run!.id, { ...emptyReport, runId: run!.id, revenue });
    } finally {
      await ledger.close();
    }
  };

  it('warns once naming the days a run leaves out inside its range, and still sends', async () => {
    await earlierDaily();
    // 8-14 May without the 10th and 11th (Europe/Berlin days: noon UTC is the same day there).
    const run = await push(daily('next.csv', [8, 9, 12, 13, 14], 100));
    expect(run.code, run.stderr).toBe(0);
    const json = JSON.parse(run.stdout);
    expect(json).toMatchObject({ sent: 5, guard: { missingDays: ['2024-05-10', '2024-05-11'] } });
    const warnings = (json.warnings as string[]).filter((w) => w.startsWith('gaps in the series'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('no day of 2024-05-10, 2024-05-11');
    expect(run.stderr).toContain('gaps in the series');
    expect(e2e.receiver.accepted).toHaveLength(12);
  });

  it('reads the earlier days from the report the earlier push saved itself', async () => {
    // No report written by the test: the first push keeps its own (revenue per local day) with its run.
    const first = await push(daily('week.csv', [1, 2, 3, 4, 5, 6, 7], 1));
    expect(first.code, first.stderr).toBe(0);
    const run = await push(daily('next.csv', [8, 9, 11, 12], 100));
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ sent: 4, guard: { missingDays: ['2024-05-10'] } });
    expect(run.stderr).toContain('no day of 2024-05-10');
  });

  it('says nothing of a hole where earlier deliveries were not daily, nor of a run without one', async () => {
    const holed = await push(daily('holed.csv', [20, 22], 200));
    expect(JSON.parse(holed.stdout)).toMatchObject({ sent: 2, guard: { missingDays: [] } });
    expect(holed.stderr).not.toContain('gaps in the series');
    await earlierDaily();
    const whole = await push(daily('next.csv', [8, 9, 10], 100));
    expect(JSON.parse(whole.stdout)).toMatchObject({ sent: 3, guard: { missingDays: [] } });
    expect(whole.stderr).not.toContain('gaps in the series');
  });
});

const emptyReport: RunReport = {
  version: 1,
  runId: null,
  startedAt: '2024-05-08T00:00:00.000Z',
  finishedAt: '2024-05-08T00:00:01.000Z',
  command: 'push',
  files: ['week.csv'],
  counts: {},
  skippedReasons: {},
  invalidReasons: {},
  revenue: [],
  guard: null,
  rejectsFile: null,
  exitCode: 0,
};

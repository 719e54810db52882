// Issue 25: every push keeps its report with its run in the ledger (SQLite and PostgreSQL), `revimport report`
// writes it (default the last run, revimport-run-<n>.html), `push --report` writes it at the end, also of a
// run stopped by an error; a run without a saved report (an older ledger) or no run at all is a clear exit 2.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { header } from '../helpers/exports.js';
import { createDatabase, dropDatabase, skipPostgres } from '../helpers/postgres.js';

const key = 'e2e-report-cmd-key-91d3';
const e2e = useE2E({ key, startFirst: true });

const rows = [
  '1,v-1,100.00,EUR,2024-05-01T08:00:00Z',
  '2,v-2,50.00,EUR,2024-05-01T12:00:00Z',
  '3,v-3,300.00,EUR,2024-05-01T22:30:00Z',
  '4,v-4,40.00,USD,2024-05-03T10:00:00Z',
];

function writeOrders(): string {
  const file = path.join(e2e.work, 'orders.csv');
  writeFileSync(file, `${header}\n${rows.join('\n')}\n`);
  return file;
}

const push = (state: string, ...flags: string[]) =>
  runCli(['push', writeOrders(), '-c', e2e.config, ...flags], {
    cwd: e2e.work,
    env: e2e.env(undefined, undefined, state),
  });

const report = (state: string, ...flags: string[]) =>
  runCli(['report', ...flags], { cwd: e2e.work, env: { REVIMPORT_STATE: state } });

/** The report a page draws from: the bars and the exit code it shows. */
function pageFacts(file: string) {
  const html = readFileSync(file, 'utf8');
  const bars = [
    ...html.matchAll(/<rect class="bar" data-day="([^"]+)" data-currency="([^"]+)" data-value="([^"]+)"/g),
  ];
  return {
    html,
    bars: bars.map((m) => `${m[1]} ${m[2]} ${m[3]}`),
    exit: /<dd data-fact="exit code">(?:<span[^>]*>)?(\d+)/.exec(html)?.[1],
    sent: /<tr data-count="sent"><th>sent<\/th><td class="n">(\d+)/.exec(html)?.[1],
  };
}

describe('revimport report on an SQLite ledger', () => {
  it("writes the last run's saved report to revimport-run-<n>.html and prints its path; --run and --out pick", async () => {
    expect((await push(e2e.state)).code).toBe(0);
    const again = await push(e2e.state);
    expect(again.code).toBe(0);

    const last = await report(e2e.state);
    expect(last.code, last.stderr).toBe(0);
    const file = path.join(e2e.work, 'revimport-run-2.html');
    expect(last.stdout).toBe(`${file}\n`);
    // Run 2 sent nothing new: its revenue is empty, its counts say already sent.
    expect(pageFacts(file).bars).toEqual([]);
    expect(pageFacts(file).html).toContain(
      '<tr data-count="alreadySent"><th>already sent</th><td class="n">4</td>',
    );

    const first = await report(e2e.state, '--run', '1', '--out', 'first.html');
    expect(first.code, first.stderr).toBe(0);
    const facts = pageFacts(path.join(e2e.work, 'first.html'));
    expect(facts.bars).toEqual(['2024-05-01 EUR 150', '2024-05-02 EUR 300', '2024-05-03 USD 40']);
    expect([facts.sent, facts.exit]).toEqual(['4', '0']);
    expect(facts.html).not.toContain(key);
  });

  it('writes the report of a run stopped by an error (the key refused: exit 3), at the end and in the ledger', async () => {
    const stopped = await runCli(['push', writeOrders(), '-c', e2e.config, '--report', 'stopped.html'], {
      cwd: e2e.work,
      env: e2e.env(undefined, 'not-the-key-0000'),
    });
    expect(stopped.code).toBe(3);
    const written = pageFacts(path.join(e2e.work, 'stopped.html'));
    expect([written.exit, written.sent]).toEqual(['3', '0']);
    expect(written.html).not.toContain('not-the-key-0000');

    const saved = await report(e2e.state, '--out', 'saved.html');
    expect(saved.code, saved.stderr).toBe(0);
    expect(pageFacts(path.join(e2e.work, 'saved.html')).exit).toBe('3');
  });

  it('says clearly when there is no run, no such run, or a run saved without a report (an older ledger): exit 2', async () => {
    const none = await report(e2e.state);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`no runs recorded in ${e2e.state}`);
    expect(existsSync(e2e.state)).toBe(false);

    expect((await push(e2e.state)).code).toBe(0);
    const missing = await report(e2e.state, '--run', '9');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('run 9 has no saved report');

    // What a run recorded by an older revimport looks like after the migration: no report.
    const db = new Database(e2e.state);
    db.prepare('UPDATE runs SET report = NULL').run();
    db.close();
    const older = await report(e2e.state);
    expect(older.code).toBe(2);
    expect(older.stderr).toContain('run 1 has no saved report');
    expect(older.stderr).toContain('an older version');
    expect(existsSync(path.join(e2e.work, 'revimport-run-1.html'))).toBe(false);

    const badOut = await report(e2e.state, '--run', '1', '--out', 'no/such/folder/r.html');
    expect(badOut.code).toBe(2);
  });
});

describe('push --report', () => {
  it("draws what the run delivered: the days' sums are the summary's totals, per currency", async () => {
    const pushed = await push(e2e.state, '--json', '--report', 'run.html');
    expect(pushed.code, pushed.stderr).toBe(0);
    const { totals } = JSON.parse(pushed.stdout) as { totals: Record<string, number> };
    const drawn: Record<string, number> = {};
    for (const bar of pageFacts(path.join(e2e.work, 'run.html')).bars) {
      const [, currency, value] = bar.split(' ');
      drawn[currency!] = (drawn[currency!] ?? 0) + Number(value);
    }
    expect(drawn).toEqual(totals);
    expect(totals).toEqual({ EUR: 450, USD: 40 });
  });

  it('--check: the valid rows, no run id, nothing sent', async () => {
    const checked = await push(e2e.state, '--check', '--report', 'check.html');
    expect(checked.code, checked.stderr).toBe(0);
    const facts = pageFacts(path.join(e2e.work, 'check.html'));
    expect(facts.bars).toEqual(['2024-05-01 EUR 150', '2024-05-02 EUR 300', '2024-05-03 USD 40']);
    expect(facts.html).toContain('(not recorded: --check)');
    expect(facts.html).toContain('valid records (nothing was sent)');
    expect(e2e.receiver.accepted).toHaveLength(0);
  });

  it('a report path that cannot be written is exit 2 before anything is sent', async () => {
    const refused = await push(e2e.state, '--report', 'no/such/folder/run.html');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('cannot write the report');
    expect(refused.stderr).toContain('does not exist');
    expect(e2e.receiver.accepted).toHaveLength(0);
  });
});

describe.skipIf(skipPostgres())('revimport report on a PostgreSQL ledger', () => {
  let url: string;
  beforeEach(async () => {
    url = await createDatabase();
  });
  afterEach(async () => {
    await dropDatabase(url);
  });

  it("reads the run's saved report from the database, the password in no text of it", async () => {
    const pushed = await push(url, '--json');
    expect(pushed.code, pushed.stderr).toBe(0);
    const written = await report(url, '--out', 'pg.html');
    expect(written.code, written.stderr).toBe(0);
    const facts = pageFacts(path.join(e2e.work, 'pg.html'));
    expect(facts.bars).toEqual(['2024-05-01 EUR 150', '2024-05-02 EUR 300', '2024-05-03 USD 40']);
    const password = new URL(url).password;
    if (password) expect(facts.html).not.toContain(password);
    expect(facts.html).not.toContain(key);
  });
});

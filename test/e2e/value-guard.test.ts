// The value guard end to end (issue 25), on an SQLite ledger file and on the real PostgreSQL: history built
// by an ordinary export, then a cents run (every value x100), a shipping-column run (~1/20) and a run in a
// currency the target never had stop before sending (exit 6, the message, nothing at the receiver); an
// ordinary next day goes through; --accept-shift sends; without history nothing is checked or said.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type CliResult, runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { defaultValue, header } from '../helpers/exports.js';
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

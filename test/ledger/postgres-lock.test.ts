// The PostgreSQL ledger's run lock (issue 15): one run per target across hosts, other targets free, waited
// for and then refused (LockError, exit 5), released when its holder releases it or its connection ends,
// and a lost lock connection stops the run (DeliveryError, exit 4) at its next ledger write.
import postgres from 'postgres';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeliveryError, LockError } from '../../src/errors.js';
import { acquireAdvisoryLock } from '../../src/ledger/postgres/advisory-lock.js';
import { targetOf } from '../../src/ledger/target.js';
import { createDatabase, dropDatabase, skipPostgres } from '../helpers/postgres.js';

const target = targetOf('https://crm.example', 'k1');

describe.skipIf(skipPostgres())('acquireAdvisoryLock', () => {
  let url: string;
  beforeEach(async () => {
    url = await createDatabase();
  });
  afterEach(async () => {
    await dropDatabase(url);
  });

  it('lets one run per target hold it; another target is free; a release lets the next one in', async () => {
    const first = await acquireAdvisoryLock({ url, env: {} }, target, { waitMs: 0 });
    await expect(acquireAdvisoryLock({ url, env: {} }, target, { waitMs: 0 })).rejects.toThrow(LockError);
    const other = await acquireAdvisoryLock({ url, env: {} }, targetOf('https://crm.example', 'k1', 'eu'), {
      waitMs: 0,
    });
    await other.release();
    await first.release();
    await first.release();
    const next = await acquireAdvisoryLock({ url, env: {} }, target, { waitMs: 0 });
    await next.release();
  });

  it('follows the account, not the key: a second key of the same account waits its turn (issue 19)', async () => {
    const first = await acquireAdvisoryLock({ url, env: {} }, target, { waitMs: 0 });
    const rotated = targetOf('https://crm.example', 'k2');
    await expect(acquireAdvisoryLock({ url, env: {} }, rotated, { waitMs: 0 })).rejects.toThrow(LockError);
    await first.release();
    const next = await acquireAdvisoryLock({ url, env: {} }, rotated, { waitMs: 0 });
    await next.release();
  });

  it('waits for --wait, polling, then refuses naming the holder', async () => {
    const first = await acquireAdvisoryLock({ url, env: {} }, target, { waitMs: 0 });
    let clock = 0;
    const sleeps: number[] = [];
    const error = await acquireAdvisoryLock({ url, env: {} }, target, {
      waitMs: 1000,
      pollMs: 250,
      now: () => clock,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
      },
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LockError);
    expect((error as Error).message).toMatch(
      /^another run is active for https:\/\/crm\.example on the ledger postgres:\/\/revimport:\*\*\*@127\.0\.0\.1:\d+\/\w+ \(\d+@/,
    );
    expect(sleeps).toEqual([250, 250, 250, 250]);
    await first.release();
  });

  it("is the server's to drop when its connection ends; the run that lost it is stopped", async () => {
    const first = await acquireAdvisoryLock({ url, env: {} }, target, { waitMs: 0 });
    first.check();
    const admin = postgres(url, { max: 1, onnotice: () => {} });
    try {
      await admin.unsafe(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'revimport lock %'`,
      );
      const next = await acquireAdvisoryLock({ url, env: {} }, target, { waitMs: 5000, pollMs: 20 });
      await next.release();
      expect(() => first.check()).toThrow(DeliveryError);
      expect(() => first.check()).toThrow(/lost the run lock on the ledger postgres:\/\/revimport:\*\*\*@/);
    } finally {
      await admin.end();
      await first.release();
    }
  });
});

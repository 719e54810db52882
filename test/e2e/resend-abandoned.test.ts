// A record the ledger keeps as failed carries the Idempotency-Key of the body it went out in: its first
// request may have reached the server. A later run that queues it for resending and is stopped (SIGINT)
// before sending it must leave that key as it was, so the next resend is recognisable as the same
// body; it must not be rewritten as pending under no key.
import { setTimeout as delay } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { pushEnv, writeExport } from '../helpers/exports.js';
import { startCli } from '../helpers/spawn.js';

const key = 'e2e-resend-abandoned-key';
const e2e = useE2E({ key });

function inflightKeys(state: string): Map<string, string | null> {
  const db = new Database(state, { readonly: true });
  try {
    const rows = db.prepare('SELECT key, idempotency_key FROM inflight').all() as {
      key: string;
      idempotency_key: string | null;
    }[];
    return new Map(rows.map((r) => [r.key, r.idempotency_key]));
  } finally {
    db.close();
  }
}

describe('failed records queued for resending when the run is stopped', () => {
  it('keep the Idempotency-Key of the body they first went out in', { timeout: 60_000 }, async () => {
    const { work, state, config } = e2e;
    const file = writeExport(work, 'orders.csv', { to: 4 });
    const flags = ['--batch-size', '1', '--concurrency', '1', '--retries', '0'];

    // Run 1: every body answered 500: four failed records, each with its own body's key.
    const receiver = await e2e.start();
    receiver.script(...Array.from({ length: 4 }, () => ({ status: 500 })));
    const first = await runCli(['push', file, '-c', config, ...flags], {
      cwd: work,
      env: pushEnv(receiver.url, key, state),
    });
    expect(first.code).toBe(4);
    const before = inflightKeys(state);
    expect(before.size).toBe(4);
    for (const k of before.values()) expect(k).toMatch(/\S/);

    // Run 2: the first resend is slow (answered within the stop's grace); the rest wait in the queue when
    // SIGINT stops the run.
    receiver.setDelay(2_000);
    const sentBefore = receiver.requests.length;
    const second = startCli(['push', file, '-c', config, ...flags], {
      cwd: work,
      env: pushEnv(receiver.url, key, state),
    });
    while (receiver.requests.length === sentBefore) await delay(10);
    second.child.kill('SIGINT');
    const result = await second.done;
    expect(result.code).toBe(130);

    // The slow one was answered within the grace and is delivered; the queued ones are still outstanding,
    // each under the key it first went out with.
    const after = inflightKeys(state);
    expect(after.size).toBeGreaterThanOrEqual(2);
    for (const [record, idempotencyKey] of after) {
      expect([record, idempotencyKey]).toEqual([record, before.get(record)]);
    }
  });
});

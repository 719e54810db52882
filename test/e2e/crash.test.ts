// Crash safety through the real CLI: a push SIGKILLed mid-run, then run again, must leave the receiver
// holding every valid conversionId, a repeat only for a batch in flight at the crash and then under
// the same Idempotency-Key; SIGTERM stops cleanly (143), and `revimport retry` sends what was left.
import { existsSync, readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Receiver, RecordedRequest } from '../../src/testing/receiver.js';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { acceptedIds, range, repeats, writeExport } from '../helpers/exports.js';
import { type RunningCli, startCli } from '../helpers/spawn.js';

const key = 'e2e-crash-key-51f0';
const rows = 3000;
const invalid = [100, 2000];
const validIds = range(1, rows).filter((id) => !invalid.includes(id));
const flags = ['--json', '--batch-size', '50', '--concurrency', '2', '--retries', '2'];

const e2e = useE2E({ key });
let file: string;

beforeEach(() => {
  file = writeExport(e2e.work, 'big.csv', { to: rows, invalid });
});

/**
 * A receiver that sends `signal` to the running CLI once it has stored `after` records: from inside
 * onRequest, i.e. before that request is answered, so the CLI never learns that batch was stored.
 */
async function receiverThatStops(after: number, signal: NodeJS.Signals, honourIdempotencyKey = true) {
  const target: { cli?: RunningCli; sentAt?: number } = {};
  const r = await e2e.start({
    honourIdempotencyKey,
    onRequest: () => {
      if (target.sentAt === undefined && target.cli && r.accepted.length >= after) {
        target.sentAt = r.requests.length;
        target.cli.child.kill(signal);
      }
    },
  });
  r.setDelay(20);
  return { r, target };
}

async function settled(r: Receiver): Promise<void> {
  while (r.held > 0) await delay(10);
}

const env = () => e2e.env();

describe.each([{ honourIdempotencyKey: true }, { honourIdempotencyKey: false }])(
  'SIGKILL mid-run (receiver honours Idempotency-Key: $honourIdempotencyKey)',
  ({ honourIdempotencyKey }) => {
    it('the next run delivers every valid record; any repeat is an in-flight batch resent with its key', async () => {
      const { r, target } = await receiverThatStops(1000, 'SIGKILL', honourIdempotencyKey);
      target.cli = startCli(['push', file, '-c', e2e.config, ...flags], { cwd: e2e.work, env: env() });
      const killed = await target.cli.done;
      expect(killed.signal).toBe('SIGKILL');
      expect(killed.stdout).toBe('');
      // What a crash leaves on disk (the database and its write-ahead log) never holds the key.
      expect(existsSync(`${e2e.state}-wal`)).toBe(true);
      for (const name of [e2e.state, `${e2e.state}-wal`])
        expect(readFileSync(name).indexOf(key), name).toBe(-1);
      await settled(r);
      const storedBeforeRerun = r.accepted.length;
      expect(storedBeforeRerun).toBeGreaterThanOrEqual(1000);
      expect(storedBeforeRerun).toBeLessThan(validIds.length);
      const firstRunRequests: RecordedRequest[] = r.requests.slice();
      const keysOfFirstRun = new Set(firstRunRequests.map((q) => q.idempotencyKey));

      r.setDelay(0);
      // The rerun's first requests are the resent in-flight batches: the second one answered slowly, so
      // that reading the file would overtake it (the race that once sent its records again under a new key).
      r.script({}, { delayMs: 500 });
      // A smaller batch size: the file's records no longer fall into the crashed run's batches (a record
      // sent both from the ledger and from the file would go out under two keys), and a resent batch must
      // still go out whole, as the same bytes under the same key, not cut to the new size.
      const again = await runCli(['push', file, '-c', e2e.config, ...flags, '--batch-size', '20'], {
        cwd: e2e.work,
        env: env(),
      });
      expect(again.stderr).not.toContain('internal error');
      expect(again.code).toBe(1);
      const s = JSON.parse(again.stdout);
      expect([s.valid, s.invalid, s.failed, s.pending]).toEqual([validIds.length, 2, 0, 0]);
      // The batch being answered at the kill (and the one beside it) were pending: resent first.
      expect(s.retried).toBeGreaterThanOrEqual(50);

      expect([...new Set(acceptedIds(r.accepted))]).toEqual(validIds);
      const repeated = repeats(r.accepted);
      for (const [, copies] of repeated) {
        const keys = new Set(copies.map((c) => c.idempotencyKey));
        expect(keys.size).toBe(1);
        expect(keysOfFirstRun.has(copies[0]!.idempotencyKey)).toBe(true);
      }
      // Stored again only when the receiver ignored the key: the in-flight batches, not more.
      if (honourIdempotencyKey) expect(repeated.size).toBe(0);
      else {
        expect(repeated.size).toBeGreaterThan(0);
        expect(repeated.size).toBeLessThanOrEqual(100);
      }
      const resends = r.requests
        .slice(firstRunRequests.length)
        .filter((q) => keysOfFirstRun.has(q.idempotencyKey));
      expect(resends.length).toBeGreaterThan(0);
      if (honourIdempotencyKey) expect(resends.some((q) => q.replayed)).toBe(true);

      const history = await runCli(['history', '--json', '--state', e2e.state], { cwd: e2e.work });
      expect(history.code).toBe(0);
      const runs = JSON.parse(history.stdout);
      expect(runs).toHaveLength(2);
      expect(runs[0]).toMatchObject({ command: 'push', files: [file], exitCode: 1 });
      expect(runs[0].counts).toMatchObject({ sent: s.sent, retried: s.retried, valid: validIds.length });
      expect(runs[1]).toMatchObject({
        command: 'push',
        files: [file],
        exitCode: null,
        finishedAt: null,
        counts: null,
      });
      expect(runs[1].id).toBeLessThan(runs[0].id);
    });
  },
);

describe('SIGTERM mid-run', () => {
  it('exits 143 with the summary, leaves the rest pending, and `revimport retry` delivers it once', async () => {
    const { r, target } = await receiverThatStops(500, 'SIGTERM');
    target.cli = startCli(['push', file, '-c', e2e.config, ...flags], { cwd: e2e.work, env: env() });
    const stopped = await target.cli.done;
    expect(stopped.code).toBe(143);
    // No new batch once the signal is handled: the one in flight beside the request being answered,
    // plus those started while the child was busy in a burst of synchronous work before its handler
    // ran (two seen, 50 ms). Before the fix the rest of the look-up chunk went out: 10 more batches.
    expect(r.requests.length).toBeLessThanOrEqual(target.sentAt! + 4);
    const s = JSON.parse(stopped.stdout);
    expect(s.pending).toBeGreaterThan(0);
    expect(s.failed).toBe(0);
    // Requests in flight were let finish: everything the receiver stored was acknowledged.
    expect(s.sent).toBe(r.accepted.length);
    // Every valid row read is accounted for: delivered, or pending for the next run.
    expect(s.valid).toBe(s.sent + s.pending);
    const readSoFar = new Set(validIds.slice(0, s.sent + s.pending));
    expect(repeats(r.accepted).size).toBe(0);
    expect(acceptedIds(r.accepted).every((id) => readSoFar.has(id))).toBe(true);

    const retry = await runCli(['retry', ...flags], { cwd: e2e.work, env: env() });
    expect(retry.code).toBe(0);
    const t = JSON.parse(retry.stdout);
    expect([t.retried, t.retriedSent, t.sent, t.failed, t.pending, t.rowsRead]).toEqual([
      s.pending,
      s.pending,
      0,
      0,
      0,
      0,
    ]);
    const handled = validIds.slice(0, s.sent + s.pending);
    expect(acceptedIds(r.accepted)).toEqual(handled);

    const rest = await runCli(['push', file, '-c', e2e.config, ...flags], { cwd: e2e.work, env: env() });
    expect(rest.code).toBe(1);
    const u = JSON.parse(rest.stdout);
    expect([u.alreadySent, u.sent, u.retried]).toEqual([handled.length, validIds.length - handled.length, 0]);
    expect(acceptedIds(r.accepted)).toEqual(validIds);
  });
});

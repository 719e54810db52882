// Issue 19, exactly once across runs: what a push sends again, counted by a receiver that stores every
// element it gets (a CRM that does not honour Idempotency-Key), so any extra send shows as an extra copy.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { acceptedIds, defaultValue, expectedRecord, exportCsv, pushEnv } from '../helpers/exports.js';

const key = 'e2e-resend-once-key-41d7';

const e2e = useE2E({ key, receiver: { honourIdempotencyKey: false } });
const { start } = e2e;
let file: string;

beforeEach(() => {
  file = path.join(e2e.work, 'orders.csv');
});

/** `revimport push` with `flags` before the file (where `--resend` must not take the file as its word). */
async function push(...flags: string[]) {
  const result = await runCli(['push', ...flags, file, '-c', e2e.config, '--json'], {
    cwd: e2e.work,
    env: e2e.env(),
  });
  const summary = JSON.parse(result.stdout);
  // Every valid row has exactly one outcome; resent records of earlier runs are counted apart (README).
  const outcomes = ['sent', 'rejected', 'failed', 'pending', 'notSent', 'alreadySent', 'changed'];
  expect(outcomes.reduce((sum, name) => sum + summary[name], 0)).toBe(summary.valid);
  return { ...result, summary };
}

describe('--resend changed', () => {
  it('sends again only the records changed since delivered; --resend sends them all', async () => {
    const r = await start();
    writeFileSync(file, exportCsv({ to: 3 }));
    expect((await push()).code).toBe(0);
    expect(acceptedIds(r.accepted)).toEqual([1, 2, 3]);

    const changedValue = (id: number) => (id === 2 ? '999.99' : defaultValue(id));
    writeFileSync(file, exportCsv({ to: 3, valueFor: changedValue }));
    const changed = await push('--resend', 'changed');
    expect(changed.code).toBe(0);
    expect(changed.summary).toMatchObject({ sent: 1, alreadySent: 2, changed: 0 });
    expect(r.accepted).toHaveLength(4);
    expect(r.accepted[3]?.record).toEqual(expectedRecord(2, changedValue));

    // Delivered at its new content now: nothing is changed any more.
    const again = await push('--resend=changed');
    expect(again.summary).toMatchObject({ sent: 0, alreadySent: 3, changed: 0 });
    expect(r.accepted).toHaveLength(4);

    // Bare --resend (here before the file: not taken as its word) is all of them.
    const all = await push('--resend');
    expect(all.code).toBe(0);
    expect(all.summary).toMatchObject({ sent: 3, alreadySent: 0 });
    expect(r.accepted).toHaveLength(7);
  });

  it('refuses another word (exit 2, nothing sent)', async () => {
    const r = await start();
    writeFileSync(file, exportCsv({ to: 3 }));
    const result = await runCli(['push', file, '-c', e2e.config, '--resend=new'], {
      cwd: e2e.work,
      env: pushEnv(r.url, key, e2e.state),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("'new' is invalid. Allowed choices are all, changed.");
    expect(r.requests).toHaveLength(0);
  });
});

describe('refused and unanswered records are resent once', () => {
  const flags = ['--batch-size', '2', '--concurrency', '1', '--retries', '1'];

  it('failed after retries (5xx, connection reset): the next run resends each once, the one after none', async () => {
    const r = await start();
    writeFileSync(file, exportCsv({ to: 6 }));
    // Body 1 (ids 1, 2) answered 500 twice, body 2 (3, 4) reset twice: nothing of them stored.
    r.script({ status: 500 }, { status: 500 }, { reset: true }, { reset: true });
    const first = await push(...flags);
    expect(first.code).toBe(4);
    expect(first.summary).toMatchObject({ sent: 2, failed: 4, pending: 0, notSent: 0 });
    expect(acceptedIds(r.accepted)).toEqual([5, 6]);

    const second = await push(...flags);
    expect(second.code).toBe(0);
    expect(second.summary).toMatchObject({ retried: 4, retriedSent: 4, sent: 0, failed: 0, alreadySent: 6 });
    expect(acceptedIds(r.accepted)).toEqual([1, 2, 3, 4, 5, 6]);

    const third = await push(...flags);
    expect(third.code).toBe(0);
    expect(third.summary).toMatchObject({ retried: 0, sent: 0, alreadySent: 6, requests: 0 });
    expect(acceptedIds(r.accepted)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('failed again on the next run: its row is not sent a second time in that run, the run after resends it once', async () => {
    const r = await start();
    writeFileSync(file, exportCsv({ to: 4 }));
    r.script({ status: 500 }, { status: 500 });
    const first = await push(...flags);
    expect(first.summary).toMatchObject({ sent: 2, failed: 2 });
    const before = r.requests.length;

    // The resend of body 1 fails again: the file's copy of ids 1, 2 must not go out in a new body.
    r.script({ status: 500 }, { status: 500 });
    const second = await push(...flags);
    expect(second.code).toBe(4);
    expect(r.requests.length - before).toBe(2);
    // Its rows are `pending`: held in the ledger (failed) for the next run.
    expect(second.summary).toMatchObject({
      retried: 2,
      retriedFailed: 2,
      failed: 0,
      sent: 0,
      alreadySent: 2,
      pending: 2,
    });
    expect(acceptedIds(r.accepted)).toEqual([3, 4]);

    const third = await push(...flags);
    expect(third.code).toBe(0);
    expect(third.summary).toMatchObject({ retried: 2, retriedSent: 2, sent: 0, alreadySent: 4 });
    expect(acceptedIds(r.accepted)).toEqual([1, 2, 3, 4]);

    // The history keeps each run's counts as its summary said them (newest first).
    const history = await runCli(['history', '--json', '--state', e2e.state], { cwd: e2e.work });
    const counted = (summary: Record<string, number>) =>
      Object.fromEntries(
        [
          'sent',
          'rejected',
          'failed',
          'pending',
          'notSent',
          'alreadySent',
          'retried',
          'retriedSent',
          'retriedFailed',
        ].map((k) => [k, summary[k]]),
      );
    expect(
      JSON.parse(history.stdout).map((run: { counts: Record<string, number> }) => counted(run.counts)),
    ).toEqual([third, second, first].map((run) => counted(run.summary)));
  });

  it('left pending (an answer that proves nothing stops the run): the next run resends each once', async () => {
    const r = await start();
    writeFileSync(file, exportCsv({ to: 6 }));
    // Body 2 is answered 200 by something that is not the CRM (a login page): no proof of delivery.
    r.script({}, { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>sign in</html>' });
    const first = await push(...flags);
    expect(first.code).toBe(4);
    // Body 2 stays pending in the ledger; rows not yet handed on when the run stopped are not sent.
    expect(first.summary).toMatchObject({ sent: 2, failed: 0 });
    expect(first.summary.pending).toBeGreaterThanOrEqual(2);
    expect(first.summary.pending + first.summary.notSent).toBe(4);
    expect(acceptedIds(r.accepted)).toEqual([1, 2]);

    const second = await push(...flags);
    expect(second.code).toBe(0);
    expect(second.summary).toMatchObject({
      retried: first.summary.pending,
      retriedSent: first.summary.pending,
    });
    expect(second.summary.sent).toBe(4 - first.summary.pending);
    expect(acceptedIds(r.accepted)).toEqual([1, 2, 3, 4, 5, 6]);

    const third = await push(...flags);
    expect(third.summary).toMatchObject({ retried: 0, sent: 0, alreadySent: 6, requests: 0 });
    expect(acceptedIds(r.accepted)).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('rejected by the server: not resent while its content is unchanged, sent once it changed', async () => {
    // The CRM refuses order 2 at its first value (2.02), accepts any other.
    const r = await start({
      validate: (record) =>
        (record as { conversionValue?: number }).conversionValue === 2.02 ? 'bad value' : undefined,
    });
    writeFileSync(file, exportCsv({ to: 6 }));
    const first = await push(...flags);
    expect(first.code).toBe(1);
    expect(first.summary).toMatchObject({ sent: 5, rejected: 1 });
    expect(acceptedIds(r.accepted)).toEqual([1, 3, 4, 5, 6]);
    const requests = r.requests.length;

    // Still counted refused, from the ledger: no request; known (issue 20), so no exit 1 and no report again.
    const second = await push(...flags);
    expect(second.code).toBe(0);
    expect(second.summary).toMatchObject({
      sent: 0,
      alreadySent: 5,
      rejected: 1,
      knownRefused: 1,
      requests: 0,
    });
    expect(second.summary.errors).toEqual([]);
    // --report-known lists it again.
    const reported = await push(...flags, '--report-known');
    expect(reported.code).toBe(0);
    expect(reported.summary.errors[0].examples[0]).toMatchObject({ line: 3, value: '2' });
    expect(reported.summary.errors[0].examples[0].message).toContain(
      'refused by the server in an earlier run',
    );
    expect(r.requests).toHaveLength(requests);

    const fixed = (id: number) => (id === 2 ? '2.50' : defaultValue(id));
    writeFileSync(file, exportCsv({ to: 6, valueFor: fixed }));
    const third = await push(...flags);
    expect(third.code).toBe(0);
    expect(third.summary).toMatchObject({ sent: 1, alreadySent: 5, rejected: 0 });
    expect(acceptedIds(r.accepted)).toEqual([1, 2, 3, 4, 5, 6]);
  });
});

// Issue 19, exactly once across runs: what a push sends again, counted by a receiver that stores every
// element it gets (a CRM that does not honour Idempotency-Key), so any extra send shows as an extra copy.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Receiver, type ReceiverOptions, startReceiver } from '../../src/testing/receiver.js';
import { runCli, tempDir } from '../helpers/cli.js';
import {
  acceptedIds,
  defaultValue,
  expectedRecord,
  exportCsv,
  pushEnv,
  writeConfig,
} from '../helpers/exports.js';

const key = 'e2e-resend-once-key-41d7';

let receiver: Receiver | undefined;
let work: string;
let state: string;
let config: string;
let file: string;

beforeEach(() => {
  work = tempDir();
  state = path.join(work, 'ledger.db');
  config = writeConfig(work);
  file = path.join(work, 'orders.csv');
});
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

async function start(options: ReceiverOptions = {}): Promise<Receiver> {
  receiver = await startReceiver({ apiKey: key, honourIdempotencyKey: false, ...options });
  return receiver;
}

/** `revimport push` with `flags` before the file (where `--resend` must not take the file as its word). */
async function push(...flags: string[]) {
  const result = await runCli(['push', ...flags, file, '-c', config, '--json'], {
    cwd: work,
    env: pushEnv(receiver!.url, key, state),
  });
  return { ...result, summary: JSON.parse(result.stdout) };
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
    const result = await runCli(['push', file, '-c', config, '--resend=new'], {
      cwd: work,
      env: pushEnv(r.url, key, state),
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("'new' is invalid. Allowed choices are all, changed.");
    expect(r.requests).toHaveLength(0);
  });
});

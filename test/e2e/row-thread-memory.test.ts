// The row thread's batches are let go once taken (issue 23, "memory flat in file size"): what the main thread
// still holds after a push does not grow with the rows pushed. A wait for the next batch raced against one
// never-settled "stopped" promise kept every batch reachable from it: a 1M-row push peaked at 620 MiB.

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { pushEnv, writeExport } from '../helpers/exports.js';

const key = 'row-thread-memory-key-7c21';
const e2e = useE2E({ key });
const preload = pathToFileURL(path.join(import.meta.dirname, '../helpers/heap-at-exit.mjs')).href;

/** The main thread's heap after a full collection at the end of a push of `rows` rows on the row thread. */
async function heapAfterPush(rows: number): Promise<number> {
  const receiver = await e2e.start({ honourIdempotencyKey: false });
  const file = writeExport(e2e.work, `rows-${rows}.csv`, { to: rows });
  const state = path.join(e2e.work, `ledger-${rows}.db`);
  const run = await runCli(['push', file, '-c', e2e.config, '--json'], {
    cwd: e2e.work,
    env: {
      ...pushEnv(receiver.url, key, state),
      REVIMPORT_ROW_THREAD: '1',
      NODE_OPTIONS: `--import ${preload}`,
    },
  });
  expect(run.code, run.stderr).toBe(0);
  expect(JSON.parse(run.stdout)).toMatchObject({ rowsRead: rows, sent: rows });
  const figure = /^heap-at-exit (\d+)$/m.exec(run.stderr);
  expect(figure, run.stderr).not.toBeNull();
  return Number(figure![1]);
}

describe('the row thread and memory', () => {
  it('holds no more after 80,000 rows than after 5,000', async () => {
    const small = await heapAfterPush(5_000);
    const large = await heapAfterPush(80_000);
    // Batches kept: ~150 bytes a row, +11 MiB here. Let go: the two differ by what a collection leaves.
    expect(large - small).toBeLessThan(3 * 2 ** 20);
  }, 60_000);
});

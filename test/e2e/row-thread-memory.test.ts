// The row thread's batches are let go once taken (issue 23, "memory flat in file size"): what the main thread
// still holds after a push does not grow with the rows pushed. A wait for the next batch raced against one
// never-settled "stopped" promise kept every batch reachable from it: a 1M-row push peaked at 620 MiB.
// The row thread's young generation is the size row-thread.ts gives it, not 2 or 16 MiB by chance.

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ROW_SEMI_SPACE_MIB } from '../../src/pipeline/row-thread/row-thread.js';
import { pushWithPreload, useE2E } from '../helpers/e2e.js';
import { writeExport } from '../helpers/exports.js';

const key = 'row-thread-memory-key-7c21';
const e2e = useE2E({ key });
const preload = pathToFileURL(path.join(import.meta.dirname, '../helpers/heap-at-exit.mjs')).href;
const youngSpace = pathToFileURL(path.join(import.meta.dirname, '../helpers/young-space.mjs')).href;

/** The main thread's heap after a full collection at the end of a push of `rows` rows on the row thread. */
async function heapAfterPush(rows: number): Promise<number> {
  await e2e.start({ honourIdempotencyKey: false });
  const file = writeExport(e2e.work, `rows-${rows}.csv`, { to: rows });
  const run = await pushWithPreload(e2e, file, `ledger-${rows}.db`, preload, { REVIMPORT_ROW_THREAD: '1' });
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

  it("keeps the row thread's young generation at the size it is given, whatever the main thread's cap does", async () => {
    await e2e.start({ honourIdempotencyKey: false });
    const file = writeExport(e2e.work, 'young.csv', { to: 40_000 });
    const run = await pushWithPreload(e2e, file, 'young.db', youngSpace, { REVIMPORT_ROW_THREAD: '1' });
    expect(run.code, run.stderr).toBe(0);
    const sizes = [...run.stderr.matchAll(/^row-young (\d+)$/gm)].map((m) => Number(m[1]));
    expect(sizes.length, run.stderr).toBeGreaterThan(0);
    // Both semi-spaces from the start and no growth: before, 2 MiB (the main thread's growth factor 1 held it
    // at V8's initial size) or 16 (started while the factor was 2). Node 20 reports exactly both semi-spaces
    // (4 MiB), Node 24's V8 a little more (5 MiB): bounded, not pinned, below the next doubling.
    const young = 2 * ROW_SEMI_SPACE_MIB * 2 ** 20;
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(young);
    expect(Math.max(...sizes)).toBeLessThan(2 * young);
  }, 60_000);
});

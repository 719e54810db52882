// The heap tuning of a run (issues 14 and 23): the growing step unless the user tunes it through node's
// options, and the young generation kept at youngSemiSpaceMiB per semi-space.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  collectAfterRows,
  heapFlag,
  heapGrowingPercent,
  worthCollecting,
  youngGrowthFactor,
  youngSemiSpaceMiB,
} from '../../src/cli/heap.js';
import { collectGarbage } from '../../src/collect-garbage.js';
import { userSizesYoung } from '../../src/young-generation.js';
import { cleanEnv, root } from '../helpers/cli.js';
import { runProcess } from '../helpers/spawn.js';

describe('heapFlag', () => {
  it('sets the growing percent when the user did not', () => {
    expect(heapFlag([])).toBe(`--heap-growing-percent=${heapGrowingPercent}`);
    expect(heapFlag(['--enable-source-maps', '--max-old-space-size=4096'])).toBe(
      `--heap-growing-percent=${heapGrowingPercent}`,
    );
  });

  it.each([
    ['--heap-growing-percent=50', ['--heap-growing-percent=50']],
    ['--heap_growing_percent=50', ['--enable-source-maps', '--heap_growing_percent=50']],
  ])('leaves it to the user who gives %s', (_flag, execArgv) => {
    expect(heapFlag(execArgv)).toBeUndefined();
  });
});

it('collectGarbage collects what nothing reaches any more', async () => {
  const ref = (() => new WeakRef(new ArrayBuffer(1 << 20)))();
  const nextJob = () => new Promise((resolve) => setImmediate(resolve));
  // A WeakRef keeps its target for the rest of the job that made or read it.
  await nextJob();
  expect(ref.deref()).toBeDefined();
  await nextJob();
  collectGarbage();
  expect(ref.deref()).toBeUndefined();
  // The flag was for the context made then: this one still has no `gc`.
  expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
});

it('a push is worth a collection after many rows, not after a few', () => {
  expect(worthCollecting(0)).toBe(false);
  expect(worthCollecting(collectAfterRows - 1)).toBe(false);
  expect(worthCollecting(collectAfterRows)).toBe(true);
  expect(worthCollecting(5_000_000)).toBe(true);
});

describe('young generation', () => {
  it('grows to the cap, then not', () => {
    expect(youngGrowthFactor(2 * 1024 * 1024)).toBe(2);
    expect(youngGrowthFactor(2 * youngSemiSpaceMiB * 1024 * 1024)).toBe(1);
  });

  it('does not grow while held, whatever its size', () => {
    expect(youngGrowthFactor(2 * 1024 * 1024, true)).toBe(1);
    expect(youngGrowthFactor(2 * 1024 * 1024, false)).toBe(2);
  });

  it('is left to the user who sizes it', () => {
    expect(userSizesYoung([])).toBe(false);
    expect(userSizesYoung(['--max-old-space-size=4096'], '--enable-source-maps')).toBe(false);
    expect(userSizesYoung(['--max-semi-space-size=8'])).toBe(true);
    expect(userSizesYoung([], '--max_semi_space_size=8')).toBe(true);
    expect(userSizesYoung(['--semi-space-growth-factor=4'])).toBe(true);
  });

  it('stays at the cap in a process allocating short-lived rows', async () => {
    // Rows kept for a 512-row chunk, as the look-up queue keeps them: V8 alone grows to 2 x 16 MiB here.
    const script = `
      import { tuneHeap } from ${JSON.stringify(path.join(root, 'dist/cli/heap.js'))};
      import { getHeapSpaceStatistics } from 'node:v8';
      tuneHeap([], '');
      const chunk = [];
      for (let round = 0; round < 40; round++) {
        for (let i = 0; i < 100000; i++) {
          if (chunk.length === 512) chunk.length = 0;
          chunk.push({ id: 'ORD-' + i, value: i / 100, day: [round, i] });
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
      const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
      console.log(space.space_size);`;
    const result = await runProcess(process.execPath, ['--input-type=module', '-e', script], {
      cwd: root,
      env: cleanEnv({ NODE_OPTIONS: '' }),
    });
    expect(result.stderr).toBe('');
    expect(Number(result.stdout) / 1024 / 1024).toBeLessThanOrEqual(2 * youngSemiSpaceMiB);
  });
});

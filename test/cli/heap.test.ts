// The heap growing default (issue 14): set unless the user tunes it through node's options.
import { describe, expect, it } from 'vitest';
import { heapFlag, heapGrowingPercent } from '../../src/cli/heap.js';

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

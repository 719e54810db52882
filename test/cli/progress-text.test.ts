// The share read, the ETA and the periodic line (issue 20), from literal counters.
import { describe, expect, it } from 'vitest';
import {
  formatEta,
  type ProgressSnapshot,
  progressLine,
  readShareText,
} from '../../src/cli/progress-text.js';

const at = (over: Partial<ProgressSnapshot>): ProgressSnapshot => ({
  rows: 120_000,
  delivered: 80_000,
  bytesRead: 450,
  inputBytes: 1000,
  elapsedMs: 10_000,
  ...over,
});

describe('progressLine', () => {
  it.each<[string, Partial<ProgressSnapshot>, string]>([
    ['share and ETA', {}, 'progress: 120000 rows read (45%), 80000 delivered, 12000 rows/s, ETA 13 s'],
    [
      'size unknown (stdin)',
      { inputBytes: undefined },
      'progress: 120000 rows read, 80000 delivered, 12000 rows/s',
    ],
    [
      'all read, still delivering: no ETA',
      { bytesRead: 1000 },
      'progress: 120000 rows read (100%), 80000 delivered, 12000 rows/s',
    ],
    [
      'under a second: no ETA yet',
      { elapsedMs: 500 },
      'progress: 120000 rows read (45%), 80000 delivered, 240000 rows/s',
    ],
    ['nothing read yet', { rows: 0, bytesRead: 0 }, 'progress: 0 rows read (0%), 80000 delivered, 0 rows/s'],
    [
      'a file grown since it was measured',
      { bytesRead: 1200 },
      'progress: 120000 rows read (100%), 80000 delivered, 12000 rows/s',
    ],
  ])('%s', (_name, over, expected) => {
    expect(progressLine(at(over))).toBe(expected);
  });
});

describe('the spinner tail', () => {
  it.each<[Partial<ProgressSnapshot>, string]>([
    [{}, ', 45% read, ETA 13 s'],
    [{ inputBytes: undefined }, ''],
    [{ inputBytes: 0 }, ''],
    [{ bytesRead: 1000 }, ', 100% read'],
  ])('%o', (over, expected) => {
    expect(readShareText(at(over))).toBe(expected);
  });
});

describe('formatEta', () => {
  it.each([
    [0, '0 s'],
    [59, '59 s'],
    [200, '3 min 20 s'],
    [3_900, '1 h 5 min'],
  ])('%i s reads %s', (seconds, text) => {
    expect(formatEta(seconds)).toBe(text);
  });
});

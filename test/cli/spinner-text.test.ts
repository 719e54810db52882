// The spinner's frame (progress-text.ts spinnerText), pure: counts, rate, resent records apart, share and ETA.
import { describe, expect, it } from 'vitest';
import { type ProgressCounts, spinnerText } from '../../src/cli/progress-text.js';

const counts = (over: Partial<ProgressCounts> = {}): ProgressCounts => ({
  rows: 1200,
  bytesRead: 0,
  delivered: 800,
  resent: 0,
  invalid: 2,
  rejected: 1,
  ...over,
});

const snapshot = (c: ProgressCounts, inputBytes: number | undefined, elapsedMs: number) => ({
  rows: c.rows,
  delivered: c.delivered,
  bytesRead: c.bytesRead,
  inputBytes,
  elapsedMs,
});

describe('spinnerText', () => {
  it.each<[string, Partial<ProgressCounts>, number | undefined, number, string]>([
    [
      'no size known: counts and rate only',
      {},
      undefined,
      3000,
      '1200 rows read, 800 delivered, 1 rejected, 2 invalid, 400 rows/s',
    ],
    [
      'records of earlier runs resent are shown apart',
      { resent: 5 },
      undefined,
      3000,
      '1200 rows read, 800 delivered, 1 rejected, 2 invalid, 5 resent from earlier runs, 400 rows/s',
    ],
    [
      'a known size adds the share read and the ETA',
      { bytesRead: 250 },
      1000,
      2000,
      '1200 rows read, 800 delivered, 1 rejected, 2 invalid, 600 rows/s, 25% read, ETA 6 s',
    ],
    [
      'no time elapsed: the rate is bounded, not infinite',
      { rows: 1 },
      undefined,
      0,
      '1 rows read, 800 delivered, 1 rejected, 2 invalid, 1000 rows/s',
    ],
  ])('%s', (_name, over, inputBytes, elapsedMs, expected) => {
    const c = counts(over);
    expect(spinnerText(c, snapshot(c, inputBytes, elapsedMs))).toBe(expected);
  });
});

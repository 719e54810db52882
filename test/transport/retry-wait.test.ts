import { describe, expect, it } from 'vitest';
import { retryWait } from '../../src/transport/backoff.js';

const options = { backoff: { baseMs: 500, capMs: 30_000 }, maxRetryAfterMs: 300_000 };

describe('retryWait', () => {
  it.each([
    // attempt, Retry-After ms, random, expected delay, expected retryAfterMs
    [1, undefined, 0.5, 250, undefined],
    [3, undefined, 0.5, 1000, undefined],
    [1, 10_000, 0.5, 10_000, 10_000],
    [1, 0, 0.5, 250, 0],
    [8, 1000, 0.999_999, 29_999, 1000],
    [1, 900_000, 0.5, 300_000, 300_000],
  ])(
    'attempt %i, Retry-After %s, random %f: waits %i ms (Retry-After %s)',
    (attempt, afterMs, random, delayMs, retryAfterMs) => {
      expect(retryWait(attempt, afterMs, options, () => random)).toEqual({ delayMs, retryAfterMs });
    },
  );
});

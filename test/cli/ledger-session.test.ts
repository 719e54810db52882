import { describe, expect, it } from 'vitest';
import { lockStaleMs } from '../../src/cli/commands/ledger-session.js';
import { UsageError } from '../../src/errors.js';

describe('lockStaleMs (REVIMPORT_LOCK_STALE_SECONDS)', () => {
  it.each([
    [undefined, 60_000],
    ['', 60_000],
    ['1', 1000],
    ['90', 90_000],
    ['2.5', 2500],
  ])('%j -> %i ms', (value, ms) => {
    expect(lockStaleMs({ REVIMPORT_LOCK_STALE_SECONDS: value })).toBe(ms);
  });

  it.each(['0', '0.5', '-3', 'soon', 'Infinity'])('refuses %j (exit 2)', (value) => {
    expect(() => lockStaleMs({ REVIMPORT_LOCK_STALE_SECONDS: value })).toThrow(
      new UsageError(`REVIMPORT_LOCK_STALE_SECONDS must be a number of seconds, at least 1, not "${value}"`),
    );
  });
});

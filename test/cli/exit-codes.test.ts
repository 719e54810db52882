import { describe, expect, it } from 'vitest';
import { ExitCode, exitCodeFor, exitCodeForError } from '../../src/cli/exit-codes.js';
import { AuthError, ConfigError, LockError, RevimportError, UsageError } from '../../src/errors.js';
import type { GuardComparison } from '../../src/report/run-report.js';
import { emptySummary, type Summary } from '../../src/report/summary.js';

const summary = (over: Partial<Summary>): Summary => ({ ...emptySummary(false), ...over });
const stopped: GuardComparison = { verdict: 'stopped', currencies: [], findings: [], missingDays: [] };

describe('exitCodeFor', () => {
  it.each([
    ['all delivered', {}, ExitCode.ok],
    ['already delivered only', { alreadySent: 10 }, ExitCode.ok],
    ['invalid rows', { invalid: 2, sent: 5 }, ExitCode.partial],
    ['server rejected', { rejected: 1 }, ExitCode.partial],
    ['changed since delivered', { changed: 1 }, ExitCode.partial],
    ['failed after retries', { failed: 3 }, ExitCode.deliveryFailed],
    ['failed beats invalid', { failed: 1, invalid: 4, rejected: 2 }, ExitCode.deliveryFailed],
    ['left pending', { pending: 7 }, ExitCode.deliveryFailed],
    ['not sent, and not in the ledger', { notSent: 2, sent: 3 }, ExitCode.deliveryFailed],
    ['resent from an earlier run, failed again', { retried: 2, retriedFailed: 2 }, ExitCode.deliveryFailed],
    ['resent from an earlier run, left pending', { retried: 2, retriedPending: 2 }, ExitCode.deliveryFailed],
    ['resent from an earlier run, refused', { retried: 1, retriedRejected: 1 }, ExitCode.partial],
    ['error budget exceeded', { aborted: 'too many', invalid: 9 }, ExitCode.partial],
    // Issue 20: the exit code says what is new.
    ['invalid rows all reported before', { invalid: 3000, knownInvalid: 3000, alreadySent: 4 }, ExitCode.ok],
    ['one new invalid row among known ones', { invalid: 3001, knownInvalid: 3000 }, ExitCode.partial],
    ['refusals all from earlier runs', { rejected: 2, knownRefused: 2 }, ExitCode.ok],
    ['a new refusal among known ones', { rejected: 3, knownRefused: 2 }, ExitCode.partial],
    [
      'known problems, but delivery failed',
      { invalid: 1, knownInvalid: 1, failed: 1 },
      ExitCode.deliveryFailed,
    ],
    // Issue 25: the held records are not sent by the guard's choice: 6, not 4.
    ['the value guard stopped the run', { notSent: 60, invalid: 2, guard: stopped }, ExitCode.guardStopped],
    [
      'the value guard let it through',
      { sent: 5, guard: { ...stopped, verdict: 'accepted' as const } },
      ExitCode.ok,
    ],
  ])('%s', (_name, over, code) => {
    expect(exitCodeFor(summary(over))).toBe(code);
  });
});

describe('exitCodeFor with a --max-invalid budget', () => {
  it.each([
    ['invalid rows within the budget', { invalid: 2, sent: 5 }, 2, ExitCode.ok],
    ['one more than the budget', { invalid: 3, sent: 5 }, 2, ExitCode.partial],
    ['within the budget, but the server rejected one', { invalid: 1, rejected: 1 }, 2, ExitCode.partial],
    ['within the budget, but delivery failed', { invalid: 1, failed: 1 }, 2, ExitCode.deliveryFailed],
    ['known rows do not count against it', { invalid: 12, knownInvalid: 10 }, 2, ExitCode.ok],
  ])('%s', (_name, over, allowed, code) => {
    expect(exitCodeFor(summary(over), allowed)).toBe(code);
  });
});

describe('exitCodeForError', () => {
  it.each([
    [new UsageError('x'), 2],
    [new ConfigError('x'), 2],
    [new AuthError('x'), 3],
    [new RevimportError('delivery', 'x'), 4],
    [new LockError('x'), 5],
    [new Error('bug'), 70],
    ['a string', 70],
  ])('%o -> %i', (error, code) => {
    expect(exitCodeForError(error)).toBe(code);
  });
});

// The identities a run's counts obey (issue 20: counts that add up). Pure: given the --json object (or a
// Summary), the list of identities it violates; the end-to-end tests check every --json line with it.

/** The counts an identity reads: a Summary, or the --json object parsed back. */
export type Counts = Record<string, unknown>;

/**
 * (a) Every data row read is one of: valid, invalid, skipped, or folded into another row's conversion.
 * (b) Each valid record of this run has exactly one outcome; --check and a run --max-invalid stopped send
 *     nothing, so there every outcome is 0.
 * (c) Records of earlier runs resent first are counted apart from this run's, each with one outcome.
 */
export const thisRunOutcomes = [
  'sent',
  'alreadySent',
  'changed',
  'rejected',
  'failed',
  'pending',
  'notSent',
] as const;
export const resentOutcomes = ['retriedSent', 'retriedRejected', 'retriedFailed', 'retriedPending'] as const;

/** The identities `counts` violates, each as a sentence with its numbers; empty when they all hold. */
export function violatedIdentities(counts: Counts): string[] {
  const n = (key: string): number => (typeof counts[key] === 'number' ? (counts[key] as number) : Number.NaN);
  const sum = (keys: readonly string[]) => keys.reduce((total, key) => total + n(key), 0);
  const named = (keys: readonly string[]) => keys.map((key) => `${key} ${n(key)}`).join(' + ');
  const violated: string[] = [];
  const expect = (holds: boolean, text: string) => {
    if (!holds) violated.push(text);
  };

  const rowKinds = ['valid', 'invalid', 'skipped', 'folded'] as const;
  expect(n('rowsRead') === sum(rowKinds), `rowsRead ${n('rowsRead')} = ${named(rowKinds)}`);
  expect(n('duplicates') <= n('invalid'), `duplicates ${n('duplicates')} <= invalid ${n('invalid')}`);
  if ('knownInvalid' in counts) {
    expect(n('knownInvalid') <= n('invalid'), `knownInvalid ${n('knownInvalid')} <= invalid ${n('invalid')}`);
    expect(
      n('knownRefused') <= n('rejected'),
      `knownRefused ${n('knownRefused')} <= rejected ${n('rejected')}`,
    );
  }
  const reasons = Object.values((counts.skippedReasons ?? {}) as Record<string, number>);
  const byReason = reasons.reduce((total, count) => total + count, 0);
  expect(byReason === n('skipped'), `skipped ${n('skipped')} = the sum of skippedReasons ${byReason}`);

  const sentNothing = counts.check === true || counts.aborted !== undefined;
  const outcomes = sum(thisRunOutcomes);
  if (sentNothing) {
    expect(
      outcomes + sum(resentOutcomes) + n('retried') === 0,
      `nothing sent: ${named(thisRunOutcomes)} = 0`,
    );
  } else {
    expect(n('valid') === outcomes, `valid ${n('valid')} = ${named(thisRunOutcomes)}`);
  }
  expect(n('adjusted') <= n('sent'), `adjusted ${n('adjusted')} <= sent ${n('sent')}`);
  expect(n('retried') === sum(resentOutcomes), `retried ${n('retried')} = ${named(resentOutcomes)}`);
  const answered = ['sent', 'rejected', 'retriedSent', 'retriedRejected'] as const;
  expect(n('unrecorded') <= sum(answered), `unrecorded ${n('unrecorded')} <= ${named(answered)}`);

  expect(Number.isInteger(n('durationMs')) && n('durationMs') >= 0, `durationMs ${n('durationMs')} >= 0`);
  if (typeof counts.startedAt === 'string' && typeof counts.finishedAt === 'string') {
    const wall = Date.parse(counts.finishedAt) - Date.parse(counts.startedAt);
    expect(n('durationMs') === wall, `durationMs ${n('durationMs')} = finishedAt - startedAt ${wall}`);
  }
  return violated;
}

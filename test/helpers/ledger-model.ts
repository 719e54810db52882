// A model of the ledger as one table (the semantics before the hot/cold split), for the property tests of
// ledger-split.test.ts (SQLite) and conformance.test.ts (both backends): the operations, their arbitrary
// sequences, and what each does to the model and the number of records it reports changed.
import fc from 'fast-check';
import type { RecordState } from '../../src/ledger/types.js';

export type Op =
  | { kind: 'pending'; keys: string[]; hash: string; resend: boolean }
  | { kind: 'delivered' | 'failed'; keys: string[] }
  | { kind: 'rejected'; keys: string[] }
  | { kind: 'merge' };

export interface ModelRow {
  state: RecordState;
  contentHash: string;
  hasPayload: boolean;
}

export const allKeys = ['id:a', 'id:b', 'id:c', 'id:d', 'h:e'];
const keysArb = fc.uniqueArray(fc.constantFrom(...allKeys), { minLength: 1, maxLength: 4 });
export const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('pending' as const),
    keys: keysArb,
    hash: fc.constantFrom('h1', 'h2'),
    resend: fc.boolean(),
  }),
  fc.record({ kind: fc.constantFrom('delivered' as const, 'failed' as const), keys: keysArb }),
  fc.record({ kind: fc.constant('rejected' as const), keys: keysArb }),
  fc.record({ kind: fc.constant('merge' as const) }),
);

/** Applies `op` to `model`; returns the number of records the ledger must report changed. */
export function applyToModel(model: Map<string, ModelRow>, op: Op): number {
  if (op.kind === 'merge') return 0;
  let changed = 0;
  for (const key of op.keys) {
    const row = model.get(key);
    if (op.kind === 'pending') {
      if (row?.state === 'delivered' && !op.resend) continue;
      model.set(key, { state: 'pending', contentHash: op.hash, hasPayload: true });
    } else if (!row) {
      continue;
    } else if (op.kind === 'delivered') {
      model.set(key, { ...row, state: 'delivered', hasPayload: false });
    } else if (op.kind === 'rejected') {
      model.set(key, { ...row, state: 'rejected' });
    } else if (
      row.state === 'pending' ||
      row.state === 'failed' ||
      (row.state === 'rejected' && row.hasPayload)
    ) {
      model.set(key, { ...row, state: 'failed' });
    } else {
      continue;
    }
    changed++;
  }
  return changed;
}

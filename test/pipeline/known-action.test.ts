// What a push does with a record the ledger knows (src/pipeline/known-records.ts knownAction): one row
// per ledger state, content same or changed, and --resend mode.
import { describe, expect, it } from 'vitest';
import { type KnownAction, knownAction, type ResendMode } from '../../src/pipeline/known-records.js';

type State = Parameters<typeof knownAction>[0];

const table: Array<[State, boolean, ResendMode, KnownAction]> = [
  ['delivered', true, false, 'already sent'],
  ['delivered', false, false, 'changed'],
  ['delivered', true, 'changed', 'already sent'],
  ['delivered', false, 'changed', 'send'],
  ['delivered', true, 'all', 'send'],
  ['delivered', false, 'all', 'send'],
  ['pending', true, false, 'pending'],
  ['pending', false, false, 'send'],
  ['pending', true, 'all', 'pending'],
  ['failed', true, 'changed', 'pending'],
  ['failed', false, false, 'send'],
  ['rejected', true, false, 'rejected before'],
  ['rejected', true, 'changed', 'rejected before'],
  ['rejected', false, false, 'send'],
  ['rejected', true, 'all', 'send'],
];

describe('knownAction', () => {
  it.each(table)('%s, same content %s, --resend %s: %s', (state, same, resend, action) => {
    expect(knownAction(state, same, resend)).toBe(action);
  });
});

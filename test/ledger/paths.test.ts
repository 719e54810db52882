import { describe, expect, it } from 'vitest';
import { defaultLedgerPath, lockPathFor } from '../../src/ledger/paths.js';

describe('defaultLedgerPath', () => {
  it.each([
    [{ REVIMPORT_STATE: '/x/my.db', XDG_STATE_HOME: '/xdg' }, '/x/my.db'],
    [{ REVIMPORT_STATE: '', XDG_STATE_HOME: '/xdg' }, '/xdg/revimport/ledger.db'],
    [{ XDG_STATE_HOME: '/xdg/' }, '/xdg/revimport/ledger.db'],
    [{ XDG_STATE_HOME: '' }, '/home/ann/.local/state/revimport/ledger.db'],
    [{ XDG_STATE_HOME: 'relative/state' }, '/home/ann/.local/state/revimport/ledger.db'],
    [{}, '/home/ann/.local/state/revimport/ledger.db'],
  ])('%o → %s', (env, expected) => {
    expect(defaultLedgerPath(env, '/home/ann')).toBe(expected);
  });
});

describe('lockPathFor', () => {
  it('puts the lock next to the ledger', () => {
    expect(lockPathFor('/s/revimport/ledger.db')).toBe('/s/revimport/ledger.db.lock');
  });
});

import { describe, expect, it } from 'vitest';
import {
  defaultLedgerPath,
  ledgerBesideConfig,
  lockPathFor,
  userLedgerPath,
} from '../../src/ledger/paths.js';

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

describe('the ledger follows the config (issue 19)', () => {
  it("is revimport-ledger.db in the config file's folder, whatever HOME or XDG_STATE_HOME say", () => {
    expect(ledgerBesideConfig('/srv/crm/revimport.config.yaml')).toBe('/srv/crm/revimport-ledger.db');
    expect(ledgerBesideConfig('/srv/crm/.config/revimportrc')).toBe('/srv/crm/.config/revimport-ledger.db');
  });

  it('without a config file is the user ledger, which REVIMPORT_STATE does not change', () => {
    expect(userLedgerPath({ REVIMPORT_STATE: '/x/my.db', XDG_STATE_HOME: '/xdg' }, '/home/ann')).toBe(
      '/xdg/revimport/ledger.db',
    );
  });
});

describe('lockPathFor', () => {
  it('puts the lock next to the ledger', () => {
    expect(lockPathFor('/s/revimport/ledger.db')).toBe('/s/revimport/ledger.db.lock');
  });
});

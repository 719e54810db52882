// The pure decisions of ledger/accounts.ts (issue 19): which account names are settings, and what the first
// push to a URL with targets from before accounts may decide alone.
import { describe, expect, it } from 'vitest';
import { automaticAssignment, checkAccountName } from '../../src/ledger/accounts.js';
import type { AccountRow } from '../../src/ledger/types.js';

const url = 'https://crm.example';
const row = (over: Partial<AccountRow>): AccountRow => ({
  id: 1,
  baseUrl: url,
  account: null,
  keyFingerprint: 'aaaa',
  delivered: 0,
  outstanding: 0,
  lastUsed: null,
  ...over,
});

describe('checkAccountName', () => {
  it.each([
    ['shop-eu', undefined],
    [' shop', 'must not start or end with spaces'],
    ['x'.repeat(101), 'must be at most 100 characters'],
    ['shop\u0000', 'must not hold control characters'],
    ['shop\u009b', 'must not hold control characters'],
  ])('%j: %s', (name, problem) => {
    expect(checkAccountName(name)).toBe(problem);
  });
});

describe('automaticAssignment', () => {
  it('one delivering key and one refused: both become the URL account', () => {
    const rows = [row({ id: 1, delivered: 4 }), row({ id: 2, keyFingerprint: 'cccc', outstanding: 6 })];
    expect(automaticAssignment(rows, url)).toEqual({ fingerprints: ['aaaa', 'cccc'], account: '' });
  });

  it('keys without deliveries join the one account the URL already has', () => {
    const rows = [row({ id: 1, account: 'eu', keyFingerprint: null, delivered: 9 }), row({ id: 2 })];
    expect(automaticAssignment(rows, url)).toEqual({ fingerprints: ['aaaa'], account: 'eu' });
  });

  it('several delivering keys, or several accounts: the user must say', () => {
    const two = [row({ id: 1, delivered: 4 }), row({ id: 2, keyFingerprint: 'bbbb', delivered: 4 })];
    expect(automaticAssignment(two, url)).toBeUndefined();
    const accounts = [
      row({ id: 1, account: 'eu', keyFingerprint: null }),
      row({ id: 2, account: 'us', keyFingerprint: null }),
      row({ id: 3 }),
    ];
    expect(automaticAssignment(accounts, url)).toBeUndefined();
    expect(automaticAssignment([row({ account: '' })], url)).toBeUndefined();
  });
});

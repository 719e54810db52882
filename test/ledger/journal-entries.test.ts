import { describe, expect, it } from 'vitest';
import { journalColumn, packJournal } from '../../src/ledger/journal-entries.js';
import type { JournalEntries } from '../../src/ledger/types.js';

const objects: JournalEntries = [
  { key: 'id:a"1', contentHash: 'h1', currency: 'EUR', value: 1.5 },
  { key: 'id:b', contentHash: 'h2', currency: 'USD', value: -2 },
];
const packedForm: JournalEntries = [
  ['id:a"1', 'h1', 'EUR', 1.5],
  ['id:b', 'h2', 'USD', -2],
];

describe('packJournal', () => {
  it('writes [key, hash, currency, value] per record, in order, whichever form the entries come in', () => {
    const expected = '[["id:a\\"1","h1","EUR",1.5],["id:b","h2","USD",-2]]';
    expect(packJournal(objects)).toBe(expected);
    expect(packJournal(packedForm)).toBe(expected);
    expect(packJournal([objects[0]!, packedForm[1]!])).toBe(expected);
    expect(packJournal([])).toBe('[]');
  });
});

describe('journalColumn', () => {
  it('gives one column of the entries, from objects and packed entries alike', () => {
    for (const entries of [objects, packedForm]) {
      expect(journalColumn(entries, 0)).toEqual(['id:a"1', 'id:b']);
      expect(journalColumn(entries, 1)).toEqual(['h1', 'h2']);
      expect(journalColumn(entries, 2)).toEqual(['EUR', 'USD']);
      expect(journalColumn(entries, 3)).toEqual([1.5, -2]);
    }
  });
});

// How `columns: [...]` joins cells into one value: the one rule push and init's guess share.
import { describe, expect, it } from 'vitest';
import { joinedCells } from '../../src/mapping/joined-columns.js';

describe('joinedCells', () => {
  it.each([
    ['date, time and zone', ['2024-03-05', '14:30', 'EST'], [0, 1, 2], '2024-03-05 14:30 EST'],
    ['in the order given, not the header order', ['14:30', '2024-03-05'], [1, 0], '2024-03-05 14:30'],
    ['cells trimmed', [' 2024-03-05 ', '\t14:30'], [0, 1], '2024-03-05 14:30'],
    ['an empty cell in the middle leaves one space', ['2024-03-05', ' ', 'EST'], [0, 1, 2], '2024-03-05 EST'],
    ['an absent trailing cell is skipped', ['2024-03-05'], [0, 1], '2024-03-05'],
    ['every cell empty', ['', '  '], [0, 1], ''],
    ['only the indexes asked for', ['a', 'b', 'c'], [2], 'c'],
  ])('%s', (_, cells, indexes, joined) => {
    expect(joinedCells(cells, indexes)).toBe(joined);
  });
});

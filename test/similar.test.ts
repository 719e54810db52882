// The did-you-mean helpers: config keys as commander suggests flags, header columns by spelling, containment or a shared word.
import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, nearColumns, suggestKeys } from '../src/similar.js';

describe('editDistance', () => {
  it.each([
    ['', '', 0],
    ['timezone', 'timezon', 1],
    ['decimal', 'decmial', 1],
    ['fields', 'feilds', 1],
    ['kitten', 'sitting', 3],
  ])('%s / %s: %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
  });
});

describe('suggestKeys', () => {
  const top = ['timezone', 'currency', 'apiKey', 'apiKeyFile', 'batchSize', 'mapping'];
  it.each([
    ['timezon', ['timezone']],
    ['apikey', ['apiKey']],
    ['batchsize', ['batchSize']],
    ['mapings', ['mapping']],
    ['zzz', []],
    ['colour', []],
  ])('%s -> %j', (word, expected) => {
    expect(suggestKeys(word, top)).toEqual(expected);
  });
});

describe('nearColumns', () => {
  const header = ['Order ID', 'Date', 'Total', 'Currency', 'Email'];
  it.each([
    ['Order Total', ['Total', 'Order ID']],
    ['Currancy', ['Currency']],
    ['E-mail', ['Email']],
    ['Transaction Date', ['Date']],
    ['Visitor', []],
  ])('%s -> %j', (wanted, expected) => {
    expect(nearColumns(wanted, header)).toEqual(expected);
  });

  it('gives at most the number asked for', () => {
    expect(nearColumns('Order', ['Order A', 'Order B', 'Order C', 'Order D'], 2)).toHaveLength(2);
  });
});

describe('didYouMean', () => {
  it.each([
    [[], ''],
    [['Total'], 'did you mean "Total"?'],
    [['A', 'B', 'C'], 'did you mean "A", "B" or "C"?'],
  ])('%j', (list, text) => {
    expect(didYouMean(list)).toBe(text);
  });
});

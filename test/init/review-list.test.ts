// init's review list and notes (src/init/review-list.ts) from literal inputs: what must be looked at before a
// push (init exits 1) and what is only worth knowing, one decision per case.
import { describe, expect, it } from 'vitest';
import { ConfigError, UnlinkableError } from '../../src/errors.js';
import { type ReviewInput, reviewList } from '../../src/init/review-list.js';
import type { Candidate, FieldGuess, MappingGuess } from '../../src/init/types.js';
import { findPreset } from '../../src/mapping/presets/index.js';
import { type RecordField, recordFields } from '../../src/record/fields.js';

const candidate = (column: string, extra: Partial<Candidate> = {}): Candidate => ({
  columns: [column],
  score: 100,
  evidence: 'test',
  ...extra,
});

function guessOf(
  fields: Partial<Record<RecordField, Partial<FieldGuess>>>,
  rest: Partial<MappingGuess> = {},
) {
  const all = Object.fromEntries(recordFields.map((f) => [f, { ruledOut: [], ...fields[f] }])) as Record<
    RecordField,
    FieldGuess
  >;
  return { fields: all, ...rest } satisfies MappingGuess;
}

/** A guess that maps value, time, currency, id and e-mail, and a sample of 10 rows all valid. */
function input(over: Partial<ReviewInput> = {}): ReviewInput {
  return {
    sampled: 10,
    malformed: [],
    header: ['Total', 'Date', 'Currency', 'Order', 'Email'],
    preset: undefined,
    guess: guessOf({
      conversionValue: { choice: candidate('Total') },
      conversionDatetime: { choice: candidate('Date') },
      conversionCurrency: { choice: candidate('Currency') },
      conversionId: { choice: candidate('Order') },
      conversionEmail: { choice: candidate('Email') },
    }),
    specs: { conversionValue: 'Total', conversionEmail: 'Email', serviceId: 'Visitor' },
    unguessed: [],
    checked: 10,
    tried: { records: [], reasons: new Map(), stop: undefined },
    ...over,
  };
}

describe('reviewList', () => {
  it('nothing to say about a clean guess with a visitor id', () => {
    expect(reviewList(input())).toEqual({ review: [], notes: [] });
  });

  it.each([
    ['some rows unreadable: a note', 3, 'notes'],
    ['every row unreadable: a review', 10, 'review'],
  ] as const)('%s', (_, count, list) => {
    const malformed = Array.from({ length: count }, (_, i) => ({ line: i + 2, message: 'bad quote' }));
    const lists = reviewList(input({ malformed }));
    expect(lists[list]).toEqual([`${count} of the 10 sample rows cannot be read: line 2: bad quote`]);
  });

  it('a field the guess flags is reviewed under its name', () => {
    const guess = guessOf({
      conversionValue: { choice: candidate('Total'), review: 'close call' },
      conversionDatetime: { choice: candidate('Date') },
      conversionCurrency: { choice: candidate('Currency') },
    });
    expect(reviewList(input({ guess })).review).toEqual(['conversionValue: close call']);
  });

  it('whole numbers of unknown unit: the unit question replaces the field review', () => {
    const guess = guessOf({
      conversionValue: { choice: candidate('Total'), review: 'whole numbers', unitUndecided: true },
    });
    expect(reviewList(input({ guess, unitQuestion: 'units or cents?' })).review).toEqual(['units or cents?']);
  });

  it('a status with money not received: keep the received values, for review', () => {
    const guess = guessOf({}, { status: { column: 'Status', keep: ['Paid'], notRevenue: [['Failed', 2]] } });
    expect(reviewList(input({ guess })).review).toEqual([
      '"Status" holds Failed (2) in the sample: money not received is not revenue, so init keeps only rows whose Status is Paid (mapping.keep); check that list',
    ]);
  });

  it('a required field without a column names what was ruled out, and the currency alternative', () => {
    const guess = guessOf({ conversionCurrency: { ruledOut: ['"Curr" does not hold ISO currency codes'] } });
    expect(reviewList(input({ guess, unguessed: ['conversionCurrency'] })).review).toEqual([
      'no column found for conversionCurrency: set mapping.fields.conversionCurrency to the column that holds it (ruled out: "Curr" does not hold ISO currency codes), or `currency` to the one currency of the export',
    ]);
  });

  // The mapping compares header names case- and space-insensitively, so `Total` and `total` are one column to it.
  it.each([
    [['Total', 'Date', 'Total'], 1],
    [['Total', 'Date', 'to tal'], 1],
    [['Total', 'Date', 'Totals'], 0],
  ])('header %j: %i review of a name written twice', (header, count) => {
    const { review } = reviewList(input({ header }));
    expect(review.filter((r) => r.includes('two columns named'))).toHaveLength(count);
  });

  it('neither a visitor id nor an e-mail: a review; e-mail alone: a note', () => {
    expect(reviewList(input({ specs: { conversionValue: 'Total' } })).review).toEqual([
      'no visitor id and no e-mail column: set mapping.fields.serviceId or mapping.fields.conversionEmail',
    ]);
    expect(reviewList(input({ specs: { conversionEmail: 'Email' } })).notes).toEqual([
      'no visitor id column: records are linked by e-mail; if the export has the tracking script visitor id, set mapping.fields.serviceId to its column',
    ]);
  });

  it('a stop that already said what links a record is not said twice', () => {
    const stop = new UnlinkableError('nothing links a record', { hint: 'map serviceId' });
    const { review } = reviewList(input({ specs: {}, tried: { records: [], reasons: new Map(), stop } }));
    expect(review).toEqual(['nothing links a record; map serviceId']);
    const other = new ConfigError('column "X" is not in the header');
    expect(
      reviewList(input({ specs: {}, tried: { records: [], reasons: new Map(), stop: other } })).review,
    ).toEqual([
      'column "X" is not in the header',
      'no visitor id and no e-mail column: set mapping.fields.serviceId or mapping.fields.conversionEmail',
    ]);
  });

  it('a preset that links records says its notes and asks nothing more', () => {
    const preset = findPreset('stripe')!;
    expect(preset).toBeDefined();
    const lists = reviewList(input({ preset, guess: undefined, specs: {} }));
    expect(lists.notes).toEqual(preset.notes);
    expect(lists.review).toEqual([]);
  });

  it.each([
    ['ambiguous zone on every row: review', 'ambiguous time zone', 10, 'review'],
    ['ambiguous zone on some rows: note', 'ambiguous time zone', 4, 'notes'],
  ] as const)('%s', (_, reason, count, list) => {
    const tried = { records: [], reasons: new Map([[reason, count]]), stop: undefined };
    expect(reviewList(input({ tried }))[list]).toHaveLength(1);
  });

  it.each([
    ['one reason on every tried row', 10, 5, 'review'],
    ['no valid record at all', 4, 0, 'review'],
    ['a few bad rows among valid ones', 4, 6, 'notes'],
  ] as const)('refusals: %s', (_, count, valid, list) => {
    const records = Array.from({ length: valid }, () => ({}) as never);
    const tried = { records, reasons: new Map([['invalid datetime', count]]), stop: undefined };
    expect(reviewList(input({ tried }))[list]).toEqual([`${count} of the 10 sample rows: invalid datetime`]);
  });
});

import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentHash, recordIdentity, recordKey } from '../../src/ledger/record-key.js';
import { type ConversionRecord, recordFields } from '../../src/record/fields.js';

const base: ConversionRecord = {
  conversionCurrency: 'EUR',
  conversionValue: 12.5,
  conversionDatetime: '2024-03-01T10:00:00.000Z',
  conversionTimezone: 'Europe/Paris',
};

const optionalText = fc.option(fc.string(), { nil: undefined });
const records: fc.Arbitrary<ConversionRecord> = fc
  .record({
    conversionCurrency: fc.string(),
    conversionValue: fc.double({ noNaN: true, noDefaultInfinity: true }),
    conversionDatetime: fc.string(),
    conversionTimezone: fc.string(),
    serviceId: optionalText,
    conversionId: optionalText,
    conversionName: optionalText,
    conversionEmail: optionalText,
  })
  .map(
    (r) =>
      Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined)) as unknown as ConversionRecord,
  );

/** Two records are the same content iff every field is equal (by its wire text for the number). */
function sameContent(a: ConversionRecord, b: ConversionRecord): boolean {
  return recordFields.every((f) => (a[f] === undefined ? b[f] === undefined : String(a[f]) === String(b[f])));
}

describe('contentHash', () => {
  it('is the truncated SHA-256 of the length-prefixed fields in recordFields order', () => {
    const text = 's3:EURn4:12.5s24:2024-03-01T10:00:00.000Zs12:Europe/Paris~~~~';
    expect(contentHash(base)).toBe(createHash('sha256').update(text).digest('hex').slice(0, 32));
  });

  it('ignores property order', () => {
    const reversed = Object.fromEntries(Object.entries({ ...base, serviceId: 's' }).reverse());
    expect(contentHash(reversed as unknown as ConversionRecord)).toBe(
      contentHash({ ...base, serviceId: 's' }),
    );
  });

  it.each([
    ['absent vs empty', { ...base }, { ...base, conversionName: '' }],
    ['value moved between fields', { ...base, serviceId: 'a' }, { ...base, conversionName: 'a' }],
    [
      'separator inside a value',
      { ...base, serviceId: 'a~', conversionId: undefined },
      { ...base, serviceId: 'a', conversionId: '' },
    ],
    ['number vs its text', { ...base, conversionValue: 1 }, { ...base, conversionValue: 10 }],
  ])('distinguishes %s', (_label, a, b) => {
    expect(contentHash(a as ConversionRecord)).not.toBe(contentHash(b as ConversionRecord));
  });

  it('differs exactly when the content differs (property)', () => {
    fc.assert(
      fc.property(records, records, (a, b) => {
        expect(contentHash(a) === contentHash(b)).toBe(sameContent(a, b));
      }),
      { numRuns: 2000 },
    );
  });

  it('hashes the text of its definition, whatever the characters: non-ASCII, lone surrogates, long values (property)', () => {
    // The definition as the ledgers written so far hashed it: the text built as a string, then its UTF-8.
    const reference = (r: ConversionRecord) => {
      let text = '';
      for (const field of recordFields) {
        const value = r[field];
        if (value === undefined) text += '~';
        else if (typeof value === 'number') text += `n${String(value).length}:${String(value)}`;
        else text += `s${value.length}:${value}`;
      }
      return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);
    };
    const units = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)) });
    const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), units, fc.string({ minLength: 3000 }));
    const anyText = fc.option(text, { nil: undefined });
    // Amounts of whole cents take their own path (record/number-bytes.ts).
    const value = fc.oneof(
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer({ min: -(2 ** 53 - 1), max: 2 ** 53 - 1 }).map((cents) => cents / 100),
      fc.integer({ min: -1_000_000, max: 1_000_000 }).map((cents) => cents / 100),
    );
    const wide = fc.record({
      conversionCurrency: text,
      conversionValue: value,
      conversionDatetime: text,
      conversionTimezone: text,
      serviceId: anyText,
      conversionId: anyText,
      conversionName: anyText,
      conversionEmail: anyText,
    }) as fc.Arbitrary<ConversionRecord>;
    fc.assert(
      fc.property(wide, (r) => {
        expect(contentHash(r)).toBe(reference(r));
      }),
      { numRuns: 3000 },
    );
    // A value of 20,000 units, past the first buffer, then a short one again.
    const long = { ...base, conversionName: `é${'x'.repeat(20_000)}\ud800` };
    expect(contentHash(long)).toBe(reference(long));
    expect(contentHash(base)).toBe(reference(base));
  });

  it('is 32 lowercase hex chars', () => {
    fc.assert(fc.property(records, (r) => /^[0-9a-f]{32}$/.test(contentHash(r))));
  });
});

describe('recordKey', () => {
  it.each([
    [{ ...base, conversionId: 'ORD-1' }, 'id:ORD-1'],
    [{ ...base, conversionId: 'ORD-1', conversionValue: 99 }, 'id:ORD-1'],
    [base, `h:${contentHash(base)}`],
    [{ ...base, conversionId: '' }, `h:${contentHash({ ...base, conversionId: '' })}`],
  ])('%o → %s', (record, expected) => {
    expect(recordKey(record)).toBe(expected);
  });

  it('recordIdentity agrees with recordKey and contentHash', () => {
    fc.assert(
      fc.property(records, (r) => {
        expect(recordIdentity(r)).toEqual({ key: recordKey(r), contentHash: contentHash(r) });
      }),
    );
  });
});

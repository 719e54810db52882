import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyBytes } from '../../src/transport/body-bytes.js';
import { idempotencyKey } from '../../src/transport/idempotency.js';

const partOf = (record: unknown) => {
  const json = JSON.stringify(record);
  return { json, bytes: Buffer.byteLength(json) };
};

describe('bodyBytes', () => {
  it('is the UTF-8 of the records joined as a JSON array, whatever they hold, and keys the same as that text', () => {
    // Any text a field can hold: accents, emoji (surrogate pairs), lone surrogates (JSON.stringify escapes
    // them), quotes, backslashes, control characters.
    const field = fc.string({ unit: 'binary', maxLength: 12 });
    const record = fc.record({ conversionId: field, conversionName: field, conversionValue: fc.double() });
    fc.assert(
      fc.property(fc.array(record, { maxLength: 8 }), (records) => {
        const parts = records.map(partOf);
        const text = `[${parts.map((part) => part.json).join(',')}]`;
        const bytes = bodyBytes(parts);
        expect(bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
        expect(JSON.parse(bytes.toString('utf8'))).toEqual(JSON.parse(text));
        expect(idempotencyKey(bytes)).toBe(idempotencyKey(text));
      }),
    );
  });

  it('owns its ArrayBuffer (a view of the shared pool would take the pool along to another thread)', () => {
    const bytes = bodyBytes([partOf({ conversionId: 'a' })]);
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
  });

  it('refuses a part whose byte count is wrong instead of cutting a record short', () => {
    const part = partOf({ conversionName: 'café' });
    expect(() => bodyBytes([{ ...part, bytes: part.json.length }])).toThrow(/byte count/);
  });
});

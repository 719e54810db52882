import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyBytes } from '../../src/transport/body-bytes.js';
import { idempotencyKey } from '../../src/transport/idempotency.js';
import { type RecordBytes, RecordWriter, recordJson } from '../../src/transport/record-json.js';
import { anyRecord as record } from './helpers.js';

const written = (writer: RecordWriter, record: object): RecordBytes => {
  const bytes = writer.write(record);
  return { chunk: writer.chunk, start: writer.start, bytes };
};

describe('RecordWriter', () => {
  it("writes JSON.stringify's bytes for any record", () => {
    const writer = new RecordWriter();
    fc.assert(
      fc.property(record, (r) => {
        expect(recordJson(written(writer, r))).toBe(JSON.stringify(r));
      }),
      { numRuns: 500 },
    );
  });

  it('writes a record with a toJSON as JSON.stringify does: what toJSON returns', () => {
    const writer = new RecordWriter();
    const whole = { conversionId: 'A-1', conversionEmail: 'ana@example.com', conversionValue: 1.5 };
    // Its toJSON on the prototype, as SentRecord's: for...in sees only the own field.
    const slim = new (class {
      conversionId = 'A-1';
      toJSON() {
        return whole;
      }
    })();
    expect(recordJson(written(writer, slim))).toBe(JSON.stringify(slim));
    expect(recordJson(written(writer, slim))).toBe(JSON.stringify(whole));
  });

  it("writes any keys as JSON.stringify does, those it keeps as bytes and those it escapes, past the kept ones' number", () => {
    const writer = new RecordWriter();
    const key = fc.oneof(
      fc.constantFrom('conversionId', 'a"b', 'a\\b', 'é', '\u0001', '\ud800', ' ~', ''),
      fc.string({ unit: 'binary', maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.dictionary(key, fc.oneof(fc.string(), fc.double())), (r) => {
        expect(recordJson(written(writer, r))).toBe(JSON.stringify(r));
      }),
      { numRuns: 500 },
    );
  });

  it('sends a record with a value of another type through JSON.stringify whole', () => {
    const writer = new RecordWriter();
    const odd = { conversionId: 'a"b', extra: { nested: [1, null, true] }, conversionValue: 1 };
    expect(recordJson(written(writer, odd))).toBe(JSON.stringify(odd));
  });

  it('keeps every record it handed out as written when it moves to a new chunk (records larger than a chunk too)', () => {
    const writer = new RecordWriter();
    const records = Array.from({ length: 40 }, (_, i) => ({
      conversionId: `id-${i}`,
      conversionName: 'é'.repeat(i * 2000),
    }));
    const parts = records.map((r) => written(writer, r));
    expect(new Set(parts.map((p) => p.chunk)).size).toBeGreaterThan(1);
    expect(parts.map(recordJson)).toEqual(records.map((r) => JSON.stringify(r)));
  });
});

describe('bodyBytes', () => {
  it('is the UTF-8 of the records joined as a JSON array, for any subset and order of them, and keys as that text', () => {
    fc.assert(
      fc.property(
        fc.array(record, { maxLength: 10 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (records, picks) => {
          const writer = new RecordWriter();
          const parts = records.map((r) => written(writer, r));
          // All of them in order (one run), and a pick of them (split halves, a probe, any order: several runs).
          const picked = parts.length === 0 ? [] : picks.map((p) => parts[p % parts.length]!);
          for (const body of [parts, picked]) {
            const text = `[${body.map(recordJson).join(',')}]`;
            const bytes = bodyBytes(body);
            expect(bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
            expect(idempotencyKey(bytes)).toBe(idempotencyKey(text));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is the same bytes again for records read back from a body (a journal row resent)', () => {
    fc.assert(
      fc.property(fc.array(record, { minLength: 1, maxLength: 6 }), (records) => {
        const first = bodyBytes(records.map((r) => written(new RecordWriter(), r)));
        const again = new RecordWriter();
        const parsed = JSON.parse(first.toString('utf8')) as object[];
        expect(bodyBytes(parsed.map((r) => written(again, r))).equals(first)).toBe(true);
      }),
    );
  });

  it('owns its ArrayBuffer (a view of the shared pool would take the pool along to another thread)', () => {
    const bytes = bodyBytes([written(new RecordWriter(), { conversionId: 'a' })]);
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
  });

  it('refuses a part that runs past its chunk instead of sending a record cut short', () => {
    const part = written(new RecordWriter(), { conversionName: 'café' });
    expect(() => bodyBytes([{ ...part, bytes: part.chunk.length - part.start + 1 }])).toThrow(/byte count/);
  });
});

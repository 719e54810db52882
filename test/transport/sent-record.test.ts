// A record once its JSON is written (sent-record.ts): the same JSON, the same fields, read back from its bytes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contentHash } from '../../src/ledger/record-key.js';
import { type ConversionRecord, recordFields } from '../../src/record/fields.js';
import { RecordWriter } from '../../src/transport/record-json.js';
import { SentRecord } from '../../src/transport/sent-record.js';
import { anyRecord } from './helpers.js';

function sent(writer: RecordWriter, record: ConversionRecord): SentRecord {
  const bytes = writer.write(record);
  return new SentRecord(record, { chunk: writer.chunk, start: writer.start, bytes });
}

/** Checks `check` on any record (anyRecord) and the SentRecord written from it, one writer for them all. */
function forAnyRecord(numRuns: number, check: (record: ConversionRecord, slim: SentRecord) => void): void {
  const writer = new RecordWriter();
  fc.assert(
    fc.property(anyRecord, (r) => {
      const record = r as unknown as ConversionRecord;
      check(record, sent(writer, record));
    }),
    { numRuns },
  );
}

describe('SentRecord', () => {
  it("gives JSON.stringify the record's own JSON, whatever its fields hold and in whatever order", () => {
    forAnyRecord(500, (record, slim) => expect(JSON.stringify(slim)).toBe(JSON.stringify(record)));
  });

  it('reads every field as the record held it (as its JSON carries it: JSON writes NaN as null)', () => {
    forAnyRecord(300, (record, slim) => {
      const carried = JSON.parse(JSON.stringify(record)) as Record<string, unknown>;
      for (const field of recordFields) {
        const kept = ['conversionCurrency', 'conversionValue', 'conversionId'].includes(field)
          ? record
          : carried;
        expect(slim[field]).toEqual(kept[field]);
      }
    });
  });

  it('hashes as the record it was made from: a content hash taken again once it was let go is the same', () => {
    forAnyRecord(300, (record, slim) => expect(contentHash(slim)).toBe(contentHash(record)));
  });

  it('holds only its amount and id itself, and reads the rest from bytes written before later records', () => {
    const writer = new RecordWriter();
    const first = {
      conversionCurrency: 'EUR',
      conversionValue: 12.5,
      conversionDatetime: '2024-03-01T12:00:00.000Z',
      conversionTimezone: 'Europe/Berlin',
      serviceId: 'v-1',
      conversionId: 'A-1',
      conversionName: 'purchase',
      conversionEmail: 'ana@example.com',
    };
    const slim = sent(writer, first);
    // Later records fill the chunk and pass into new ones: the first record's bytes stay as written.
    for (let i = 0; i < 5000; i++)
      sent(writer, { ...first, conversionId: `B-${i}`, conversionName: 'x'.repeat(100) });
    expect(Object.keys(slim).sort()).toEqual(['conversionCurrency', 'conversionId', 'conversionValue']);
    expect([slim.conversionDatetime, slim.conversionTimezone, slim.serviceId, slim.conversionEmail]).toEqual([
      '2024-03-01T12:00:00.000Z',
      'Europe/Berlin',
      'v-1',
      'ana@example.com',
    ]);
    expect(slim.toJSON()).toEqual(first);
  });
});

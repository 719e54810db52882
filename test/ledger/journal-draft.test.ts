// A journal row's entries drafted as bytes (journal-draft.ts): the same JSON packJournal writes, the hashes of
// records drafted with their content bytes filled in where the slot is written (the writer thread).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fillHashes, JournalDraft } from '../../src/ledger/journal-draft.js';
import { packJournal } from '../../src/ledger/journal-entries.js';
import { JournalSlots, slotParts } from '../../src/ledger/journal-slots.js';
import { ContentBytes, contentHash } from '../../src/ledger/record-key.js';
import type { PackedJournalEntry } from '../../src/ledger/types.js';
import type { ConversionRecord } from '../../src/record/fields.js';
import { anyRecord } from '../transport/helpers.js';

const text = (view: Uint8Array) => Buffer.from(view).toString('utf8');

// Keys and currencies as any text (lone surrogates, quotes, controls); anyRecord's values include those JSON
// writes oddly or as null.
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 12 }), fc.string({ maxLength: 30 }));
/**
 * An entry with its record (`withContent`: drafted from the record's content bytes, else with its hash); a record
 * always has a currency (the validator's), any text here.
 */
const anyEntry = fc.record({
  key: anyText,
  record: fc
    .tuple(anyRecord, anyText)
    .map(([record, currency]) => ({ ...record, conversionCurrency: record.conversionCurrency ?? currency })),
  withContent: fc.boolean(),
  // Where its bytes are: one of two spans' buffers, after its key (a run of them is copied whole), or far after.
  source: fc.constantFrom(0, 1),
  far: fc.boolean(),
});

/**
 * Drafts the entries (a batch) as the pipeline does, each record's bytes after its key in one of two buffers (two
 * spans), a few far from the one before (past the gap a run copies along).
 */
function draftOf(
  draft: JournalDraft,
  entries: readonly { key: string; record: object; withContent: boolean; source?: number; far?: boolean }[],
) {
  const sources = [new ContentBytes(16), new ContentBytes(16)];
  draft.clear();
  for (const { key, record, withContent, source = 0, far = false } of entries) {
    const r = record as ConversionRecord;
    if (!withContent) {
      draft.add(key, contentHash(r), r.conversionCurrency, r.conversionValue);
      continue;
    }
    const bytes = sources[source]!;
    if (far) bytes.units('x'.repeat(600));
    bytes.units(key);
    const from = bytes.length;
    bytes.content(r);
    draft.addContent(key, bytes, from, bytes.length, r.conversionCurrency, r.conversionValue);
  }
}

const packedOf = (entries: readonly { key: string; record: object }[]): PackedJournalEntry[] =>
  entries.map(({ key, record }) => {
    const r = record as ConversionRecord;
    return [key, contentHash(r), r.conversionCurrency, r.conversionValue];
  });

describe('JournalDraft', () => {
  it('writes the JSON packJournal writes, each hash filled in from its bytes (through a slot, as the writer)', () => {
    const draft = new JournalDraft();
    const slots = new JournalSlots();
    fc.assert(
      fc.property(fc.array(anyEntry, { maxLength: 40 }), fc.string(), (entries, body) => {
        draftOf(draft, entries);
        const slot = slots.fillDraft(Buffer.from(body), draft.parts());
        const { body: bodyView, keys, draft: parts } = slotParts(slot);
        const hashed = entries.filter((e) => e.withContent).length;
        expect(parts?.table.length ?? 0).toBe(3 * hashed);
        if (parts) fillHashes(keys, parts.content, parts.table);
        expect(text(bodyView)).toBe(Buffer.from(body).toString('utf8'));
        expect(text(keys)).toBe(packJournal(packedOf(entries)));
        slots.give(slot.buffer);
      }),
    );
  });

  it('writes the same again once cleared, and an empty draft as []', () => {
    const draft = new JournalDraft();
    expect(text(draft.parts().keys)).toBe('[]');
    fc.assert(
      fc.property(fc.array(anyEntry, { minLength: 1, maxLength: 20 }), (entries) => {
        draftOf(draft, entries);
        const parts = draft.parts();
        const first = Buffer.from(parts.keys);
        fillHashes(first, parts.content, parts.table);
        draftOf(draft, entries);
        const again = draft.parts();
        fillHashes(again.keys, again.content, again.table);
        expect(text(again.keys)).toBe(text(first));
        expect(text(first)).toBe(packJournal(packedOf(entries)));
      }),
    );
    draft.clear();
    expect(text(draft.parts().keys)).toBe('[]');
  });

  it('leaves a blank of hex digits where a hash is still to be taken', () => {
    const draft = new JournalDraft();
    const bytes = new ContentBytes();
    bytes.content({
      conversionCurrency: 'EUR',
      conversionValue: 1,
      conversionDatetime: 'x',
    } as ConversionRecord);
    draft.addContent('id:1', bytes, 0, bytes.length, 'EUR', 1);
    expect(JSON.parse(text(draft.parts().keys))).toEqual([['id:1', '0'.repeat(32), 'EUR', 1]]);
  });

  it('grows past its first buffers: many entries, long keys, long records', () => {
    const draft = new JournalDraft();
    const entries = Array.from({ length: 3000 }, (_, i) => ({
      key: `id:${'k'.repeat(i % 50 === 0 ? 20_000 : 10)}${i}`,
      record: {
        conversionCurrency: 'USD',
        conversionValue: i / 100,
        conversionDatetime: '2024-01-01T00:00:00Z',
        conversionName: 'n'.repeat(i % 97 === 0 ? 70_000 : 20),
      },
      withContent: i % 3 !== 0,
    }));
    draftOf(draft, entries);
    const parts = draft.parts();
    fillHashes(parts.keys, parts.content, parts.table);
    expect(text(parts.keys)).toBe(packJournal(packedOf(entries)));
  });
});

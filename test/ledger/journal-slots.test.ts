import { describe, expect, it } from 'vitest';
import { JournalSlots, slotParts } from '../../src/ledger/journal-slots.js';

const text = (view: Uint8Array) => Buffer.from(view).toString('utf8');

describe('JournalSlots', () => {
  it('holds a body and its keys, as the bytes given and the keys as UTF-8', () => {
    const slots = new JournalSlots();
    const slot = slots.fill(Buffer.from('[{"conversionName":"café"}]'), '[["id:é","h","EUR",1]]');
    const { body, keys } = slotParts(slot);
    expect(text(body)).toBe('[{"conversionName":"café"}]');
    expect(text(keys)).toBe('[["id:é","h","EUR",1]]');
  });

  it('uses a buffer given back again, and makes a new one for a row it cannot hold', () => {
    const slots = new JournalSlots();
    const first = slots.fill(Buffer.from('[1]'), '[]');
    // Moved to the writer (detached here) and moved back: the same memory, reused for the next row.
    const back = structuredClone(first.buffer, { transfer: [first.buffer] });
    expect(first.buffer.byteLength).toBe(0);
    slots.give(back);
    const second = slots.fill(Buffer.from('[2]'), '[]');
    expect(second.buffer).toBe(back);
    const large = slots.fill(Buffer.alloc(500 * 1024, 0x20), '[]');
    expect(large.buffer).not.toBe(back);
    expect(large.buffer.byteLength).toBeGreaterThanOrEqual(500 * 1024 + 2);
  });

  it('keeps no detached buffer', () => {
    const slots = new JournalSlots();
    const slot = slots.fill(Buffer.from('[1]'), '[]');
    structuredClone(slot.buffer, { transfer: [slot.buffer] });
    slots.give(slot.buffer);
    // An empty row fits any buffer, even a detached one (0 bytes), which could not be written.
    expect(slots.fill(Buffer.alloc(0), '').buffer).not.toBe(slot.buffer);
  });

  it('keeps no buffer larger than a few usual rows', () => {
    const slots = new JournalSlots();
    const large = slots.fill(Buffer.alloc(2 * 1024 * 1024, 0x20), '[]');
    const back = structuredClone(large.buffer, { transfer: [large.buffer] });
    slots.give(back);
    expect(slots.fill(Buffer.from('[1]'), '[]').buffer).not.toBe(back);
  });
});

import { describe, expect, it } from 'vitest';
import { BatchFiller } from '../../src/transport/batch-filler.js';

const part = (bytes: number) => ({ item: bytes, chunk: Buffer.alloc(bytes), start: 0, bytes });

describe('BatchFiller', () => {
  it('is full by count at the batch size', () => {
    const filler = new BatchFiller<number>(2, 1000);
    expect(filler.add(part(1))).toBe(false);
    expect(filler.add(part(1))).toBe(true);
    expect(filler.fullFor(part(1))).toBe(true);
    expect(filler.take().length).toBe(2);
    expect(filler.empty).toBe(true);
  });

  it('counts brackets and commas against the byte cap', () => {
    // [aaaa,bbbb] is 11 bytes: two records of 4 fit a cap of 11, not of 10.
    const fits = new BatchFiller<number>(10, 11);
    fits.add(part(4));
    expect(fits.fullFor(part(4))).toBe(false);
    const over = new BatchFiller<number>(10, 10);
    over.add(part(4));
    expect(over.fullFor(part(4))).toBe(true);
  });

  it('lets a single record larger than the cap go alone', () => {
    const filler = new BatchFiller<number>(10, 5);
    expect(filler.fullFor(part(50))).toBe(false);
    filler.add(part(50));
    expect(filler.fullFor(part(1))).toBe(true);
  });

  it('starts counting bytes afresh after take(), and only ever shrinks its size', () => {
    const filler = new BatchFiller<number>(3, 11);
    filler.add(part(4));
    filler.add(part(4));
    filler.take();
    filler.add(part(4));
    expect(filler.fullFor(part(4))).toBe(false);
    filler.shrink(1);
    expect(filler.fullFor(part(1))).toBe(true);
    filler.shrink(5);
    filler.take();
    filler.add(part(1));
    expect(filler.fullFor(part(1))).toBe(true);
  });
});

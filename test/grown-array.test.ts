import { describe, expect, it } from 'vitest';
import { doubled } from '../src/grown-array.js';

describe('doubled', () => {
  it('keeps the type and every element at its place, with twice the room', () => {
    for (const array of [
      Int32Array.of(-1, 2, 3),
      Uint32Array.of(4_000_000_000, 7),
      Float64Array.of(0.5, -2.25),
    ]) {
      const bigger = doubled(array);
      expect(bigger.constructor).toBe(array.constructor);
      expect(bigger.length).toBe(array.length * 2);
      expect(Array.from(bigger.subarray(0, array.length))).toEqual(Array.from(array));
      expect(Array.from(bigger.subarray(array.length))).toEqual(new Array(array.length).fill(0));
      expect(bigger.buffer).not.toBe(array.buffer);
    }
  });

  it('makes room in an empty array', () => {
    expect(doubled(new Float64Array(0))).toHaveLength(1);
  });
});

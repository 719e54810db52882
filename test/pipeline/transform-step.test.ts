// The JS transform as a step of the row path (src/pipeline/rows/transform.ts): the fields it returns, a
// dropped row, and the rejection when it throws or returns something else than an object.
import { describe, expect, it } from 'vitest';
import type { SourceInfo, SourceRow } from '../../src/input/types.js';
import { transformStep } from '../../src/pipeline/rows/transform.js';

const source: SourceInfo = { file: 'in.csv', format: 'csv', encoding: 'utf-8', header: ['Id', 'Note'] };
const row: SourceRow = { kind: 'csv', source, line: 3, cells: ['7', 'hello'] };

describe('transformStep', () => {
  it('gives the transform the fields and $row, and takes what it returns without $row', () => {
    const out = transformStep(
      (r) => ({ ...r, conversionName: (r.$row as { Note: string }).Note }),
      { conversionId: '7' },
      row,
    );
    expect(out).toEqual({ candidate: { conversionId: '7', conversionName: 'hello' } });
  });

  it('nothing returned: the fields as the transform left them', () => {
    const out = transformStep(
      (r) => {
        r.conversionId = 'x';
      },
      { conversionId: '7' },
      row,
    );
    expect(out).toEqual({ candidate: { conversionId: 'x' } });
  });

  it.each([null, false])('%s drops the row', (value) => {
    expect(transformStep(() => value, {}, row)).toEqual({ skipped: 'transform returned null', row });
  });

  it.each([
    [
      () => {
        throw new Error('boom');
      },
      'transform threw: boom',
    ],
    [() => 42, 'transform must return an object, null or nothing'],
  ])('a failing transform rejects the row at its line: %s', (transform, message) => {
    const out = transformStep(transform, {}, row);
    expect(out).toMatchObject({
      ok: false,
      duplicate: false,
      rejection: {
        file: 'in.csv',
        line: 3,
        stage: 'invalid',
        issues: [{ column: '(transform)', reason: 'transform failed', message }],
      },
    });
  });
});

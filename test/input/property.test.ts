import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { readRows } from '../../src/input/read-rows.js';
import type { SourceRow } from '../../src/input/types.js';
import { collect, strip, tempFile } from './helpers.js';

// Bytes that matter to the readers, mixed with arbitrary ones.
const interesting = [
  0x2c, 0x3b, 0x09, 0x7c, 0x22, 0x0d, 0x0a, 0x00, 0x7b, 0x7d, 0xef, 0xbb, 0xbf, 0xff, 0xfe, 0x80, 0x61,
];
const bytesArb = fc
  .array(fc.oneof(fc.constantFrom(...interesting), fc.integer({ min: 0, max: 255 })), { maxLength: 300 })
  .map((values) => Buffer.from(values));

async function outcome(rows: AsyncIterable<SourceRow>): Promise<SourceRow[] | ConfigError> {
  try {
    return await collect(rows);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
}

function checkRows(rows: SourceRow[], kinds: string[]): void {
  let previous = 0;
  for (const row of rows) {
    expect(kinds).toContain(row.kind);
    expect(row.line).toBeGreaterThanOrEqual(Math.max(1, previous));
    if (row.kind === 'malformed') expect(typeof row.raw).toBe('string');
    if (row.kind === 'csv') expect(row.cells.every((cell) => typeof cell === 'string')).toBe(true);
    previous = row.line;
  }
}

describe('readRows on arbitrary bytes (property)', () => {
  it('a CSV file yields only CsvRow/MalformedRow with non-decreasing lines >= 1, or a ConfigError', async () => {
    await fc.assert(
      fc.asyncProperty(bytesArb, fc.integer({ min: 1, max: 64 }), async (bytes, maxFieldBytes) => {
        const result = await outcome(readRows(tempFile('any.csv', bytes), { maxFieldBytes }));
        if (!(result instanceof ConfigError)) checkRows(result, ['csv', 'malformed']);
      }),
      { numRuns: 300 },
    );
  });

  it('a JSON lines file yields only JsonRow/MalformedRow with non-decreasing lines >= 1, or a ConfigError', async () => {
    await fc.assert(
      fc.asyncProperty(bytesArb, async (bytes) => {
        const result = await outcome(readRows(tempFile('any.jsonl', bytes), { maxFieldBytes: 32 }));
        if (!(result instanceof ConfigError)) checkRows(result, ['json', 'malformed']);
      }),
      { numRuns: 300 },
    );
  });

  it('stdin in arbitrary chunks gives the same rows as the file', async () => {
    await fc.assert(
      fc.asyncProperty(bytesArb, fc.integer({ min: 1, max: 7 }), async (bytes, chunkSize) => {
        const fromFile = await outcome(readRows(tempFile('any.csv', bytes), { format: 'csv' }));
        const stdin = new PassThrough();
        const pending = outcome(readRows('-', { stdin, format: 'csv' }));
        for (let at = 0; at < bytes.length; at += chunkSize) stdin.write(bytes.subarray(at, at + chunkSize));
        stdin.end();
        const fromStdin = await pending;
        if (fromFile instanceof ConfigError || fromStdin instanceof ConfigError) {
          expect(fromStdin instanceof ConfigError && fromStdin.message.replace(/^-:/, '')).toBe(
            fromFile instanceof ConfigError && fromFile.message.replace(/^[^:]*:/, ''),
          );
        } else {
          expect(strip(fromStdin)).toEqual(strip(fromFile));
        }
      }),
      { numRuns: 200 },
    );
  });
});

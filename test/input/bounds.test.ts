// Inputs that would cost without bound (issue 24): a first line that never ends, a file of NUL bytes, a
// gzip bomb. Each ends the read with a ConfigError naming the file, the limit and how to raise it.
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { GZIP_GRACE_BYTES } from '../../src/input/open.js';
import { type ReadOptions, readRows } from '../../src/input/read-rows.js';
import { collect, tempFile } from './helpers.js';

/**
 * `piece` repeated for ever: a stdin that never ends (`yes | tr -d '\n'`). Each chunk comes in a later turn
 * of the event loop, as from a pipe, so a reader that never stops meets the test's timeout instead of
 * starving it.
 */
function endless(piece: string | Buffer, first?: string): Readable {
  const chunk = Buffer.alloc(64 * 1024, piece);
  let started = first === undefined;
  return new Readable({
    read() {
      setImmediate(() => {
        this.push(started ? chunk : Buffer.from(first!));
        started = true;
      });
    },
  });
}

async function failure(file: string, options: ReadOptions): Promise<ConfigError> {
  const error = await collect(readRows(file, options)).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe('a first line without a line break', () => {
  // Before: read for ever (the tokenizer dropped the oversized row's bytes and waited for its end).
  it('CSV on an endless stdin: stops past maxFieldBytes, naming line 1 and maxRowBytes', async () => {
    const error = await failure('-', { stdin: endless('a'), format: 'csv', maxFieldBytes: 4096 });
    expect(error.message).toBe(
      '-:1: no header row: the row starting on line 1 runs past 4096 bytes (maxRowBytes) without ending; stopped reading',
    );
    expect(error.hint).toMatch(/raise maxRowBytes in the config/);
  });

  it('CSV: a quote that never closes above the header stops too', async () => {
    const stdin = endless('x,\n', 'title\n"');
    const isHeader = (cells: string[]) => cells.includes('id');
    const error = await failure('-', { stdin, format: 'csv', maxFieldBytes: 4096, isHeader });
    expect(error.message).toMatch(/^-:2: no header row: .* runs past 4096 bytes \(maxRowBytes\)/);
  });

  it('CSV: a long preamble row that ends is past the bound all the same: the header search stops', async () => {
    const file = tempFile('preamble.csv', `${'#'.repeat(5000)}\nid,value\n1,2\n`);
    const error = await failure(file, { maxFieldBytes: 4096 });
    expect(error.message).toMatch(/preamble\.csv:1: no header row/);
  });

  it('CSV: below the header a long row is one invalid row and the read goes on', async () => {
    const file = tempFile('data.csv', `id,value\n${'x'.repeat(5000)}\n1,2\n`);
    const rows = await collect(readRows(file, { maxFieldBytes: 4096 }));
    expect(rows.map((r) => r.kind)).toEqual(['malformed', 'csv']);
  });

  it('JSON lines on an endless stdin: stops past maxFieldBytes', async () => {
    const error = await failure('-', { stdin: endless('{"a":1,'), format: 'jsonl', maxFieldBytes: 4096 });
    expect(error.message).toBe(
      '-:1: the first line runs past 4096 bytes (maxRowBytes) without ending; stopped reading',
    );
    expect(error.hint).toMatch(/raise maxRowBytes/);
  });

  it('JSON lines: a whole JSON array on one line is named as one', async () => {
    const array = `[${Array.from({ length: 400 }, (_, i) => `{"id":${i}}`).join(',')}]`;
    const error = await failure(tempFile('all.jsonl', array), { maxFieldBytes: 1024 });
    expect(error.hint).toMatch(/JSON array on one line.*jq -c/);
  });

  it('JSON lines: a later long line is one invalid row and the read goes on', async () => {
    const file = tempFile('later.jsonl', `{"id":1}\n{"x":"${'y'.repeat(5000)}"}\n{"id":2}\n`);
    const rows = await collect(readRows(file, { maxFieldBytes: 4096 }));
    expect(rows.map((r) => r.kind)).toEqual(['json', 'malformed', 'json']);
  });
});

describe('a file of NUL bytes', () => {
  // Before: /dev/zero printed nothing and never ended; a 2 GiB sparse file said "every row is blank".
  it('/dev/zero: named for what it is, at once', async () => {
    const error = await failure('/dev/zero', { format: 'csv' });
    expect(error.message).toBe(
      '/dev/zero: its first 65536 bytes are all NUL (0x00): it is not a text export',
    );
    expect(error.hint).toMatch(/preallocated or sparse file, or a copy cut short/);
  });

  it.each(['csv', 'jsonl'])('a short .%s file of NULs, whole', async (ext) => {
    const error = await failure(tempFile(`zeros.${ext}`, Buffer.alloc(3000)), {});
    expect(error.message).toMatch(/zeros\.\w+: holds only NUL bytes \(all 3000 of them are 0x00\)/);
  });

  it('a gzip of NULs too', async () => {
    const error = await failure(tempFile('zeros.csv.gz', gzipSync(Buffer.alloc(3000))), {});
    expect(error.message).toMatch(/holds only NUL bytes/);
  });

  it('UTF-16 text, half NUL bytes, is text', async () => {
    const file = tempFile('u16.csv', Buffer.from('id,value\n1,2\n', 'utf16le'));
    const rows = await collect(readRows(file, {}));
    expect(rows).toHaveLength(1);
  });
});

describe('gzip inflation', () => {
  const row = 'A-1,v1,a@example.com,Purchase,2024-05-01 10:00:00,10.00,EUR\n';
  const bomb = (bytes: number) => {
    const text = `id,visitor,email,name,time,value,currency\n${row.repeat(Math.ceil(bytes / row.length))}`;
    return gzipSync(text, { level: 9 });
  };

  // Before: a 0.6 MB file of one repeated row inflated to 6.2M rows and ran as if ordinary.
  it('past its first 16 MiB, more than maxGzipRatio times the bytes read: stops, naming the limit', async () => {
    const file = tempFile('bomb.csv.gz', bomb(GZIP_GRACE_BYTES * 2));
    const error = await failure(file, {});
    expect(error.message).toMatch(
      /^.*bomb\.csv\.gz: the gzip data inflates more than 100 times \(maxGzipRatio\): [\d.]+ MiB read became 16\.\d MiB; stopped reading/,
    );
    expect(error.hint).toMatch(/raise maxGzipRatio in the config \(now 100\)/);
  });

  it('a higher maxGzipRatio reads the same file to its end', async () => {
    const file = tempFile('bomb.csv.gz', bomb(GZIP_GRACE_BYTES * 2));
    let rows = 0;
    for await (const _ of readRows(file, { maxGzipRatio: 100_000 })) rows++;
    expect(rows).toBe(Math.ceil((GZIP_GRACE_BYTES * 2) / row.length));
  });

  it('under the first 16 MiB the ratio is not looked at', async () => {
    const file = tempFile('small.csv.gz', bomb(1024 * 1024));
    const rows = await collect(readRows(file, { maxGzipRatio: 1 }));
    expect(rows.length).toBe(Math.ceil((1024 * 1024) / row.length));
  });
});

import { mkdirSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { readRows } from '../../src/input/read-rows.js';
import { collect, strip, tempFile } from './helpers.js';

const csv = 'order,value\n1,10.5\n2,"7,25"\n';
const expected = [
  { kind: 'csv', line: 2, cells: ['1', '10.5'] },
  { kind: 'csv', line: 3, cells: ['2', '7,25'] },
];

describe('readRows sources', () => {
  it('decompresses a .gz file on the fly and takes the format from the inner extension', async () => {
    const rows = await collect(readRows(tempFile('orders.csv.gz', gzipSync(csv))));
    expect(strip(rows)).toEqual(expected);
    expect(rows[0]!.source.format).toBe('csv');
  });

  it('recognises gzip by its magic bytes whatever the name', async () => {
    const rows = await collect(readRows(tempFile('events.jsonl', gzipSync('{"a":1}\n'))));
    expect(strip(rows)).toEqual([{ kind: 'json', line: 1, value: { a: 1 } }]);
  });

  it('throws a ConfigError naming the file for corrupt or truncated gzip', async () => {
    const gz = gzipSync(csv.repeat(2000));
    const file = tempFile('broken.csv.gz', gz.subarray(0, gz.length - 40));
    await expect(collect(readRows(file))).rejects.toThrow(new RegExp(`^${file}: corrupt gzip data`));
    const garbage = tempFile('garbage.csv.gz', Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef]));
    await expect(collect(readRows(garbage))).rejects.toBeInstanceOf(ConfigError);
  });

  it('reads `-` from the given stdin stream, written in tiny chunks', async () => {
    const stdin = new PassThrough();
    const bytes = Buffer.from(`\ufeff${csv}`, 'utf16le');
    const rowsPromise = collect(readRows('-', { stdin }));
    for (let at = 0; at < bytes.length; at += 3) stdin.write(bytes.subarray(at, at + 3));
    stdin.end();
    const rows = await rowsPromise;
    expect(strip(rows)).toEqual(expected);
    expect(rows[0]!.source).toMatchObject({ file: '-', encoding: 'utf-16le' });
  });

  it('keeps lines and characters exact past the sniffed head, in 3-byte chunks of UTF-16LE', async () => {
    const lines = ['id\tnote'];
    for (let n = 1; n <= 9000; n++) lines.push(n % 2 === 0 ? `${n}\t"😀 two\nlines"` : `${n}\tÉté 😀`);
    const bytes = Buffer.from(`\ufeff${lines.join('\r\n')}\r\n`, 'utf16le');
    expect(bytes.length).toBeGreaterThan(3 * 64 * 1024);
    const stdin = new PassThrough();
    const pending = collect(readRows('-', { stdin }));
    for (let at = 0; at < bytes.length; at += 3) stdin.write(bytes.subarray(at, at + 3));
    stdin.end();
    const rows = await pending;
    expect(rows).toHaveLength(9000);
    // Row n starts on line 2 + n-1 + (number of two-line rows before it).
    const lineOf = (n: number) => 1 + n + Math.floor((n - 1) / 2);
    expect(strip([rows[8998]!, rows[8999]!])).toEqual([
      { kind: 'csv', line: lineOf(8999), cells: ['8999', 'Été 😀'] },
      { kind: 'csv', line: lineOf(9000), cells: ['9000', '😀 two\nlines'] },
    ]);
    expect(rows.every((row) => row.kind === 'csv')).toBe(true);
  });

  it('reads gzipped stdin', async () => {
    const stdin = new PassThrough();
    stdin.end(gzipSync('{"a":1}\n{"a":2}\n'));
    const rows = await collect(readRows('-', { stdin }));
    expect(rows.map((row) => row.kind === 'json' && row.value)).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it.each([
    ['a missing file', () => '/nonexistent/dir/conversions.csv', 'file not found'],
    [
      'a directory',
      () => {
        const dir = `${tempFile('x', '')}-dir`;
        mkdirSync(dir);
        return dir;
      },
      'is a directory, not a file',
    ],
  ])('throws a ConfigError with the path for %s', async (_name, makePath, reason) => {
    const path = makePath();
    await expect(collect(readRows(path))).rejects.toThrow(new ConfigError(`${path}: ${reason}`));
  });

  it('throws a ConfigError for `-` without a stdin stream', async () => {
    await expect(collect(readRows('-'))).rejects.toBeInstanceOf(ConfigError);
  });

  it('stops quietly when aborted while waiting for stdin', async () => {
    const stdin = new PassThrough();
    const controller = new AbortController();
    stdin.write('a,b\n1,2\n');
    const rows = collect(readRows('-', { stdin, signal: controller.signal }));
    setImmediate(() => controller.abort());
    expect(await rows).toEqual([]);
    expect(stdin.destroyed).toBe(true);
  });

  it('stops quietly when aborted between rows', async () => {
    const file = tempFile('abort.csv', `h\n${'x\n'.repeat(200_000)}`);
    const controller = new AbortController();
    let count = 0;
    for await (const _row of readRows(file, { signal: controller.signal })) {
      count++;
      controller.abort();
    }
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(200_000);
  });

  it('closes the file when the consumer stops early', async () => {
    const file = tempFile('many.csv', `h\n${'x\n'.repeat(200_000)}`);
    const iterator = readRows(file);
    const first = await iterator.next();
    expect(first.value).toMatchObject({ kind: 'csv', line: 2, cells: ['x'] });
    await iterator.return();
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });
});

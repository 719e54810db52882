import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { readRows } from '../../src/input/read-rows.js';
import { collect, strip, tempFile } from './helpers.js';

describe('readRows on JSON lines', () => {
  it('parses one object per line; blank lines are skipped but counted; CRLF and BOM tolerated', async () => {
    const file = tempFile(
      'events.jsonl',
      '\ufeff{"event_name":"Purchase","custom_data":{"value":142.5,"currency":"EUR","contents":[{"id":"SKU-1"}]}}\r\n\r\n   \n{"order_id":7}\n',
    );
    const rows = await collect(readRows(file));
    expect(strip(rows)).toEqual([
      {
        kind: 'json',
        line: 1,
        value: {
          event_name: 'Purchase',
          custom_data: { value: 142.5, currency: 'EUR', contents: [{ id: 'SKU-1' }] },
        },
      },
      { kind: 'json', line: 4, value: { order_id: 7 } },
    ]);
    expect(rows[0]!.source).toEqual({ file, format: 'jsonl', encoding: 'utf-8' });
  });

  it('keeps each line as it came, for the rejects file (issue 24)', async () => {
    const lines = ['{"__proto__":{"x":1},"n":12345678901234567890}', ' {"b":1,"2":2}  '];
    const file = tempFile('kept.jsonl', `${lines[0]}\r\n${lines[1]}\n`);
    const rows = await collect(readRows(file));
    expect(rows.map((row) => (row.kind === 'json' ? row.text : row.kind))).toEqual(lines);
  });

  it('reports invalid JSON and non-objects with their line and goes on', async () => {
    const file = tempFile('mixed.ndjson', '{"a":1}\n{"a":\n[1,2]\n42\nnull\n{"a":2}');
    const rows = await collect(readRows(file));
    expect(rows.map((row) => [row.line, row.kind, row.kind === 'malformed' ? row.raw : ''])).toEqual([
      [1, 'json', ''],
      [2, 'malformed', '{"a":'],
      [3, 'malformed', '[1,2]'],
      [4, 'malformed', '42'],
      [5, 'malformed', 'null'],
      [6, 'json', ''],
    ]);
    const [, invalid, array, number] = rows;
    expect(invalid).toMatchObject({ reason: 'malformed JSON' });
    expect(invalid?.kind === 'malformed' && invalid.message).toMatch(/^invalid JSON: /);
    expect(array).toMatchObject({
      reason: 'malformed JSON',
      message: 'expected a JSON object on the line, got an array',
    });
    expect(number).toMatchObject({ message: 'expected a JSON object on the line, got a number' });
  });

  it('reports a line over maxFieldBytes as "line too long" without keeping it, in any chunking', async () => {
    const long = `{"blob":"${'z'.repeat(300_000)}"}`;
    const file = tempFile('long.jsonl', `{"a":1}\n${long}\n{"a":2}\n`);
    const rows = await collect(readRows(file, { maxFieldBytes: 1000 }));
    expect(strip(rows)).toEqual([
      { kind: 'json', line: 1, value: { a: 1 } },
      {
        kind: 'malformed',
        line: 2,
        reason: 'line too long',
        message: 'the line is longer than 1000 bytes (maxRowBytes)',
        raw: `{"blob":"${'z'.repeat(191)}`,
      },
      { kind: 'json', line: 3, value: { a: 2 } },
    ]);
  });

  it('sniffs JSON lines in a file without a known extension', async () => {
    const rows = await collect(readRows(tempFile('export', '\n{"a":1}\n')));
    expect(strip(rows)).toEqual([{ kind: 'json', line: 2, value: { a: 1 } }]);
  });

  it('reads a UTF-16LE JSON lines file', async () => {
    const rows = await collect(
      readRows(tempFile('u16.jsonl', Buffer.from('\ufeff{"name":"Été 😀"}\r\n', 'utf16le'))),
    );
    expect(strip(rows)).toEqual([{ kind: 'json', line: 1, value: { name: 'Été 😀' } }]);
  });

  it.each([
    ['a JSON array', '[\n  {"a": 1},\n  {"a": 2}\n]\n', 'is a JSON array; revimport reads JSON lines'],
    ['a one-line JSON array', '[{"a": 1}]', 'is a JSON array; revimport reads JSON lines'],
    ['pretty-printed JSON', '{\n  "a": 1\n}\n', 'looks like pretty-printed JSON; revimport reads JSON lines'],
  ])('refuses %s with a ConfigError', async (_name, text, message) => {
    const file = tempFile('doc.json', text);
    const error = await collect(readRows(file)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ message: `${file}: ${message}`, hint: expect.stringContaining('jq -c') });
  });
});

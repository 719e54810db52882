// Files that are not what their name says (issue 24 item 13): a workbook, an archive, a PDF or an HTML page
// named `.csv` is named for what it is, with how to get a CSV; UTF-16 without BOM is found even when its
// text is mostly CJK.
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { detectEncoding } from '../../src/input/encoding.js';
import { readRows } from '../../src/input/read-rows.js';
import type { CsvRow } from '../../src/input/types.js';
import { xlsxArchive, zipArchive } from '../helpers/zip.js';
import { collect, tempFile } from './helpers.js';

async function failure(file: string): Promise<ConfigError> {
  const error = await collect(readRows(file)).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

const saveAsCsv = /save it as CSV \(Excel: File > Save As > "CSV UTF-8 \(Comma delimited\)"\)/;

describe('a file that is not text', () => {
  it.each([
    [
      'XLSX',
      'orders.csv',
      xlsxArchive(),
      'is an Excel workbook (.xlsx), not CSV or JSON-lines text',
      saveAsCsv,
    ],
    [
      'gzipped XLSX',
      'orders.csv.gz',
      gzipSync(xlsxArchive()),
      'is an Excel workbook (.xlsx), not CSV or JSON-lines text',
      saveAsCsv,
    ],
    [
      'ODS',
      'orders.csv',
      zipArchive({ mimetype: 'application/vnd.oasis.opendocument.spreadsheet', 'content.xml': '<office/>' }),
      'is an OpenDocument spreadsheet (.ods), not CSV or JSON-lines text',
      saveAsCsv,
    ],
    [
      'another ZIP',
      'orders.jsonl',
      zipArchive({ 'orders.jsonl': '{"id":1}\n' }),
      'is a ZIP archive, not CSV or JSON-lines text',
      /unzip it/,
    ],
    [
      'XLS (OLE2)',
      'orders.csv',
      Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(504, 0xff)]),
      'is an Excel 97-2003 workbook (.xls) or another Office file in the old binary format, not CSV or JSON-lines text',
      saveAsCsv,
    ],
    [
      'PDF',
      'orders.csv',
      Buffer.from('%PDF-1.7\n%\xe2\xe3\n1 0 obj\n', 'latin1'),
      'is a PDF document, not CSV or JSON-lines text',
      /export the report as CSV/,
    ],
    [
      'HTML page',
      'orders.csv',
      Buffer.from('\ufeff\n  <!DOCTYPE html>\n<html><body>Sign in</body></html>\n'),
      'is an HTML page, not CSV or JSON-lines text',
      /a login, error or consent page/,
    ],
  ])('%s named %s', async (_, name, bytes, what, hint) => {
    const file = tempFile(name, bytes);
    const error = await failure(file);
    expect(error.message).toBe(`${file}: ${what}`);
    expect(error.hint).toMatch(hint);
  });

  it.each([
    ['a first cell starting with PK', 'PK,Order\n1,2\n'],
    ['a first cell <html>', 'Order,Note\n1,<html>\n'],
    ['a cell "%PDF-" on line 2', 'id\n%PDF-1\n'],
  ])('text that merely looks like one is read: %s', async (_, text) => {
    const rows = await collect(readRows(tempFile('ok.csv', text)));
    expect(rows.length).toBeGreaterThan(0);
  });
});

describe('UTF-16 without BOM, mostly CJK', () => {
  // U+3000 (ideographic space) and U+4E00 end in a 00 byte: they put NULs on the other side too.
  const text =
    '注文番号,金額,通貨,日時,顧客名\n' +
    Array.from(
      { length: 40 },
      (_, i) => `注文${i},１２３４円,日本円,令和六年五月一日,山田太郎様　東京都千代田区一丁目\n`,
    ).join('');

  it.each([
    ['utf-16le', Buffer.from(text, 'utf16le')],
    ['utf-16be', Buffer.from(text, 'utf16le').swap16()],
  ])('%s: detected, and the header reads as written', async (encoding, bytes) => {
    expect(detectEncoding(bytes, true)).toEqual({ encoding, guessed: false });
    const rows = (await collect(readRows(tempFile('cjk.csv', bytes)))) as CsvRow[];
    expect(rows).toHaveLength(40);
    expect(rows[0]!.source.header).toEqual(['注文番号', '金額', '通貨', '日時', '顧客名']);
    expect(rows[39]!.cells[0]).toBe('注文39');
  });

  it.each([
    ['UTF-8 CJK (no NUL at all)', Buffer.from(text, 'utf8'), 'utf-8'],
    [
      'binary with NULs on one side',
      // A NUL in every fifth odd byte: the ASCII code units they make are control characters.
      Buffer.from(
        Array.from({ length: 800 }, (_, i) => {
          const k = i >> 1;
          if (i % 2 === 0) return (k * 37) % 256 || 1;
          return k % 5 === 0 ? 0 : 0x41 + (k % 20);
        }),
      ),
      'windows-1252',
    ],
  ])('%s: not UTF-16', (_, bytes, encoding) => {
    expect(detectEncoding(bytes, true).encoding).toBe(encoding);
  });
});

import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { readRows } from '../../src/input/read-rows.js';
import type { CsvRow } from '../../src/input/types.js';
import { collect, strip, tempFile } from './helpers.js';

const googleHeader = (cells: string[]) =>
  cells.includes('Google Click ID') || cells.includes('Microsoft Click ID');

describe('readRows on CSV', () => {
  it('finds the header below a Google template preamble and reads the IANA Parameters row', async () => {
    const file = tempFile(
      'google.csv',
      [
        '### INSTRUCTIONS ###,,,,',
        '"# IMPORTANT: set the TimeZone value in the ""parameters"" row and/or in your Conversion Time column",,,,',
        '# For instructions on how to set your timezones visit the help centre,,,,',
        ',,,,',
        '### TEMPLATE ###,,,,',
        'Parameters:TimeZone=America/Los_Angeles,,,,',
        'Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency',
        'Cj0abc,Purchase,08/14/2012 5:01:54 PM,"1,249.00",USD',
        '',
        'Cj0def,Lead,2012-08-14 13:00:00,0,',
        '',
      ].join('\r\n'),
    );
    const rows = await collect(readRows(file, { isHeader: googleHeader }));
    expect(strip(rows)).toEqual([
      { kind: 'csv', line: 8, cells: ['Cj0abc', 'Purchase', '08/14/2012 5:01:54 PM', '1,249.00', 'USD'] },
      { kind: 'csv', line: 10, cells: ['Cj0def', 'Lead', '2012-08-14 13:00:00', '0', ''] },
    ]);
    expect(rows[0]!.source).toEqual({
      file,
      format: 'csv',
      encoding: 'utf-8',
      delimiter: ',',
      parameters: { TimeZone: 'America/Los_Angeles' },
      header: [
        'Google Click ID',
        'Conversion Name',
        'Conversion Time',
        'Conversion Value',
        'Conversion Currency',
      ],
      headerLine: 7,
    });
    expect(rows[1]!.source).toBe(rows[0]!.source);
  });

  it('reads a Microsoft template: offset with trailing `;`, UTF-8 BOM, LF file', async () => {
    const file = tempFile(
      'microsoft.csv',
      '\ufeff### INSTRUCTIONS ###,,,,\n"# change the TimeZone value (GMT offset) in the ""parameters"" row",,,,\n,,,,\n### TEMPLATE ###,,,,\nParameters:TimeZone=-0500;,,,,\nMicrosoft Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency\nmc1,Sale,4/1/2020 6:50:54 PM,10,USD\n',
    );
    const rows = await collect(readRows(file, { isHeader: googleHeader }));
    expect(strip(rows)).toEqual([
      { kind: 'csv', line: 7, cells: ['mc1', 'Sale', '4/1/2020 6:50:54 PM', '10', 'USD'] },
    ]);
    expect(rows[0]!.source.parameters).toEqual({ TimeZone: '-0500' });
    expect(rows[0]!.source.headerLine).toBe(6);
  });

  it('reads a Google "CSV for Excel" report: UTF-16LE with BOM, tabs, title and date lines, Total and -- rows', async () => {
    const text = [
      'Campaign performance',
      'March 1, 2024 - March 31, 2024',
      'Campaign\tDay\tConv. value\tCurrency code',
      'Brand, EU 😀\t2024-03-01\t1,249.00\tEUR',
      'Été\t2024-03-02\t--\tEUR',
      'Total: Account\t--\t1,249.00\t--',
      'Total: Filtered campaigns\t--\t1,249.00\t--',
      '',
    ].join('\r\n');
    const file = tempFile('report.csv', Buffer.from(`\ufeff${text}`, 'utf16le'));
    const rows = await collect(readRows(file, { isHeader: (cells) => cells.includes('Conv. value') }));
    expect(strip(rows)).toEqual([
      { kind: 'csv', line: 4, cells: ['Brand, EU 😀', '2024-03-01', '1,249.00', 'EUR'] },
      { kind: 'csv', line: 5, cells: ['Été', '2024-03-02', '--', 'EUR'] },
      // Footers are rows marked as such: the checker counts them skipped (issue 21), never as data.
      { kind: 'csv', line: 6, cells: ['Total: Account', '--', '1,249.00', '--'], footer: 'label' },
      { kind: 'csv', line: 7, cells: ['Total: Filtered campaigns', '--', '1,249.00', '--'], footer: 'label' },
    ]);
    expect(rows[0]!.source).toMatchObject({ encoding: 'utf-16le', delimiter: '\t', headerLine: 3 });
  });

  it('marks an eBay-like trailer after the data as footer rows; the same shape between data rows is data', async () => {
    const header =
      'Sales Record Number,User Id,Buyer Email,Item Title,Quantity,Total Price,Paid on Date,Notes';
    const text = [
      '',
      header,
      '101,buyer_a,a@example.com,Mug,1,$12.50,May-01-24,',
      '7,note only,,,,,,', // footer-shaped but data follows: data
      '102,buyer_b,b@example.com,Cup,2,$8.00,May-02-24,',
      '',
      '2,record(s) downloaded,,,,,,',
      'Seller ID: shop_sample',
    ].join('\n');
    const rows = await collect(readRows(tempFile('SalesHistory.csv', text)));
    expect(strip(rows).map((r) => [r.line, r.footer])).toEqual([
      [3, undefined],
      [4, undefined],
      [5, undefined],
      [7, 'trailer'],
      [8, 'trailer'],
    ]);
    expect(rows[0]!.source.headerLine).toBe(2);
  });

  it.each([
    [',', 'a,b\n1,2\n'],
    [';', 'a;b\n1,5;2\n'],
    ['\t', 'a\tb\n1\t2\n'],
    ['|', 'a|b\n1|2\n'],
  ])('sniffs the delimiter %j', async (delimiter, text) => {
    const rows = await collect(readRows(tempFile('d.csv', text)));
    expect(rows[0]!.source.delimiter).toBe(delimiter);
    expect((rows[0] as CsvRow).cells).toHaveLength(2);
  });

  it('takes the delimiter from the options, the word tab included', async () => {
    const file = tempFile('forced.txt', 'a,b\tc\n1,2\t3\n');
    const rows = await collect(readRows(file, { delimiter: 'tab' }));
    expect(strip(rows)).toEqual([{ kind: 'csv', line: 2, cells: ['1,2', '3'] }]);
    expect(rows[0]!.source.header).toEqual(['a,b', 'c']);
  });

  it('decodes a windows-1252 file (with a warning) so non-ASCII headers match', async () => {
    const bytes = Buffer.concat([
      Buffer.from('Betrag;W'),
      Buffer.from([0xe4]),
      Buffer.from('hrung;Notiz\r\n12,50;'),
      Buffer.from([0x80]),
      Buffer.from(';caf'),
      Buffer.from([0xe9, 0x0d, 0x0a]),
    ]);
    const warnings: string[] = [];
    const file = tempFile('euro.csv', bytes);
    const rows = await collect(readRows(file, { onWarning: (message) => warnings.push(message) }));
    expect(rows[0]!.source).toMatchObject({
      encoding: 'windows-1252',
      delimiter: ';',
      header: ['Betrag', 'Währung', 'Notiz'],
    });
    expect(strip(rows)).toEqual([{ kind: 'csv', line: 2, cells: ['12,50', '€', 'café'] }]);
    expect(warnings).toEqual([
      `${file}: not valid UTF-8, read as windows-1252 (set the encoding to override)`,
    ]);
  });

  it('uses the given encoding instead of detecting one', async () => {
    const file = tempFile('given.csv', Buffer.from([0x61, 0x0a, 0xe9, 0x0a]));
    const rows = await collect(readRows(file, { encoding: 'latin1' }));
    expect(strip(rows)).toEqual([{ kind: 'csv', line: 2, cells: ['é'] }]);
    expect(rows[0]!.source.encoding).toBe('windows-1252');
  });

  it('counts physical lines through multi-line cells, blank lines and skipped rows', async () => {
    const file = tempFile(
      'lines.csv',
      'title line\n\nid,note\n1,"three\nline\ncell"\n\n   \n2,after\n--,--\n3,"x\r\ny"\n4,end',
    );
    const rows = await collect(readRows(file, { isHeader: (cells) => cells[0] === 'id' }));
    expect(strip(rows)).toEqual([
      { kind: 'csv', line: 4, cells: ['1', 'three\nline\ncell'] },
      { kind: 'csv', line: 9, cells: ['2', 'after'] },
      { kind: 'csv', line: 11, cells: ['3', 'x\r\ny'] },
      { kind: 'csv', line: 13, cells: ['4', 'end'] },
    ]);
  });

  it('yields a malformed row in the middle and keeps the rows before and after it', async () => {
    const file = tempFile('bad.csv', 'id,name\n1,ok\n2,"bad"x\n3,fine\n');
    const rows = await collect(readRows(file));
    expect(strip(rows)).toEqual([
      { kind: 'csv', line: 2, cells: ['1', 'ok'] },
      {
        kind: 'malformed',
        line: 3,
        reason: 'malformed CSV',
        message:
          'unexpected "x" after the closing quote of column 2 (a quote inside a quoted field must be doubled: "")',
        raw: '2,"bad"x',
      },
      { kind: 'csv', line: 4, cells: ['3', 'fine'] },
    ]);
  });

  it('turns a row over maxFieldBytes into a "field too large" row and reads on', async () => {
    const file = tempFile('big.csv', `id,blob\n1,${'y'.repeat(5000)}\n2,small\n`);
    const rows = await collect(readRows(file, { maxFieldBytes: 100 }));
    expect(strip(rows)).toEqual([
      {
        kind: 'malformed',
        line: 2,
        reason: 'field too large',
        message: 'the row is larger than 100 bytes (maxRowBytes); a quote may be missing',
        raw: `1,${'y'.repeat(198)}`,
      },
      { kind: 'csv', line: 3, cells: ['2', 'small'] },
    ]);
  });

  it('yields nothing for a header-only file', async () => {
    expect(await collect(readRows(tempFile('h.csv', 'a,b\r\n')))).toEqual([]);
  });

  it('throws a ConfigError showing the first non-blank row when no header turns up in 100 rows', async () => {
    const file = tempFile('nohead.csv', `\n${'x,y\n'.repeat(150)}`);
    const run = collect(readRows(file, { isHeader: (cells) => cells.includes('Order ID') }));
    await expect(run).rejects.toThrow(ConfigError);
    await expect(collect(readRows(file, { isHeader: () => false }))).rejects.toThrow(
      `${file}: no header row found in the first 100 rows; the first non-blank row was: "x", "y"`,
    );
  });

  it('yields nothing for an empty file (no bytes, or blank lines only), however many blank lines', async () => {
    const isHeader = (cells: string[]) => cells.includes('Order ID');
    for (const [name, text] of [
      ['empty.csv', ''],
      ['blank.csv', '\r\n \n,,,\n'],
      ['many-blank.csv', '\n'.repeat(150)],
      ['empty.txt', ''],
    ] as const) {
      let source: { format: string; header?: string[] } | undefined;
      const rows = await collect(readRows(tempFile(name, text), { isHeader, onSource: (s) => (source = s) }));
      expect(rows, name).toEqual([]);
      expect(source, name).toMatchObject({ format: 'csv' });
      expect(source?.header, name).toBeUndefined();
    }
  });

  it('still throws when the only text is a Parameters row or a malformed line above no header', async () => {
    const isHeader = (cells: string[]) => cells.includes('Order ID');
    for (const text of ['Parameters:TimeZone=UTC\n', '"unclosed,quote\n']) {
      await expect(collect(readRows(tempFile('t.csv', text), { isHeader }))).rejects.toThrow(
        /no header row found/,
      );
    }
  });

  it('throws a ConfigError when the file ends before a header', async () => {
    const file = tempFile('short.csv', 'only,this\n');
    await expect(collect(readRows(file, { isHeader: () => false }))).rejects.toThrow(
      `${file}: no header row found in its 1 rows; the first non-blank row was: "only", "this"`,
    );
  });
});

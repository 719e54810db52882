import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { detectFormat, parseDelimiter, sniffDelimiter } from '../../src/input/sniff.js';

const b = (text: string) => Buffer.from(text, 'utf8');

describe('detectFormat', () => {
  it.each([
    ['a.csv', '{"x":1}', 'csv'],
    ['a.TSV', '', 'csv'],
    ['a.txt.gz', '{', 'csv'],
    ['a.jsonl', 'x,y', 'jsonl'],
    ['a.ndjson.gz', '', 'jsonl'],
    ['a.json', '', 'jsonl'],
    ['-', '  \n{"a":1}', 'jsonl'],
    ['export', '\ufeff[1]', 'jsonl'],
    ['export.dat', 'a,b', 'csv'],
    ['-', '', 'csv'],
  ])('%s starting with %j → %s', (file, head, expected) => {
    expect(detectFormat(file, b(head))).toBe(expected);
  });

  it('sees through UTF-16 NUL bytes', () => {
    expect(detectFormat('-', Buffer.from('\ufeff{"a":1}', 'utf16le'))).toBe('jsonl');
  });
});

describe('sniffDelimiter', () => {
  it.each([
    ['comma', 'a,b,c\n1,2,3\n', ','],
    [
      'semicolon with decimal commas',
      'Datum;Betrag;Währung\n01.03.2024;1,50;EUR\n02.03.2024;12,00;EUR\n',
      ';',
    ],
    [
      'tab with grouped amounts',
      'Campaign\tDay\tConv. value\nBrand, EU\t2024-03-01\t1,249.00\nX\t2024-03-02\t3.00\n',
      '\t',
    ],
    ['pipe', 'a|b\n1|2\n', '|'],
    ['quoted delimiters', 'id;note\n1;"a,b,c"\n2;"d,e"\n', ';'],
    [
      'Google template preamble',
      [
        '### INSTRUCTIONS ###,,,,',
        '"# IMPORTANT: set the TimeZone value in the ""parameters"" row; or per row",,,,',
        '# For instructions visit the help centre,,,,',
        ',,,,',
        '### TEMPLATE ###,,,,',
        'Parameters:TimeZone=-0500;,,,,',
        'Google Click ID,Conversion Name,Conversion Time,Conversion Value,Conversion Currency',
        'abc,Purchase,2024-03-01 10:00:00,1.5,EUR',
      ].join('\r\n'),
      ',',
    ],
    [
      'report with title and date-range lines',
      'Campaign report\nMarch 1, 2024 - March 31, 2024\nCampaign\tCost\tConv. value\nA\t1,000.00\t2\nB\t3\t4\n',
      '\t',
    ],
    ['a single column', 'email\na@x.io\nb@x.io\n', ','],
  ])('%s', (_name, sample, expected) => {
    expect(sniffDelimiter(b(sample))).toBe(expected);
  });
});

describe('sniffDelimiter with the expected header', () => {
  // Found by the pipeline property test: data rows richer in `;` than the header is in `,`.
  const sample = Buffer.from('id,visitor,time\n,;,;;,\n;;;\n;a;b;c\n');
  const isHeader = (cells: string[]) => cells.includes('visitor');

  it('prefers the delimiter that reveals the header', () => {
    expect(sniffDelimiter(sample)).toBe(';');
    expect(sniffDelimiter(sample, isHeader)).toBe(',');
  });
});

describe('parseDelimiter', () => {
  it.each([
    ['tab', '\t'],
    ['TAB', '\t'],
    ['\\t', '\t'],
    ['\t', '\t'],
    [';', ';'],
    ['|', '|'],
    ['comma', ','],
  ])('%j → %j', (value, expected) => {
    expect(parseDelimiter(value, 'f.csv')).toBe(expected);
  });

  it.each(['', ',,', '"', '\n', '€'])('rejects %j', (value) => {
    expect(() => parseDelimiter(value, 'f.csv')).toThrow(ConfigError);
  });
});

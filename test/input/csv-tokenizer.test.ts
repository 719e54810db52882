import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tokenize } from './helpers.js';

const b = (text: string) => Buffer.from(text, 'utf8');

describe('CsvTokenizer', () => {
  it('parses RFC 4180 quoting: delimiters, doubled quotes and line breaks inside quotes', () => {
    const csv = 'id,name,note\r\n1,"Smith, J.","say ""hi"""\r\n2,"two\nlines",x\r\n';
    expect(tokenize(b(csv))).toEqual([
      { cells: ['id', 'name', 'note'], line: 1 },
      { cells: ['1', 'Smith, J.', 'say "hi"'], line: 2 },
      { cells: ['2', 'two\nlines', 'x'], line: 3 },
    ]);
  });

  it('gives each record the physical line where it starts (multi-line cells and blank lines counted)', () => {
    const csv = ['h1,h2', 'a,"line 1', 'line 2', 'line 3"', 'b,after', '', 'c,"x\r\ny"', 'd,last'].join(
      '\r\n',
    );
    expect(tokenize(b(csv))).toEqual([
      { cells: ['h1', 'h2'], line: 1 },
      { cells: ['a', 'line 1\r\nline 2\r\nline 3'], line: 2 },
      { cells: ['b', 'after'], line: 5 },
      { cells: [''], line: 6 },
      { cells: ['c', 'x\r\ny'], line: 7 },
      { cells: ['d', 'last'], line: 9 },
    ]);
  });

  it.each([
    ['LF', 'a,b\nc,d\n'],
    ['CRLF', 'a,b\r\nc,d\r\n'],
    ['CR (old Mac)', 'a,b\rc,d\r'],
    ['no final line break', 'a,b\nc,d'],
  ])('splits records on %s', (_name, csv) => {
    expect(tokenize(b(csv))).toEqual([
      { cells: ['a', 'b'], line: 1 },
      { cells: ['c', 'd'], line: 2 },
    ]);
  });

  it('keeps LF inside quoted cells of a CRLF file, and mixed line endings', () => {
    expect(tokenize(b('a,"x\ny"\r\nb,c\nd,e\r\n'))).toEqual([
      { cells: ['a', 'x\ny'], line: 1 },
      { cells: ['b', 'c'], line: 3 },
      { cells: ['d', 'e'], line: 4 },
    ]);
  });

  it('pads nothing: ragged rows keep their own length, a trailing delimiter gives an empty cell', () => {
    expect(tokenize(b('a,b,c\n1\n1,2,3,4\nx,\n'))).toEqual([
      { cells: ['a', 'b', 'c'], line: 1 },
      { cells: ['1'], line: 2 },
      { cells: ['1', '2', '3', '4'], line: 3 },
      { cells: ['x', ''], line: 4 },
    ]);
  });

  it.each([',', ';', '\t', '|'])('uses the delimiter %j', (delimiter) => {
    const csv = ['a', 'b', '"c', 'd"'].join(delimiter);
    expect(tokenize(b(`${csv}\n`), { delimiter })).toEqual([
      { cells: ['a', 'b', `c${delimiter}d`], line: 1 },
    ]);
  });

  it('keeps a stray quote inside an unquoted field literally (lenient, like relax_quotes)', () => {
    expect(tokenize(b('ab"c,5 " inch\n'))).toEqual([{ cells: ['ab"c', '5 " inch'], line: 1 }]);
  });

  it('reports text after a closing quote as malformed CSV and goes on with the next row', () => {
    const tokens = tokenize(b('h\n1,ok\n2,"ab"c,d\n3,fine\n'));
    expect(tokens).toEqual([
      { cells: ['h'], line: 1 },
      { cells: ['1', 'ok'], line: 2 },
      {
        line: 3,
        reason: 'malformed CSV',
        message:
          'unexpected "c" after the closing quote of column 2 (a quote inside a quoted field must be doubled: "")',
        raw: '2,"ab"c,d',
      },
      { cells: ['3', 'fine'], line: 4 },
    ]);
  });

  it('reports a quote never closed at the end of the file, with the line where it opened', () => {
    expect(tokenize(b('h\n1,ok\n2,"open\n3,x\n'))).toEqual([
      { cells: ['h'], line: 1 },
      { cells: ['1', 'ok'], line: 2 },
      {
        line: 3,
        reason: 'malformed CSV',
        message:
          'the quoted field in column 2 opened on line 3 is never closed; the rest of the file was read as that one field',
        raw: '2,"open\n3,x\n',
      },
    ]);
  });

  it.each([1, 3, 64])(
    'turns a row over maxRecordBytes into "field too large" and recovers (chunks of %i)',
    (chunkSize) => {
      const big = 'x'.repeat(300);
      const csv = `h,v\n1,a\n2,"${big}\n${big}"\n3,b\n`;
      const tokens = tokenize(b(csv), { maxRecordBytes: 40, chunkSize });
      expect(tokens.map((t) => ('cells' in t ? t.cells : t.reason))).toEqual([
        ['h', 'v'],
        ['1', 'a'],
        'field too large',
        ['3', 'b'],
      ]);
      const bad = tokens[2]!;
      expect(bad.line).toBe(3);
      expect('raw' in bad && bad.raw).toBe(`2,"${'x'.repeat(197)}`);
      expect(tokens[3]!.line).toBe(5);
    },
  );

  it('decodes a multi-byte character split across chunks', () => {
    const bytes = b('€,😀\n');
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(tokenize(bytes, { cuts: [cut] })).toEqual([{ cells: ['€', '😀'], line: 1 }]);
    }
  });

  it('handles CR and LF of one line break arriving in different chunks', () => {
    const bytes = b('a,"x\r\ny"\r\nb,c\r\n');
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(tokenize(bytes, { cuts: [cut] })).toEqual([
        { cells: ['a', 'x\r\ny'], line: 1 },
        { cells: ['b', 'c'], line: 3 },
      ]);
    }
  });

  it('emits nothing for an empty input', () => {
    expect(tokenize(b(''))).toEqual([]);
  });

  it('names the same column in an oversized broken row however it is chunked (found by the property)', () => {
    const bytes = Buffer.from([240, 159, 152, 128, 44, 34, 34, 97]); // 😀,""a
    const whole = tokenize(bytes, { maxRecordBytes: 4 });
    expect(tokenize(bytes, { maxRecordBytes: 4, cuts: [5] })).toEqual(whole);
    expect(JSON.stringify(whole)).toContain('column 2');
  });

  it('gives the same tokens however the bytes are chunked (property)', () => {
    const alphabet = fc.constantFrom('a', 'b', ',', ';', '"', '""', '\r', '\n', '\r\n', ' ', 'é', '😀');
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 60 }).map((parts) => b(parts.join(''))),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.integer({ min: 4, max: 64 }),
        (bytes, rawCuts, maxRecordBytes) => {
          const cuts = [...new Set(rawCuts.map((c) => (bytes.length === 0 ? 0 : c % bytes.length)))];
          const whole = tokenize(bytes, { maxRecordBytes });
          expect(tokenize(bytes, { maxRecordBytes, cuts })).toEqual(whole);
          for (let k = 1; k < whole.length; k++) expect(whole[k]!.line).toBeGreaterThan(whole[k - 1]!.line);
        },
      ),
      { numRuns: 500 },
    );
  });

  // An ASCII chunk's cells under 13 bytes are sliced from the chunk's text (csv-tokenizer.ts SLICED_BELOW),
  // the others decoded from the bytes: both must give the cells written, at every length around the bound.
  it('gives back the cells written, ASCII chunks or not, short and long cells, quoted or not (property)', () => {
    const cell = fc
      .array(fc.constantFrom('a', 'Z', '0', ' ', ',', '"', '\r\n', '\n', '-', 'é', '😀'), { maxLength: 16 })
      .map((parts) => parts.join(''));
    const records = fc.array(fc.array(cell, { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(records, fc.boolean(), fc.array(fc.nat(), { maxLength: 4 }), (rows, crlf, rawCuts) => {
        const quoted = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
        const text = rows.map((cells) => cells.map(quoted).join(',')).join(crlf ? '\r\n' : '\n');
        const bytes = b(`${text}\n`);
        const cuts = [...new Set(rawCuts.map((c) => c % bytes.length))];
        const cells = tokenize(bytes, { cuts }).map((token) => ('cells' in token ? token.cells : token));
        expect(cells).toEqual(rows);
      }),
      { numRuns: 400 },
    );
  });

  it.each([12, 13, 14])('reads a %i-byte cell the same in an ASCII chunk and in a UTF-8 one', (length) => {
    const cell = 'x'.repeat(length);
    const ascii = tokenize(b(`${cell},"${cell}"\r\n${cell}\n`));
    const utf8 = tokenize(b(`${cell},"${cell}"\r\n${cell}\né\n`));
    expect(utf8.slice(0, 2)).toEqual(ascii);
    expect(ascii).toEqual([
      { cells: [cell, cell], line: 1 },
      { cells: [cell], line: 2 },
    ]);
  });
});

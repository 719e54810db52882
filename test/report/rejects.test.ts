import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JsonLineSplitter } from '../../src/input/jsonl.js';
import type { SourceInfo } from '../../src/input/types.js';
import type { Rejection } from '../../src/report/rejection.js';
import { csvCell, csvCells, defuseCell, openRejects, resolveRejectsPath } from '../../src/report/rejects.js';

const source: SourceInfo = {
  file: 'in.csv',
  format: 'csv',
  encoding: 'utf-8',
  header: ['Order', 'Value', 'Note'],
};
const rejection = (cells: string[], line: number, message: string): Rejection => ({
  file: 'in.csv',
  line,
  stage: 'invalid',
  row: { kind: 'csv', source, line, cells },
  issues: [{ column: 'Value', value: cells[1] ?? '', reason: 'invalid number', message }],
});

describe('defuseCell', () => {
  it.each([
    ['=HYPERLINK("x")', `'=HYPERLINK("x")`],
    ['+1', `'+1`],
    ['-5', `'-5`],
    ['@SUM(A1)', `'@SUM(A1)`],
    ['\tx', `'\tx`],
    ['plain', 'plain'],
    ['', ''],
  ])('%j', (input, output) => {
    expect(defuseCell(input)).toBe(output);
  });

  it('quotes cells with commas, quotes and newlines', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
  });
});

describe('openRejects', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rejects-'));

  it('writes CSV with the original columns plus _file, _line, _reason, mode 0600, formulas defused', async () => {
    const file = path.join(dir, 'rejects.csv');
    // Another file's content is kept (issue 20: never truncated), its cut line ended, our header follows.
    writeFileSync(file, 'old content', { mode: 0o644 });
    const writer = openRejects(file);
    await writer.write(rejection(['A-1', '=cmd|x', 'ok'], 7, 'not a number'));
    await writer.write(rejection(['A-2', '1,234', 'a "quote"'], 9, 'ambiguous'));
    await writer.close();
    expect(readFileSync(file, 'utf8')).toBe(
      'old content\n' +
        'Order,Value,Note,_raw,_file,_line,_reason\n' +
        `A-1,'=cmd|x,ok,,in.csv,7,Value: not a number\n` +
        'A-2,"1,234","a ""quote""",,in.csv,9,Value: ambiguous\n',
    );
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(writer.count).toBe(2);
  });

  it('keeps the columns when the first rejection has no cells (found in review)', async () => {
    const file = path.join(dir, 'first-malformed.csv');
    const writer = openRejects(file);
    await writer.write({
      file: '(ledger)',
      line: 0,
      stage: 'rejected',
      row: undefined,
      raw: '{"conversionId":"L-1"}',
      issues: [{ column: '(record)', value: 'L-1', reason: 'rejected by server', message: 'HTTP 422: bad' }],
    });
    await writer.write({
      file: 'in.csv',
      line: 2,
      stage: 'invalid',
      row: { kind: 'malformed', source, line: 2, raw: 'x,"y', reason: 'malformed CSV', message: 'quote' },
      issues: [{ column: '(row)', value: 'x,"y', reason: 'malformed CSV', message: 'quote' }],
    });
    await writer.write(rejection(['A-3', 'abc', ''], 3, 'not a number'));
    await writer.close();
    expect(readFileSync(file, 'utf8').split('\n')).toEqual([
      'Order,Value,Note,_raw,_file,_line,_reason',
      ',,,"{""conversionId"":""L-1""}",(ledger),0,(record): HTTP 422: bad',
      ',,,"x,""y",in.csv,2,(row): quote',
      'A-3,abc,,,in.csv,3,Value: not a number',
      '',
    ]);
  });

  it('writes JSON lines when the extension says so', async () => {
    const file = path.join(dir, 'rejects.jsonl');
    const writer = openRejects(file);
    await writer.write(rejection(['A-1', '@x', ''], 3, 'bad'));
    await writer.close();
    const line = JSON.parse(readFileSync(file, 'utf8').trim());
    expect(line).toEqual({
      Order: 'A-1',
      Value: "'@x",
      Note: '',
      _file: 'in.csv',
      _line: 3,
      _reason: 'Value: bad',
    });
  });

  // Issue 24: a 0.6 MB gzip of one duplicated row wrote a 1.26 GB rejects file.
  it.each(['capped.csv', 'capped.jsonl'])(
    '%s: past maxRows, rejections are counted, not written',
    async (name) => {
      const file = path.join(dir, name);
      const writer = openRejects(file, { maxRows: 3 });
      for (let line = 2; line < 12; line++)
        await writer.write(rejection([`A-${line}`, 'x', ''], line, 'bad'));
      await writer.close();
      const lines = readFileSync(file, 'utf8').trim().split('\n');
      const header = name.endsWith('.csv') ? 1 : 0;
      expect(lines).toHaveLength(3 + header);
      expect(lines.at(-1)).toMatch(/A-4/);
      expect([writer.count, writer.dropped]).toEqual([10, 7]);
    },
  );

  it('without maxRows, every rejection is written', async () => {
    const file = path.join(dir, 'all.jsonl');
    const writer = openRejects(file);
    for (let line = 2; line < 12; line++) await writer.write(rejection([`A-${line}`, 'x', ''], line, 'bad'));
    await writer.close();
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(10);
    expect(writer.dropped).toBe(0);
  });

  it('creates no file when nothing is rejected', async () => {
    const file = path.join(dir, 'never.csv');
    await openRejects(file).close();
    expect(() => statSync(file)).toThrow();
  });
});

describe('a JSON line in the rejects file is the line as it came (issue 24)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rejects-json-'));
  const jsonSource: SourceInfo = { file: 'in.jsonl', format: 'jsonl', encoding: 'utf-8' };
  const deep = `${'['.repeat(5000)}1${']'.repeat(5000)}`;
  const lines = [
    '{"__proto__":{"x":1},"id":"1"}',
    '{"id":12345678901234567890,"v":1e400,"b":1,"2":2}',
    `{"id":"3","deep":${deep}}`,
    ' { } ',
    '{"_file":"mine","x":"\\u001b"}',
  ];

  async function rejected(extension: string): Promise<string> {
    const splitter = new JsonLineSplitter(jsonSource, 1 << 20);
    splitter.write(Buffer.from(`${lines.join('\n')}\n`));
    splitter.end();
    const file = path.join(mkdtempSync(path.join(dir, 'run-')), `rejects.${extension}`);
    const writer = openRejects(file);
    for (const row of splitter.rows) {
      await writer.write({
        file: 'in.jsonl',
        line: row.line,
        stage: 'invalid',
        row,
        issues: [{ column: 'v', value: '', reason: 'missing value', message: 'no value' }],
      });
    }
    await writer.close();
    return readFileSync(file, 'utf8');
  }

  it('JSON lines: every member kept as written (__proto__, digits, key order, depth), ours appended', async () => {
    const meta = (line: number) => `"_file":"in.jsonl","_line":${line},"_reason":"v: no value"}`;
    expect((await rejected('jsonl')).split('\n')).toEqual([
      `{"__proto__":{"x":1},"id":"1",${meta(1)}`,
      `{"id":12345678901234567890,"v":1e400,"b":1,"2":2,${meta(2)}`,
      `{"id":"3","deep":${deep},${meta(3)}`,
      `{${meta(4)}`,
      `{"_file":"mine","x":"\\u001b",${meta(5)}`,
      '',
    ]);
  });

  it('each line is JSON whose _file, _line and _reason are ours', async () => {
    for (const line of (await rejected('jsonl')).trim().split('\n')) {
      const parsed = JSON.parse(line);
      expect(parsed._file).toBe('in.jsonl');
      expect(parsed._reason).toBe('v: no value');
    }
  });

  it('CSV: _raw holds the line as it came', async () => {
    const raws = (await rejected('csv'))
      .trim()
      .split('\n')
      .slice(1)
      .map((row) => row.slice(0, row.lastIndexOf(',in.jsonl,')));
    expect(
      raws.map((cell) => (cell.startsWith('"') ? cell.slice(1, -1).replaceAll('""', '"') : cell)),
    ).toEqual(lines);
  });
});

describe('runs appended to one rejects file (issue 20: never truncated)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rejects-append-'));
  const other: SourceInfo = { ...source, header: ['Note', 'Order', 'Extra', 'Value'] };

  it("CSV: the header once, then each run's rows with its _run, placed by column name", async () => {
    const file = path.join(dir, 'day.csv');
    const first = openRejects(file, { run: () => '7' });
    await first.write(rejection(['A-1', 'x', 'n'], 2, 'bad'));
    await first.write(rejection(['A-2', 'y', 'n'], 3, 'bad'));
    await first.close();
    const second = openRejects(file, { run: () => '8' });
    await second.write({
      ...rejection([], 4, 'worse'),
      row: { kind: 'csv', source: other, line: 4, cells: ['m', 'B-1', 'e', 'z'] },
    });
    await second.close();
    expect(readFileSync(file, 'utf8')).toBe(
      'Order,Value,Note,_raw,_file,_line,_reason,_run\n' +
        'A-1,x,n,,in.csv,2,Value: bad,7\n' +
        'A-2,y,n,,in.csv,3,Value: bad,7\n' +
        'B-1,z,m,,in.csv,4,Value: worse,8\n',
    );
  });

  it('CSV: a file of an older layout (no _run) keeps its rows; this run starts with its own header', async () => {
    const file = path.join(dir, 'old.csv');
    writeFileSync(file, 'Order,Value,Note,_raw,_file,_line,_reason\nA-0,q,,,in.csv,9,Value: old\n');
    const writer = openRejects(file, { run: () => 'check' });
    await writer.write(rejection(['A-1', 'x', ''], 2, 'bad'));
    await writer.close();
    expect(readFileSync(file, 'utf8').split('\n')).toEqual([
      'Order,Value,Note,_raw,_file,_line,_reason',
      'A-0,q,,,in.csv,9,Value: old',
      'Order,Value,Note,_raw,_file,_line,_reason,_run',
      'A-1,x,,,in.csv,2,Value: bad,check',
      '',
    ]);
  });

  it('JSON lines: appended, each line with its _run', async () => {
    const file = path.join(dir, 'day.jsonl');
    for (const run of ['1', '2']) {
      const writer = openRejects(file, { run: () => run });
      await writer.write(rejection(['A-1', 'x', ''], 2, 'bad'));
      await writer.close();
    }
    const runs = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line)._run);
    expect(runs).toEqual(['1', '2']);
  });

  it('names the file when the first row is written (a {runId} known late)', async () => {
    let runId = 'unknown';
    const writer = openRejects(() => path.join(dir, `run-${runId}.csv`), { run: () => runId });
    runId = '42';
    await writer.write(rejection(['A-1', 'x', ''], 2, 'bad'));
    await writer.close();
    expect(readFileSync(path.join(dir, 'run-42.csv'), 'utf8')).toMatch(/,42\n$/);
  });

  it.each([
    ['rejects-{date}.csv', 'rejects-2026-11-24.csv'],
    ['out/{date}/run-{runId}.jsonl', 'out/2026-11-24/run-12.jsonl'],
    ['plain.csv', 'plain.csv'],
  ])('resolveRejectsPath %s', (template, resolved) => {
    expect(resolveRejectsPath(template, { date: '2026-11-24', runId: '12' })).toBe(resolved);
  });

  it('csvCells reads what csvCell writes', () => {
    const cells = ['a,b', 'say "hi"', '', 'two\nlines', 'plain'];
    expect(csvCells(cells.map(csvCell).join(','))).toEqual(cells);
  });
});

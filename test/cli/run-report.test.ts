// The run facts of the --json object: the target never shows a secret; an error keeps its kind.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkLedgerPath, checkRejectsPath } from '../../src/cli/output-paths.js';
import { errorJson, publicTarget, runJson, stampRun } from '../../src/cli/run-report.js';
import { ConfigError, UsageError } from '../../src/errors.js';
import { tempDir } from '../helpers/cli.js';

describe('publicTarget', () => {
  it.each([
    ['https://crm.example.com/', 'https://crm.example.com'],
    ['https://user:secret@crm.example.com/api/', 'https://crm.example.com/api'],
    ['https://crm.example.com/?api_key=secret#x', 'https://crm.example.com'],
    ['HTTP://127.0.0.1:8787', 'http://127.0.0.1:8787'],
    ['not a url secret', null],
    ['', null],
    [undefined, null],
  ])('%s -> %s', (url, expected) => {
    expect(publicTarget(url)).toBe(expected);
  });
});

describe('runJson', () => {
  it('puts the run facts first and the error with its kind and hint, zero counts when nothing was counted', () => {
    const stamp = stampRun(new Date('2024-05-01T10:00:00.000Z'));
    const error = new ConfigError('no API key', { hint: 'set REVIMPORT_API_KEY' });
    const line = runJson(stamp, {
      summary: undefined,
      check: false,
      exitCode: 2,
      target: 'https://crm.example.com',
      error,
      finishedAt: new Date('2024-05-01T10:00:01.500Z'),
    });
    expect(Object.keys(line).slice(0, 7)).toEqual([
      'runId',
      'startedAt',
      'finishedAt',
      'version',
      'target',
      'exitCode',
      'error',
    ]);
    expect(line).toMatchObject({
      startedAt: '2024-05-01T10:00:00.000Z',
      finishedAt: '2024-05-01T10:00:01.500Z',
      exitCode: 2,
      error: { message: 'no API key', kind: 'config', hint: 'set REVIMPORT_API_KEY' },
      rowsRead: 0,
      durationMs: 1500,
    });
    expect(errorJson(new Error('boom'))).toEqual({ message: 'boom', kind: 'internal' });
  });
});

describe('output paths', () => {
  it('accepts a new file in an existing folder and a ledger whose folders are yet to be made', () => {
    const dir = tempDir();
    expect(() => checkRejectsPath(path.join(dir, 'rejects.csv'))).not.toThrow();
    expect(() => checkLedgerPath(path.join(dir, 'a', 'b', 'ledger.db'))).not.toThrow();
  });

  it('refuses a missing folder, a folder in place of the file, and a file in place of a folder', () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'taken.csv'));
    writeFileSync(path.join(dir, 'file'), '');
    expect(() => checkRejectsPath(path.join(dir, 'nope', 'r.csv'))).toThrow(UsageError);
    expect(() => checkRejectsPath(path.join(dir, 'nope', 'r.csv'))).toThrow(
      `the folder ${path.join(dir, 'nope')} does not exist`,
    );
    expect(() => checkRejectsPath(path.join(dir, 'taken.csv'))).toThrow('is a folder, not a file');
    expect(() => checkLedgerPath(path.join(dir, 'file', 'x', 'ledger.db'))).toThrow(
      `${path.join(dir, 'file')} is a file, not a folder`,
    );
  });
});

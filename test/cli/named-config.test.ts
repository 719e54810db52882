import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { describeOrigin, namingConfig, shownPath } from '../../src/cli/commands/named-config.js';
import { pendingTargetsError } from '../../src/cli/commands/retry-targets.js';
import { ColumnMismatchError, ConfigError } from '../../src/errors.js';
import type { AccountRow } from '../../src/ledger/types.js';

const cwd = path.resolve('/srv/crm');

describe('the config a mapping came from', () => {
  it.each([
    ['revimport.config.yaml', `.${path.sep}revimport.config.yaml`],
    ['/srv/crm/conf/a.json', `.${path.sep}${path.join('conf', 'a.json')}`],
    ['/etc/revimport.json', path.resolve('/etc/revimport.json')],
    ['../other/b.yaml', path.resolve('/srv/other/b.yaml')],
  ])('%s is shown as %s', (file, shown) => {
    expect(shownPath(file, cwd)).toBe(shown);
  });

  it('names the mapping file over the config, with the preset; nothing without either', () => {
    const base = {
      configFile: '/srv/crm/revimport.config.yaml',
      mappingFile: undefined,
      preset: undefined,
      cwd,
    };
    expect(describeOrigin(base)).toBe(`the config .${path.sep}revimport.config.yaml`);
    expect(describeOrigin({ ...base, preset: 'shopify' })).toBe(
      `the config .${path.sep}revimport.config.yaml (preset shopify)`,
    );
    expect(describeOrigin({ ...base, mappingFile: 'm.json' })).toBe(`the mapping file .${path.sep}m.json`);
    expect(describeOrigin({ ...base, configFile: undefined })).toBeUndefined();
  });

  it('rewrites a column mismatch only, keeping the hint', () => {
    const origin = { configFile: '/srv/crm/c.json', mappingFile: undefined, preset: 'stripe', cwd };
    const mismatch = new ColumnMismatchError('a.csv:1', 'no column "Id" (mapped to conversionId)', 'old', {
      hint: 'the header has: "ID"',
    });
    const named = namingConfig(mismatch, origin) as ColumnMismatchError;
    expect(named.message).toBe(
      `a.csv:1: the config .${path.sep}c.json (preset stripe) expects columns the header lacks: no column "Id" (mapped to conversionId)`,
    );
    expect(named.hint).toBe('the header has: "ID"');
    const other = new ConfigError('something else');
    expect(namingConfig(other, origin)).toBe(other);
  });
});

describe('retry without a base URL', () => {
  const row = (over: Partial<AccountRow>): AccountRow => ({
    id: 1,
    baseUrl: 'https://crm.example.com',
    account: '',
    keyFingerprint: null,
    delivered: 10,
    outstanding: 0,
    lastUsed: 1,
    ...over,
  });

  it('lists the targets with pending records and hints the first resolved one', () => {
    const error = pendingTargetsError('/l.db', [
      row({ outstanding: 0, baseUrl: 'https://idle.example.com' }),
      row({ outstanding: 2, account: null, keyFingerprint: 'abc123', baseUrl: 'https://old.example.com' }),
      row({ outstanding: 3, account: 'eu' }),
    ]);
    expect(error.message).toBe(
      'no baseUrl: retry resends the pending records of one target; the ledger /l.db has them for:\n' +
        '    https://old.example.com (unresolved: key abc123; see revimport ledger accounts): 2 pending\n' +
        '    https://crm.example.com (account eu): 3 pending',
    );
    expect(error.hint).toMatch(
      /^name the target: revimport retry --base-url https:\/\/crm\.example\.com --account eu /,
    );
  });

  it('says there is nothing to retry when no target has pending records', () => {
    expect(pendingTargetsError('/l.db', [row({})]).message).toContain(
      'holds no pending records: nothing to retry',
    );
  });
});

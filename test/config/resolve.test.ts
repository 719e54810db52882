import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseBudget, type ResolveInput, resolveSettings } from '../../src/config/resolve.js';
import { UsageError } from '../../src/errors.js';

const base = (over: Partial<ResolveInput> = {}): ResolveInput => ({
  flags: {},
  env: {},
  config: {},
  configDir: '/etc/revimport',
  cwd: '/home/ops',
  defaultStatePath: '/home/ops/.local/state/revimport/ledger.db',
  ...over,
});

describe('resolveSettings', () => {
  it('applies built-in defaults', () => {
    const { settings, warnings } = resolveSettings(base());
    expect(settings).toMatchObject({
      batchSize: 500,
      concurrency: 4,
      retries: undefined,
      maxRetryTimeMs: 300_000,
      timeoutMs: 30_000,
      allowNegative: false,
      statePath: '/home/ops/.local/state/revimport/ledger.db',
    });
    expect(warnings).toEqual([]);
  });

  it('reads mapping.lookup relative to the config file, or to the working directory for a -m mapping', () => {
    const mapping = {
      fields: {},
      defaults: {},
      lookup: { file: 'exports/orders.csv', key: 'Order', match: 'Name' },
    };
    const fromConfig = resolveSettings(base({ config: { mapping } })).settings;
    expect(fromConfig.lookupPath).toBe('/etc/revimport/exports/orders.csv');
    // Messages name the file as the user wrote it.
    expect(fromConfig.mapping?.lookup?.file).toBe('exports/orders.csv');
    const fromFlag = resolveSettings(base({ mappingFile: mapping })).settings;
    expect(fromFlag.lookupPath).toBe('/home/ops/exports/orders.csv');
    expect(resolveSettings(base()).settings.lookupPath).toBeUndefined();
  });

  it('ranks flag over environment over config file', () => {
    const config = { baseUrl: 'https://file.example', batchSize: 100, timezone: 'Europe/Paris' };
    const fileOnly = resolveSettings(base({ config })).settings;
    expect(fileOnly.baseUrl).toBe('https://file.example');
    const withEnv = resolveSettings(
      base({ config, env: { REVIMPORT_BASE_URL: 'https://env.example/' } }),
    ).settings;
    expect(withEnv.baseUrl).toBe('https://env.example');
    const withFlag = resolveSettings(
      base({
        config,
        env: { REVIMPORT_BASE_URL: 'https://env.example' },
        flags: { baseUrl: 'https://flag.example', batchSize: '50', timezone: 'Asia/Tokyo' },
      }),
    ).settings;
    expect(withFlag).toMatchObject({
      baseUrl: 'https://flag.example',
      batchSize: 50,
      timezone: 'Asia/Tokyo',
    });
  });

  it('takes the key from the environment, then the key file, then the config (with a warning)', () => {
    expect(
      resolveSettings(base({ env: { REVIMPORT_API_KEY: 'k-env' }, keyFromFile: 'k-file' })).settings.apiKey,
    ).toBe('k-env');
    expect(
      resolveSettings(base({ keyFromFile: 'k-file', config: { apiKey: 'k-conf' } })).settings.apiKey,
    ).toBe('k-file');
    const inline = resolveSettings(base({ config: { apiKey: 'k-conf' } }));
    expect(inline.settings.apiKey).toBe('k-conf');
    expect(inline.warnings.join()).toMatch(/API key is written in the config file/);
    expect(inline.warnings.join()).not.toContain('k-conf');
  });

  it('resolves config paths against the config folder and flag paths against the cwd', () => {
    const { settings } = resolveSettings(base({ config: { rejects: 'out/rejects.csv', state: 'state.db' } }));
    expect(settings.rejectsPath).toBe(path.resolve('/etc/revimport/out/rejects.csv'));
    expect(settings.statePath).toBe(path.resolve('/etc/revimport/state.db'));
    const flagged = resolveSettings(base({ flags: { rejects: 'r.jsonl' } })).settings;
    expect(flagged.rejectsPath).toBe(path.resolve('/home/ops/r.jsonl'));
  });

  it('takes the state from the flag, then REVIMPORT_STATE, then the config file', () => {
    const url = 'postgres://app@db.internal:5432/crm';
    const config = { state: 'local.db' };
    expect(resolveSettings(base({ env: { REVIMPORT_STATE: url }, config })).settings.statePath).toBe(url);
    expect(
      resolveSettings(base({ flags: { state: 'flag.db' }, env: { REVIMPORT_STATE: url }, config })).settings
        .statePath,
    ).toBe(path.resolve('/home/ops/flag.db'));
    expect(resolveSettings(base({ env: { REVIMPORT_STATE: 'env.db' }, config })).settings.statePath).toBe(
      path.resolve('/home/ops/env.db'),
    );
    expect(resolveSettings(base({ env: { REVIMPORT_STATE: '' }, config })).settings.statePath).toBe(
      path.resolve('/etc/revimport/local.db'),
    );
  });

  it.each([
    [
      { flags: { state: 'f.db' }, env: { REVIMPORT_STATE: '/e.db' }, config: { state: 'c.db' } },
      'flag',
      '/home/ops/f.db',
    ],
    [{ env: { REVIMPORT_STATE: '/e.db' }, config: { state: 'c.db' } }, 'env', '/e.db'],
    [{ env: { REVIMPORT_STATE: ' ' }, config: { state: 'c.db' } }, 'config', '/etc/revimport/c.db'],
    [{}, 'default', '/home/ops/.local/state/revimport/ledger.db'],
  ] as const)('says where the ledger came from (%o: %s)', (over, from, statePath) => {
    const resolved = resolveSettings(base(over as Partial<ResolveInput>));
    expect([resolved.stateFrom, resolved.settings.statePath]).toEqual([from, statePath]);
  });

  it('keeps a postgres:// state as written, and resolves statePasswordFile (env over config)', () => {
    const url = 'postgres://app@db.internal:5432/crm?sslmode=require';
    expect(resolveSettings(base({ flags: { state: url } })).settings.statePath).toBe(url);
    expect(resolveSettings(base({ config: { state: 'postgresql://db/crm' } })).settings.statePath).toBe(
      'postgresql://db/crm',
    );
    expect(resolveSettings(base({ defaultStatePath: url })).settings.statePath).toBe(url);
    const fromConfig = resolveSettings(base({ config: { state: url, statePasswordFile: 'pg.pw' } })).settings;
    expect(fromConfig.statePasswordFile).toBe(path.resolve('/etc/revimport/pg.pw'));
    const fromEnv = resolveSettings(
      base({ env: { REVIMPORT_STATE_PASSWORD_FILE: 'secret/pw' }, config: { statePasswordFile: 'pg.pw' } }),
    ).settings;
    expect(fromEnv.statePasswordFile).toBe(path.resolve('/home/ops/secret/pw'));
  });

  it.each([
    [{ batchSize: '0' }, /--batch-size must be between/],
    [{ batchSize: '12abc' }, /--batch-size must be a whole number/],
    [{ concurrency: '-1' }, /--concurrency must be a whole number/],
    [{ rate: 'fast' }, /--rate must be a positive number/],
    [{ delimiter: 'x' }, /--delimiter must be one of/],
    [{ format: 'xml' }, /--format must be csv or jsonl/],
    [{ maxInvalid: 'lots' }, /--max-invalid must be a count/],
  ])('rejects bad flag %o', (flags, message) => {
    expect(() => resolveSettings(base({ flags }))).toThrow(UsageError);
    expect(() => resolveSettings(base({ flags }))).toThrow(message);
  });

  it('canonicalizes the default zone and currency, and refuses unknown ones', () => {
    const { settings } = resolveSettings(base({ flags: { timezone: 'europe/berlin', currency: 'eur' } }));
    expect([settings.timezone, settings.currency]).toEqual(['Europe/Berlin', 'EUR']);
    expect(() => resolveSettings(base({ flags: { timezone: 'America/New_Yrok' } }))).toThrow(
      /--timezone: "America/,
    );
    expect(() => resolveSettings(base({ config: { timezone: 'CEST+2' } }))).toThrow(/^timezone:/);
    expect(() => resolveSettings(base({ flags: { currency: 'EURO' } }))).toThrow(/ISO 4217/);
  });

  it('turns delimiter words into characters and seconds into milliseconds', () => {
    const { settings } = resolveSettings(
      base({ flags: { delimiter: 'tab', maxRetryTime: '2.5', timeout: '10' } }),
    );
    expect(settings.delimiter).toBe('\t');
    expect(settings.maxRetryTimeMs).toBe(2500);
    expect(settings.timeoutMs).toBe(10_000);
  });

  it('adds a --preset to the mapping without dropping its fields', () => {
    const config = { mapping: { fields: { serviceId: 'Visitor' }, defaults: {} } };
    const { settings } = resolveSettings(base({ config, flags: { preset: 'shopify' } }));
    expect(settings.mapping).toEqual({ fields: { serviceId: 'Visitor' }, defaults: {}, preset: 'shopify' });
  });
});

describe('the value guard settings (issue 25)', () => {
  it('takes config `guard` over the defaults, and --accept-shift for the run', () => {
    expect(resolveSettings(base()).settings.guard).toEqual({
      enabled: true,
      medianFactor: 10,
      zeroShareJump: 0.2,
      minHistory: 20,
      minRun: 5,
      holdRecords: 20_000,
      acceptShift: false,
    });
    const config = {
      guard: { medianFactor: 5, zeroShareJump: 0.5, minHistory: 100, minRun: 2, enabled: false },
    };
    const { settings } = resolveSettings(base({ config, flags: { acceptShift: true } }));
    expect(settings.guard).toEqual({
      enabled: false,
      medianFactor: 5,
      zeroShareJump: 0.5,
      minHistory: 100,
      minRun: 2,
      holdRecords: 20_000,
      acceptShift: true,
    });
  });
});

describe('parseBudget', () => {
  it.each([
    ['10', { kind: 'count', max: 10 }],
    [0, { kind: 'count', max: 0 }],
    ['2%', { kind: 'percent', max: 2 }],
    ['0.5%', { kind: 'percent', max: 0.5 }],
  ])('%s', (raw, expected) => {
    expect(parseBudget(raw)).toEqual(expected);
  });

  it.each(['150%', '1.5', '-3', 'ten'])('refuses %s', (raw) => {
    expect(() => parseBudget(raw)).toThrow(UsageError);
  });
});

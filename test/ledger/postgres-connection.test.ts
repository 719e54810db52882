// The PostgreSQL ledger URL: which state is a URL, the password never shown, and where the password and
// sslmode come from (URL, password file, PGPASSWORD, PGSSLMODE).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors.js';
import { connectionOptions, isPostgresUrl, maskUrl } from '../../src/ledger/postgres/connection.js';

describe('isPostgresUrl', () => {
  it.each([
    ['postgres://h/db', true],
    ['postgresql://u:p@h:5432/db?sslmode=require', true],
    ['POSTGRES://h/db', true],
    ['/var/lib/revimport/ledger.db', false],
    ['ledger.db', false],
    ['postgres.db', false],
    ['./postgres://x', false],
  ])('%s -> %s', (state, expected) => {
    expect(isPostgresUrl(state)).toBe(expected);
  });
});

describe('maskUrl', () => {
  it.each([
    ['postgres://app:s3cr%40t@db.internal:5432/crm', 'postgres://app:***@db.internal:5432/crm'],
    ['postgresql://app:pw@h/db?sslmode=require', 'postgresql://app:***@h/db?sslmode=require'],
    ['postgres://app@h/db', 'postgres://app@h/db'],
    [
      'postgres://h/db?user=app&password=pw&sslmode=require',
      'postgres://h/db?user=app&password=***&sslmode=require',
    ],
    ['postgres:///db', 'postgres:///db'],
    // Unencoded special characters: the URL does not parse, the password must still not show.
    [
      'postgres://revimport:Se/cret9@127.0.0.1:5432/postgres',
      'postgres://revimport:***@127.0.0.1:5432/postgres',
    ],
    ['postgres://app:a#b?c@h/db', 'postgres://app:***@h/db'],
    ['postgres://app:p@ss@h:5432/db', 'postgres://app:***@h:5432/db'],
    ['postgres://app@h:5432/db?sslmode=require', 'postgres://app@h:5432/db?sslmode=require'],
  ])('%s', (url, masked) => {
    expect(maskUrl(url)).toBe(masked);
  });
});

describe('connectionOptions', () => {
  it('reads host, port, database, user and a percent-encoded password from the URL', () => {
    expect(connectionOptions({ url: 'postgres://app:s3cr%40t@db.internal:6432/crm', env: {} })).toEqual({
      host: 'db.internal',
      port: 6432,
      database: 'crm',
      username: 'app',
      password: 's3cr@t',
      ssl: 'prefer',
      connection: {},
    });
  });

  it('leaves out what the URL does not say, so PGHOST, PGUSER... apply', () => {
    const options = connectionOptions({ url: 'postgres://', env: {} });
    expect(options).toMatchObject({
      host: undefined,
      port: undefined,
      database: undefined,
      username: undefined,
    });
  });

  it('takes the password from the URL, else the password file, else PGPASSWORD', () => {
    const dir = mkdtempSync(join(tmpdir(), 'revimport-pgpass-'));
    const file = join(dir, 'password');
    writeFileSync(file, 'from-file\n');
    const env = { PGPASSWORD: 'from-env' };
    expect(connectionOptions({ url: 'postgres://u:from-url@h/db', passwordFile: file, env }).password).toBe(
      'from-url',
    );
    expect(connectionOptions({ url: 'postgres://u@h/db', passwordFile: file, env }).password).toBe(
      'from-file',
    );
    expect(connectionOptions({ url: 'postgres://u@h/db', env }).password).toBe('from-env');
    expect(connectionOptions({ url: 'postgres://u@h/db', env: {} }).password).toBeUndefined();
    expect(connectionOptions({ url: 'postgres://u@h/db?password=q', env: {} })).toMatchObject({
      password: 'q',
      connection: {},
    });
  });

  it('refuses an unreadable password file, naming it', () => {
    expect(() =>
      connectionOptions({ url: 'postgres://u@h/db', passwordFile: '/nonexistent/pw', env: {} }),
    ).toThrow(/cannot read the ledger password file \/nonexistent\/pw/);
  });

  it.each([
    ['disable', false],
    ['allow', 'prefer'],
    ['prefer', 'prefer'],
    ['require', 'require'],
    ['verify-ca', 'verify-full'],
    ['verify-full', 'verify-full'],
  ])('honours sslmode=%s', (mode, ssl) => {
    expect(connectionOptions({ url: `postgres://h/db?sslmode=${mode}`, env: {} }).ssl).toBe(ssl);
    expect(connectionOptions({ url: 'postgres://h/db', env: { PGSSLMODE: mode } }).ssl).toBe(ssl);
  });

  it('refuses an unknown sslmode without showing the password', () => {
    let error: unknown;
    try {
      connectionOptions({ url: 'postgres://u:hunter2@h/db?sslmode=maybe', env: {} });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain('postgres://u:***@h/db');
    expect((error as Error).message).not.toContain('hunter2');
  });

  it('passes application_name and options on to the server, and reads connect_timeout', () => {
    const options = connectionOptions({
      url: 'postgres://h/db?application_name=cron&options=-c%20search_path%3Dx&connect_timeout=4',
      env: {},
    });
    expect(options.connection).toEqual({ application_name: 'cron', options: '-c search_path=x' });
    expect(options.connectTimeout).toBe(4);
  });

  it.each([
    ['sslrootcert=/etc/ca.pem', /parameter revimport does not use: sslrootcert/, /NODE_EXTRA_CA_CERTS/],
    ['target_session_attrs=read-write', /does not use: target_session_attrs/, /primary/],
    [
      'fallback_application_name=x',
      /does not use: fallback_application_name/,
      /Remove fallback_application_name/,
    ],
    ['connect_timeout=soon', /connect_timeout .* must be a whole number of seconds/, /.*/],
  ])(
    'refuses %s with exit 2 and what to do (the server refused unknown ones: exit 70)',
    (query, message, hint) => {
      const url = `postgres://u:hunter2@h/db?${query}`;
      let error: unknown;
      try {
        connectionOptions({ url, env: {} });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toMatch(message);
      expect((error as ConfigError).hint ?? '').toMatch(hint);
      expect((error as Error).message).not.toContain('hunter2');
    },
  );
});

// --check checks what a real push needs besides valid rows (issue 13): a usable base URL and a key,
// without contacting the server; exit 2 when a push would stop with 2, reported after the rows.
import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { writeConfig, writeExport } from '../helpers/exports.js';

const key = 'e2e-check-secret-key-5e0b';
const e2e = useE2E({ key, startFirst: true });
let input: string;
beforeEach(() => {
  // Row 3 is invalid: the data's own exit code is 1.
  input = writeExport(e2e.work, 'a.csv', { to: 4, invalid: [3] });
});

const check = (config: string, env: Record<string, string> = {}, extra: string[] = []) =>
  runCli(['push', input, '-c', config, '--check', '--json', ...extra], {
    cwd: e2e.work,
    env: { REVIMPORT_STATE: path.join(e2e.work, 'never.db'), ...env },
  });

describe('--check and the delivery settings', () => {
  it('without any baseUrl it is a data check and says the delivery settings were not checked', async () => {
    const result = await check(writeConfig(e2e.work));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('delivery settings not checked: no baseUrl');
    expect(JSON.parse(result.stdout)).not.toHaveProperty('error');
  });

  it('a baseUrl and a key: the data decides the exit code, and nothing is sent', async () => {
    const result = await check(writeConfig(e2e.work, { baseUrl: e2e.receiver.url }), {
      REVIMPORT_API_KEY: key,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('delivery settings');
    expect(result.stderr).not.toContain('would stop');
    expect(e2e.receiver.requests).toHaveLength(0);
  });

  it('a baseUrl without a key: every row is still checked, then exit 2 naming the missing key', async () => {
    const result = await check(writeConfig(e2e.work, { baseUrl: e2e.receiver.url }));
    expect(result.code).toBe(2);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ rowsRead: 4, valid: 3, invalid: 1, check: true });
    expect(summary.error.message).toBe(
      'a real push would stop: no API key: set REVIMPORT_API_KEY, or apiKeyFile in the config',
    );
    expect(result.stderr).toContain('revimport: a real push would stop: no API key');
    expect(e2e.receiver.requests).toHaveLength(0);
  });

  it('plain http to a host that is not loopback is refused as a push refuses it; --allow-http accepts it', async () => {
    const config = writeConfig(e2e.work, { baseUrl: 'http://crm.example.com' });
    const refused = await check(config, { REVIMPORT_API_KEY: key });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'would stop: refusing to send the API key over plain http to crm.example.com',
    );
    expect(refused.stderr).toContain('hint: use https, or pass --allow-http');
    expect(refused.stdout + refused.stderr).not.toContain(key);
    const allowed = await check(config, { REVIMPORT_API_KEY: key }, ['--allow-http']);
    expect(allowed.code).toBe(1);
  });

  it('a URL and a key problem are reported together', async () => {
    const result = await check(writeConfig(e2e.work, { baseUrl: 'ftp://crm.example.com' }));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'the base URL "ftp://crm.example.com" must use https (got ftp); no API key',
    );
  });

  it('an apiKeyFile that cannot be read is what a push would stop on; a readable one passes', async () => {
    const missing = await check(writeConfig(e2e.work, { baseUrl: e2e.receiver.url, apiKeyFile: 'crm.key' }));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      `would stop: cannot read apiKeyFile ${path.join(e2e.work, 'crm.key')}: the file does not exist (ENOENT)`,
    );
    writeFileSync(path.join(e2e.work, 'crm.key'), `${key}\n`);
    chmodSync(path.join(e2e.work, 'crm.key'), 0o600);
    const readable = await check(writeConfig(e2e.work, { baseUrl: e2e.receiver.url, apiKeyFile: 'crm.key' }));
    expect(readable.code).toBe(1);
    expect(e2e.receiver.requests).toHaveLength(0);
  });
});

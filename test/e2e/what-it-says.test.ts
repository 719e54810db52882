// Messages that name the right thing (issue 20, "What it says"): through the real CLI, each message names
// what is wrong (the config, the file, the value, the flags) and never the API key. The proxy's own
// messages are in proxy-messages.test.ts.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startReceiver } from '../../src/testing/receiver.js';
import { type CliResult, cleanEnv, root, runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';
import { exportConfig, writeConfig, writeExport } from '../helpers/exports.js';
import { runProcess } from '../helpers/spawn.js';

const key = 'e2e-says-key-7c21';
const e2e = useE2E({ key });

describe('usage and arguments', () => {
  it('-q with -v is a usage error naming both flags, with its --json line', async () => {
    const input = writeExport(e2e.work, 'a.csv', { to: 1 });
    const text = await runCli(['push', input, '-c', e2e.config, '--check', '-q', '-v']);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain("option '-q, --quiet' cannot be used with option '-v, --verbose'");
    expect(text.stdout).toBe('');

    const json = await runCli(['retry', '--verbose', '--quiet', '--json', '-c', e2e.config]);
    expect(json.code).toBe(2);
    const line = JSON.parse(json.stdout);
    expect(line.exitCode).toBe(2);
    expect(line.error).toMatchObject({ kind: 'usage', message: expect.stringContaining('--quiet') });
    expect(line.error.message).toContain('--verbose');
  });

  it('an unknown preset name suggests the nearest: presets strpe, --preset strpe, preset: strpe', async () => {
    const shown = await runCli(['presets', 'strpe']);
    expect(shown.code).toBe(2);
    expect(shown.stderr).toContain('unknown preset "strpe" (did you mean stripe?)');

    const input = writeExport(e2e.work, 'a.csv', { to: 1 });
    const flag = await runCli(['push', input, '-c', e2e.config, '--check', '--preset', 'strpe']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('unknown preset "strpe" (did you mean stripe?)');

    const written = writeConfig(e2e.work, { mapping: { preset: 'shopfy' } });
    const fromConfig = await runCli(['push', input, '-c', written, '--check']);
    expect(fromConfig.code).toBe(2);
    expect(fromConfig.stderr).toContain('unknown preset "shopfy" (did you mean shopify?)');
  });
});

describe('the base URL', () => {
  it.each([
    ['crm example', 'is not a URL: it contains a space'],
    ['crm.example.com', 'is not a URL: it has no scheme (https://)'],
    ['ftp://crm.example.com', 'must use https (got ftp)'],
  ])('%j is quoted with what is wrong, from the flag, the environment and the config', async (url, said) => {
    const input = writeExport(e2e.work, 'a.csv', { to: 1 });
    const env = { REVIMPORT_API_KEY: key, REVIMPORT_STATE: path.join(e2e.work, 'ledger.db') };
    const flag = await runCli(['push', input, '-c', e2e.config, '--base-url', url], { env });
    const fromEnv = await runCli(['push', input, '-c', e2e.config], {
      env: { ...env, REVIMPORT_BASE_URL: url },
    });
    for (const result of [flag, fromEnv]) {
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`revimport: the base URL ${JSON.stringify(url)} ${said}`);
    }
    // The config's value is checked as the file is read: its key and path are named.
    const fromConfig = await runCli(['push', input, '-c', writeConfig(e2e.work, { baseUrl: url })], { env });
    expect(fromConfig.code).toBe(2);
    expect(fromConfig.stderr).toMatch(
      url.startsWith('ftp')
        ? `revimport: the base URL ${JSON.stringify(url)} ${said}`
        : `revimport: invalid config in ${e2e.config}:\n  - baseUrl: not a URL: ${said.replace('is not a URL: ', '')}, got ${JSON.stringify(url)}`,
    );
  });

  it('a base URL holding a login, a query or the key itself is quoted with those masked', async () => {
    const input = writeExport(e2e.work, 'a.csv', { to: 1 });
    const env = { REVIMPORT_API_KEY: key, REVIMPORT_STATE: path.join(e2e.work, 'ledger.db') };
    const login = await runCli(
      ['push', input, '-c', e2e.config, '--base-url', 'https://ops:hunter2@crm example.com/?token=abc'],
      { env },
    );
    expect(login.code).toBe(2);
    expect(login.stderr).toContain('the base URL "https://***@crm example.com/?***" is not a URL');
    const pasted = await runCli(['push', input, '-c', e2e.config, '--base-url', `${key} crm`], { env });
    expect(pasted.code).toBe(2);
    expect(pasted.stderr).toContain('the base URL "*** crm" is not a URL: it contains a space');
    for (const result of [login, pasted]) {
      expect(`${result.stdout}${result.stderr}`).not.toMatch(/hunter2|abc|e2e-says-key/);
    }
  });
});

describe('the config a mapping came from', () => {
  const mismatch = (input: string) =>
    `${input}:1: the config ./revimport.config.json expects columns the header lacks: no column "Order ID" (mapped to conversionId; did you mean "Order"?)`;

  it('found by the search in the working folder, it is named (relative) when the header lacks its columns', async () => {
    writeFileSync(
      path.join(e2e.work, 'a.csv'),
      'Order,Visitor ID,Amount,Currency,Time\n1,v-1,1.00,EUR,2024-05-01T00:00:01Z\n',
    );
    const result = await runCli(['push', 'a.csv', '--check'], { cwd: e2e.work });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`revimport: ${mismatch('a.csv')}`);
  });

  it('given with -c, it is named too, with its preset; a -m mapping file is named instead', async () => {
    writeFileSync(
      path.join(e2e.work, 'a.csv'),
      'Order,Visitor ID,Amount,Currency,Time\n1,v-1,1.00,EUR,2024-05-01T00:00:01Z\n',
    );
    const flagged = await runCli(['push', 'a.csv', '--check', '-c', e2e.config], { cwd: e2e.work });
    expect(flagged.code).toBe(2);
    expect(flagged.stderr).toContain(`revimport: ${mismatch('a.csv')}`);

    const shopify = path.join(root, 'fixtures/presets/shopify/orders_export.csv');
    writeFileSync(
      path.join(e2e.work, 'shop.yaml'),
      'mapping:\n  preset: shopify\n  fields:\n    serviceId: Visitor Token\n',
    );
    const preset = await runCli(['push', shopify, '--check', '-c', 'shop.yaml'], { cwd: e2e.work });
    expect(preset.code).toBe(2);
    expect(preset.stderr).toContain(
      `${shopify}:1: the config ./shop.yaml (preset shopify) expects columns the header lacks: no column "Visitor Token" (mapped to serviceId)`,
    );

    writeFileSync(path.join(e2e.work, 'mapping.json'), JSON.stringify(exportConfig.mapping));
    const mapped = await runCli(['push', 'a.csv', '--check', '-c', e2e.config, '-m', 'mapping.json'], {
      cwd: e2e.work,
    });
    expect(mapped.code).toBe(2);
    expect(mapped.stderr).toContain(
      'a.csv:1: the mapping file ./mapping.json expects columns the header lacks: no column "Order ID"',
    );

    // A file far from the mapping (no row holds most of its columns): the config is named after the list.
    const far = await runCli(['push', 'a.csv', '--check', '-c', 'shop.yaml'], { cwd: e2e.work });
    expect(far.code).toBe(2);
    expect(far.stderr).toMatch(
      /^revimport: a\.csv: no header row found in its 2 rows \(expected the columns "Visitor Token", "Name", .*; the config \.\/shop\.yaml \(preset shopify\) expects them$/m,
    );
  });
});

describe('retry without a base URL', () => {
  /** A loopback URL nothing listens on: a receiver's, after it closed. */
  async function closedUrl(): Promise<string> {
    const receiver = await startReceiver();
    await receiver.close();
    return receiver.url;
  }

  it('lists the targets with pending records in the ledger, their counts, and how to pick one', async () => {
    const state = path.join(e2e.work, 'ledger.db');
    const env = { REVIMPORT_API_KEY: key, REVIMPORT_STATE: state };
    const [first, second] = [await closedUrl(), await closedUrl()];
    const push = (url: string, to: number, ...flags: string[]) =>
      runCli(
        ['push', writeExport(e2e.work, `${to}.csv`, { to }), '-c', e2e.config, '--retries', '0', ...flags],
        {
          env: { ...env, REVIMPORT_BASE_URL: url },
        },
      );
    expect((await push(first, 3)).code).toBe(4);
    expect((await push(second, 2)).code).toBe(4);
    expect((await push(second, 1, '--account', 'eu')).code).toBe(4);

    const retry = await runCli(['retry', '-c', e2e.config], { env });
    expect(retry.code).toBe(2);
    const listed = [
      `    ${first}: 3 pending`,
      `    ${second}: 2 pending`,
      `    ${second} (account eu): 1 pending`,
    ].sort();
    const lines = retry.stderr.split('\n');
    expect(lines[0]).toBe(
      `revimport: no baseUrl: retry resends the pending records of one target; the ledger ${state} has them for:`,
    );
    expect(lines.slice(1, 4).sort()).toEqual(listed);
    expect(lines[4]).toMatch(
      /^ {2}hint: name the target: revimport retry --base-url http:\/\/127\.0\.0\.1:\d+/,
    );
    expect(retry.stderr).not.toContain(key);
  });

  it('says when the ledger holds nothing to retry', async () => {
    const env = { REVIMPORT_API_KEY: key, REVIMPORT_STATE: path.join(e2e.work, 'none.db') };
    const retry = await runCli(['retry', '-c', e2e.config], { env });
    expect(retry.code).toBe(2);
    expect(retry.stderr).toContain(
      `there is no ledger ${path.join(e2e.work, 'none.db')} yet: nothing to retry`,
    );
  });
});

describe('init', () => {
  it('a missing sample is named first (exit 2), before any word on an existing config', async () => {
    writeFileSync(path.join(e2e.work, 'revimport.config.yaml'), 'timezone: UTC\n');
    const result = await runCli(['init', 'missing.csv'], { cwd: e2e.work });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('cannot read missing.csv: the file does not exist (ENOENT)');
    expect(result.stderr).not.toContain('exists');
  });

  it('the preview masks e-mails as the error lines do', async () => {
    writeFileSync(
      path.join(e2e.work, 'orders.csv'),
      'ref,email,grand_total,currency,created\n' +
        'A1,jane.doe@example.com,12.50,USD,2024-05-01 10:00:00\n' +
        'A2,bob@example.org,3.00,USD,2024-05-02 11:00:00\n',
    );
    const result = await runCli(['init', 'orders.csv', '--timezone', 'UTC'], { cwd: e2e.work });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^conversionEmail\s+"email" \(an e-mail\)\s+-\s+j\*\*\*@example\.com$/m);
    expect(result.stdout).toContain('"conversionEmail":"j***@example.com"');
    expect(result.stdout).toContain('"conversionEmail":"b***@example.org"');
    expect(result.stdout).not.toMatch(/jane\.doe|bob@/);
  });
});

/** `npm run receiver -- <args>` in the repository, as the README shows it. */
function npmReceiver(args: string[]): Promise<CliResult> {
  return runProcess('npm', ['run', '--silent', 'receiver', '--', ...args], { cwd: root, env: cleanEnv() });
}

describe('npm run receiver', () => {
  it('--help documents every flag and the fault syntax, exit 0; an unknown flag is exit 2 with the help hint', async () => {
    const help = await npmReceiver(['--help']);
    expect(help.code).toBe(0);
    for (const flag of [
      '--port <n>',
      '--api-key <key>',
      '--faults <spec>',
      'seed,5xx,reset,429',
      '-h, --help',
    ]) {
      expect(help.stdout).toContain(flag);
    }
    expect(help.stdout).not.toContain('listening');

    const unknown = await npmReceiver(['--honour-nothing']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--honour-nothing'");
    expect(unknown.stderr).toContain('npm run receiver -- --help');
  });
});

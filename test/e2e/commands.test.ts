// The commands around push: presets, init (its config must work unedited on its sample), config files
// in their several forms, a JS transform, and apiKeyFile handling.
import { chmodSync, copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { presets } from '../../src/mapping/presets/index.js';
import { fixtureInputs, root, runCli, tempDir } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';

const quick = path.join(root, 'fixtures/google-ads-style');
const quickFields = JSON.parse(readFileSync(path.join(quick, 'revimport.config.json'), 'utf8')).mapping;

describe('revimport presets', () => {
  it('lists every preset, one a line', async () => {
    const result = await runCli(['presets']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    const names = lines.filter((l) => !l.startsWith(' ')).map((l) => l.split(/\s+/)[0]);
    expect(names).toEqual(presets.map((p) => p.name));
    // Under each: what it counts as revenue, and whether it was ever tried on a real export.
    for (const preset of presets) {
      const at = lines.findIndex((l) => l.startsWith(`${preset.name} `));
      expect(lines[at + 1]?.trim()).toBe(`revenue: ${preset.policy}`);
      expect(lines[at + 2]?.trim() === 'documented, no real sample seen').toBe(preset.seen === 'documented');
    }
  });

  it('shows one preset as JSON, and refuses an unknown one with exit 2', async () => {
    const shown = await runCli(['presets', 'shopify', '--json']);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ name: 'shopify', mapping: { foldBy: 'Name' } });
    const unknown = await runCli(['presets', 'myspace']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown preset "myspace"/);
    expect(unknown.stderr).toMatch(/known presets: .*shopify/);
  });
});

describe('revimport init', () => {
  const presetDirs = readdirSync(path.join(root, 'fixtures/presets'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);

  // Presets whose export has no currency column, and the currency their fixture's shop uses.
  const currencyless: Record<string, string> = { woocommerce: 'USD', hubspot: 'GBP', ebay: 'USD' };
  // Presets whose export has nothing to attribute a conversion by (meta-capi: only a hashed e-mail;
  // ga4: user_pseudo_id is GA's id, not the CRM's; the others: no e-mail or visitor id at all): their
  // fixtures supply it in the config.
  const unlinked = [
    'meta-capi',
    'shopify-payments',
    'ga4',
    'salesforce',
    'salesforce-report',
    'awin',
    'etsy',
  ];

  it.each(presetDirs)('writes a config that reads the %s sample unedited', async (name) => {
    const dir = path.join(root, 'fixtures/presets', name);
    const sample = fixtureInputs(dir)[0]!;
    const cwd = tempDir();
    const init = await runCli(['init', sample, '--timezone', 'UTC'], { cwd });
    // A field still to settle (no currency, nothing to attribute by) is for review: exit 1, config written.
    const currency = currencyless[name];
    expect(init.code).toBe(currency !== undefined || unlinked.includes(name) ? 1 : 0);
    expect(init.stdout).toContain(`preset: ${name}`);
    // Exports without a currency column: init says so, and the user adds `currency` to the config.
    if (currency !== undefined) {
      expect(init.stdout).toMatch(/review before a push[\s\S]*missing currency/);
      const config = path.join(cwd, 'revimport.config.yaml');
      writeFileSync(config, `${readFileSync(config, 'utf8')}\ncurrency: "${currency}"\n`);
    }
    const check = await runCli(['push', sample, '--check', '--json'], { cwd });
    if (unlinked.includes(name)) {
      // Nothing in the export links to a visitor (a hashed e-mail, no e-mail at all): init says what to
      // add instead of guessing, and a run stops at once (exit 2) rather than rejecting every row.
      expect(init.stdout).toMatch(
        /review before a push[\s\S]*no conversion in it can be attributed[\s\S]*serviceId/,
      );
      expect(check.code).toBe(2);
      expect(check.stderr).toMatch(/no conversion in it can be attributed/);
      return;
    }
    expect(check.stderr).not.toMatch(/revimport:/);
    const summary = JSON.parse(check.stdout);
    expect(summary.presets[sample]).toBe(name);
    if (currency === undefined)
      expect(init.stdout).toMatch(/first records as they would be sent:\n\{"conversionCurrency"/);
    expect(summary.valid).toBeGreaterThan(0);
  });

  it('guesses a mapping, its datetime format and decimal comma for an unknown export', async () => {
    const cwd = tempDir();
    const sample = path.join(root, 'fixtures/european/umsaetze.csv');
    const init = await runCli(['init', sample, '--timezone', 'Europe/Berlin'], { cwd });
    expect(init.code).toBe(0);
    const yaml = readFileSync(path.join(cwd, 'revimport.config.yaml'), 'utf8');
    expect(yaml).toContain('format: "dd.MM.yyyy HH:mm"');
    expect(yaml).toContain('decimal: ","');
    const check = await runCli(['push', sample, '--check', '--json'], { cwd });
    const expected = JSON.parse(readFileSync(path.join(root, 'fixtures/european/expected.json'), 'utf8'));
    expect(JSON.parse(check.stdout).valid).toBe(expected.records.length);
  });

  it('never overwrites a config without --force', async () => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, 'revimport.config.yaml'), 'mine: true\n');
    const result = await runCli(['init', path.join(quick, 'conversions.csv')], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/exists; use --force/);
    expect(readFileSync(path.join(cwd, 'revimport.config.yaml'), 'utf8')).toBe('mine: true\n');
  });
});

describe('config files', () => {
  const key = 'cfg-key-77';
  const e2e = useE2E({ key, startFirst: true, once: true });

  it.each([
    [
      'revimport.config.yaml',
      `mapping:\n  fields:\n${Object.entries(quickFields.fields)
        .map(([k, v]) => `    ${k}: "${v}"`)
        .join('\n')}\n`,
    ],
    ['.revimportrc.json', JSON.stringify({ mapping: quickFields })],
    ['package.json', JSON.stringify({ name: 'ops', revimport: { mapping: quickFields } })],
  ])('finds %s in the working directory', async (file, content) => {
    const cwd = tempDir();
    writeFileSync(path.join(cwd, file), content);
    const result = await runCli(['push', path.join(quick, 'conversions.csv'), '--check', '--json'], { cwd });
    expect(JSON.parse(result.stdout).valid).toBe(5);
  });

  it.each([
    ['revimport.config.yaml', 'apiKey: "SECRET-IN-CONFIG\nbaseUrl: x\n', /double quoted scalar \(3:1\)/],
    ['revimport.config.json', '{"apiKey": "SECRET-IN-CONFIG",}\n', /in JSON at position \d+/],
  ])(
    'reports a %s that does not parse without quoting its lines (the key is in them)',
    async (file, text, where) => {
      const cwd = tempDir();
      writeFileSync(path.join(cwd, file), text);
      const result = await runCli(['push', path.join(quick, 'conversions.csv'), '--check'], { cwd });
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(path.join(cwd, file));
      expect(result.stderr).toMatch(where);
      expect(result.stderr).not.toContain('SECRET-IN-CONFIG');
    },
  );

  it('history finds the ledger named by the config `state` (relative to the config file)', async () => {
    const cwd = tempDir();
    const { mkdirSync } = await import('node:fs');
    mkdirSync(path.join(cwd, 'conf'));
    writeFileSync(
      path.join(cwd, 'conf', 'revimport.config.json'),
      JSON.stringify({ baseUrl: e2e.receiver.url, state: 'runs.db', mapping: quickFields }),
    );
    const push = await runCli(
      ['push', path.join(quick, 'conversions.csv'), '-c', 'conf/revimport.config.json'],
      {
        cwd,
        env: { REVIMPORT_API_KEY: key },
      },
    );
    expect(push.code).toBe(1);
    expect(existsSync(path.join(cwd, 'conf', 'runs.db'))).toBe(true);
    const history = await runCli(['history', '--json', '-c', 'conf/revimport.config.json'], { cwd });
    expect(JSON.parse(history.stdout)).toMatchObject([{ command: 'push', exitCode: 1 }]);
  });

  it('names the unknown key and the file (exit 2)', async () => {
    const cwd = tempDir();
    writeFileSync(
      path.join(cwd, 'revimport.config.json'),
      JSON.stringify({ mapping: quickFields, batchsize: 10 }),
    );
    const result = await runCli(['push', path.join(quick, 'conversions.csv'), '--check'], { cwd });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(path.join(cwd, 'revimport.config.json'));
    expect(result.stderr).toMatch(/unknown key batchsize/);
  });

  it('runs a JS transform: drops rows and fills fields from source columns', async () => {
    const cwd = tempDir();
    writeFileSync(
      path.join(cwd, 'revimport.config.mjs'),
      `export default { mapping: ${JSON.stringify(quickFields)} };
export function transform(row) {
  if (row.$row['Conversion Name'] === 'Lead') return null;
  return { ...row, conversionName: 'web-' + row.conversionName };
}
`,
    );
    const result = await runCli(['push', path.join(quick, 'conversions.csv'), '--check', '--json'], { cwd });
    const summary = JSON.parse(result.stdout);
    expect(summary.valid).toBe(4);
    expect(summary.skipped).toBe(1);
    expect(summary.rowsRead).toBe(summary.valid + summary.invalid + summary.skipped);
    const push = await runCli(
      [
        'push',
        path.join(quick, 'conversions.csv'),
        '--base-url',
        e2e.receiver.url,
        '--state',
        path.join(cwd, 'l.db'),
      ],
      { cwd, env: { REVIMPORT_API_KEY: key } },
    );
    expect(push.code).toBe(1);
    const names = e2e.receiver.accepted.slice(-4).map((a) => a.record.conversionName);
    expect(names).toEqual(['web-Purchase', 'web-Purchase', 'web-Purchase', 'web-Purchase']);
  });

  it('reads apiKeyFile relative to the config, warns when others can read it, never prints the key', async () => {
    const cwd = tempDir();
    const configDir = path.join(cwd, 'conf');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(configDir);
    writeFileSync(path.join(configDir, 'crm.key'), `${key}\n`);
    chmodSync(path.join(configDir, 'crm.key'), 0o644);
    writeFileSync(
      path.join(configDir, 'revimport.config.json'),
      JSON.stringify({
        baseUrl: e2e.receiver.url,
        apiKeyFile: 'crm.key',
        rejects: 'out.csv',
        mapping: quickFields,
      }),
    );
    copyFileSync(path.join(quick, 'conversions.csv'), path.join(cwd, 'in.csv'));
    const result = await runCli(['push', 'in.csv', '-c', 'conf/revimport.config.json', '--state', 'l.db'], {
      cwd,
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/crm\.key is readable by others: chmod 600 it/);
    expect(result.stdout + result.stderr).not.toContain(key);
    // `rejects` is relative to the config file's folder too.
    expect(existsSync(path.join(configDir, 'out.csv'))).toBe(true);
    expect(readFileSync(path.join(configDir, 'out.csv'), 'utf8')).not.toContain(key);
  });
});

// The instant and earned-revenue fixtures (fixtures/instants, fixtures/earned; each mirrors a real export,
// README there), pushed for real to the receiver: exactly the records of expected.json (written by each
// group's expected.py with Python's csv and zoneinfo, not by revimport), exactly its invalid rows, the
// rows skipped by reason, and the warnings it counts.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { issuesOf, root, runCli } from '../helpers/cli.js';
import { pushFolder, useE2E } from '../helpers/e2e.js';

interface Expected {
  records: Record<string, unknown>[];
  invalid: { line: number; column: string; reason: string }[];
  /** How many warnings the run prints (offsets that contradict the configured zone: one per file). */
  warnings?: number;
  skippedReasons?: Record<string, number>;
}

const dir = path.join(root, 'fixtures/instants');
const inputsOf = (folder: string, base = dir) =>
  readdirSync(path.join(base, folder))
    .filter((f) => !['expected.json', 'revimport.config.json', 'README.md'].includes(f))
    .sort()
    .map((f) => path.join(base, folder, f));
const cases = ['instants', 'earned'].flatMap((group) => {
  const base = path.join(root, 'fixtures', group);
  return readdirSync(base, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'shopify-abandoned')
    .map((d) => ({
      name: `${group}-${d.name}`,
      folder: path.join(base, d.name),
      inputs: inputsOf(d.name, base),
    }));
});

const key = 'instants-test-key';
const e2e = useE2E({ key, startFirst: true, once: true });

describe.each(cases)('$name', ({ name, folder, inputs }) => {
  const expected = JSON.parse(readFileSync(path.join(folder, 'expected.json'), 'utf8')) as Expected;

  it('delivers exactly the records of an independent computation', async () => {
    const before = e2e.receiver.accepted.length;
    const config = path.join(folder, 'revimport.config.json');
    const result = await pushFolder(e2e, key, inputs, config, name);
    const summary = JSON.parse(result.stdout);
    expect(issuesOf(summary)).toEqual(expected.invalid);
    expect(e2e.receiver.accepted.slice(before).map((a) => a.record)).toEqual(expected.records);
    expect(summary.warnings).toHaveLength(expected.warnings ?? 0);
    if (expected.skippedReasons) expect(summary.skippedReasons).toEqual(expected.skippedReasons);
    for (const warning of summary.warnings) expect(result.stderr).toContain(warning);
    expect(result.code).toBe(expected.invalid.length > 0 ? 1 : 0);
  });
});

describe('a look-alike export', () => {
  const folder = path.join(dir, 'shopify-abandoned');
  const input = inputsOf('shopify-abandoned')[0]!;

  it('is refused when the config names the preset: nothing sent, exit 2, the file named for what it is', async () => {
    const before = e2e.receiver.requests.length;
    const result = await runCli(
      ['push', input, '-c', path.join(folder, 'revimport.config.json'), '--base-url', e2e.receiver.url],
      { env: { REVIMPORT_API_KEY: key, REVIMPORT_STATE: path.join(e2e.work, 'abandoned.db') } },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${input} is not a Shopify orders export`);
    expect(result.stderr).toContain('it is a Shopify abandoned-checkouts export');
    expect(e2e.receiver.requests.length).toBe(before);
  });

  it('is refused when the preset is detected from the header', async () => {
    const config = path.join(e2e.work, 'abandoned-detect.json');
    writeFileSync(config, JSON.stringify({ timezone: 'America/Los_Angeles' }));
    const result = await runCli(['push', input, '-c', config, '--check', '--json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('abandoned-checkouts export');
  });
});

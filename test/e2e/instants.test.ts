// The instant fixtures (fixtures/instants, each mirroring a real export; README there), pushed for real
// to the receiver: exactly the records of expected.json (written by fixtures/instants/expected.py with
// Python's zoneinfo, not by revimport), exactly its invalid rows, and the warnings it counts.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../src/testing/receiver.js';
import { root, runCli, tempDir } from '../helpers/cli.js';

interface Expected {
  records: Record<string, unknown>[];
  invalid: { line: number; column: string; reason: string }[];
  /** How many warnings the run prints (offsets that contradict the configured zone: one per file). */
  warnings?: number;
}

const dir = path.join(root, 'fixtures/instants');
const inputsOf = (folder: string) =>
  readdirSync(path.join(dir, folder))
    .filter((f) => !['expected.json', 'revimport.config.json', 'README.md'].includes(f))
    .sort()
    .map((f) => path.join(dir, folder, f));
const cases = readdirSync(dir, { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'shopify-abandoned')
  .map((d) => ({ name: d.name, inputs: inputsOf(d.name) }));

const key = 'instants-test-key';
let receiver: Receiver;
let work: string;
beforeAll(async () => {
  receiver = await startReceiver({ apiKey: key });
  work = tempDir();
});
afterAll(async () => {
  await receiver.close();
});

function issuesOf(summary: { errors: { reason: string; examples: { line: number; column: string }[] }[] }) {
  return summary.errors
    .flatMap((g) => g.examples.map((e) => ({ line: e.line, column: e.column, reason: g.reason })))
    .sort((a, b) => a.line - b.line);
}

describe.each(cases)('$name', ({ name, inputs }) => {
  const expected = JSON.parse(readFileSync(path.join(dir, name, 'expected.json'), 'utf8')) as Expected;

  it('delivers exactly the instants of an independent computation', async () => {
    const before = receiver.accepted.length;
    const result = await runCli(
      [
        'push',
        ...inputs,
        '-c',
        path.join(dir, name, 'revimport.config.json'),
        '--base-url',
        receiver.url,
        '--json',
      ],
      { env: { REVIMPORT_API_KEY: key, REVIMPORT_STATE: path.join(work, `${name}.db`) } },
    );
    const summary = JSON.parse(result.stdout);
    expect(issuesOf(summary)).toEqual(expected.invalid);
    expect(receiver.accepted.slice(before).map((a) => a.record)).toEqual(expected.records);
    expect(summary.warnings).toHaveLength(expected.warnings ?? 0);
    for (const warning of summary.warnings) expect(result.stderr).toContain(warning);
    expect(result.code).toBe(expected.invalid.length > 0 ? 1 : 0);
  });
});

describe('a look-alike export', () => {
  const folder = path.join(dir, 'shopify-abandoned');
  const input = inputsOf('shopify-abandoned')[0]!;

  it('is refused when the config names the preset: nothing sent, exit 2, the file named for what it is', async () => {
    const before = receiver.requests.length;
    const result = await runCli(
      ['push', input, '-c', path.join(folder, 'revimport.config.json'), '--base-url', receiver.url],
      { env: { REVIMPORT_API_KEY: key, REVIMPORT_STATE: path.join(work, 'abandoned.db') } },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${input} is not a Shopify orders export`);
    expect(result.stderr).toContain('it is a Shopify abandoned-checkouts export');
    expect(receiver.requests.length).toBe(before);
  });

  it('is refused when the preset is detected from the header', async () => {
    const config = path.join(work, 'abandoned-detect.json');
    writeFileSync(config, JSON.stringify({ timezone: 'America/Los_Angeles' }));
    const result = await runCli(['push', input, '-c', config, '--check', '--json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('abandoned-checkouts export');
  });
});

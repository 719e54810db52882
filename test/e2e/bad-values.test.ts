// Issue 24 through the real CLI: bad input never crashes a run (exit 70) and never sends a wrong value.
// Each case is the smallest input of its class; the receiver's store is the oracle for what was sent.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../src/testing/receiver.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { simpleMapping } from '../helpers/settings.js';

const key = 'e2e-bad-values-key-24';
const header = 'id,visitor,time,value,currency';
const good = '2,v2,2024-01-01T00:00:00Z,12.50,EUR';
const config = { mapping: simpleMapping };

let work: string;
let receiver: Receiver | undefined;

beforeEach(() => {
  work = tempDir();
  writeFileSync(path.join(work, 'revimport.config.json'), JSON.stringify(config));
});
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

function write(name: string, text: string): string {
  writeFileSync(path.join(work, name), text);
  return name;
}

function cli(args: string[]) {
  const env = receiver
    ? { REVIMPORT_BASE_URL: receiver.url, REVIMPORT_API_KEY: key, REVIMPORT_STATE: path.join(work, 'l.db') }
    : {};
  return runCli(args, { cwd: work, env });
}

/** A --json summary's (reason, count) pairs. */
function reasons(stdout: string): Record<string, number> {
  const summary = JSON.parse(stdout) as { errors: { reason: string; count: number }[] };
  return Object.fromEntries(summary.errors.map((e) => [e.reason, e.count]));
}

describe('an amount past what a double holds in minor units', () => {
  it('1 and 307 zeros is an invalid row: nothing is sent as null, the totals stay finite', async () => {
    receiver = await startReceiver({ apiKey: key });
    const file = write('big.csv', `${header}\n1,v1,2024-01-01T00:00:00Z,1${'0'.repeat(307)},EUR\n${good}\n`);
    const jsonl = write(
      'big.jsonl',
      '{"id":"3","visitor":"v3","time":"2024-01-01T00:00:00Z","value":1e307,"currency":"EUR"}\n',
    );
    const result = await cli(['push', file, jsonl, '--json']);
    expect(result.code).toBe(1);
    expect(reasons(result.stdout)).toEqual({ 'amount too large': 2 });
    expect(JSON.parse(result.stdout).totals).toEqual({ EUR: 12.5 });
    expect(receiver.accepted.map((a) => a.record.conversionId)).toEqual(['2']);
    for (const request of receiver.requests) expect(request.body).not.toContain('null');
  });

  it('1 and 309 zeros (Infinity) is one invalid row, not the run ended by a RangeError', async () => {
    const file = write('inf.csv', `${header}\n1,v1,2024-01-01T00:00:00Z,1${'0'.repeat(309)},EUR\n${good}\n`);
    const result = await cli(['push', '--check', file, '--json']);
    expect(result.stderr).not.toContain('internal error');
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ valid: 1, invalid: 1, totals: { EUR: 12.5 } });
    expect(reasons(result.stdout)).toEqual({ 'amount too large': 1 });
  });
});

describe('a control character in a field that is sent', () => {
  it('an id "1\\0" is an invalid row naming the character; --emit holds only the good row', async () => {
    const file = write('nul.csv', `${header}\n1\u0000,v1,2024-01-01T00:00:00Z,1,EUR\n${good}\n`);
    const result = await cli(['push', '--check', file, '--emit', 'emit.jsonl']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      'nul.csv:2 [id]: conversionId "1\\u0000" holds the control character U+0000 (character 2): it cannot be sent',
    );
    const emitted = readFileSync(path.join(work, 'emit.jsonl'), 'utf8').trim().split('\n');
    expect(emitted.map((line) => JSON.parse(line).record.conversionId)).toEqual(['2']);
  });
});

describe('one column feeding the value or datetime and other fields', () => {
  const all = { conversionId: 'n', serviceId: 'n', conversionDatetime: 'n', conversionValue: 'n' };

  it('is a config error naming the column and the fields (exit 2), unless mapping.sharedColumns says so', async () => {
    const file = write('one.csv', 'n\n1700000000\n');
    write('one.json', JSON.stringify({ currency: 'EUR', mapping: { fields: all } }));
    const refused = await cli(['push', '--check', file, '-c', 'one.json']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'one.csv: column "n" is mapped to conversionValue, conversionDatetime, serviceId and conversionId',
    );
    write('meant.json', JSON.stringify({ currency: 'EUR', mapping: { fields: all, sharedColumns: ['n'] } }));
    const meant = await cli(['push', '--check', file, '-c', 'meant.json', '--json']);
    expect(meant.code).toBe(0);
    expect(JSON.parse(meant.stdout)).toMatchObject({ valid: 1, totals: { EUR: 1_700_000_000 } });
  });
});

describe('a JSON line nested 5,000 levels deep', () => {
  const deepObject = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
  const deepArray = `${'['.repeat(5000)}"x"${']'.repeat(5000)}`;
  const deepNumbers = `${'['.repeat(5000)}1${']'.repeat(5000)}`;
  const line = (extra: string, value = '"x"') =>
    `{"id":"1","visitor":"v1","time":"2024-01-01T00:00:00Z","value":${value},"currency":"EUR",${extra}}`;

  it('init reads the sample', async () => {
    const file = write('deep.jsonl', `${line(`"deep":${deepObject}`, '"12.50"')}\n`);
    const result = await cli(['init', file, '-o', 'init.yaml']);
    expect(result.stderr).not.toContain('internal error');
    expect(result.code).toBe(0);
  });

  it.each(['jsonl', 'csv'])('the rejects file (.%s) holds the line', async (extension) => {
    const text = line(`"deep":${deepNumbers}`);
    const file = write('deep.jsonl', `${text}\n`);
    const result = await cli(['push', '--check', file, '--rejects', `r.${extension}`]);
    expect(result.stderr).not.toContain('internal error');
    expect(result.code).toBe(1);
    const rejects = readFileSync(path.join(work, `r.${extension}`), 'utf8');
    expect(rejects.includes(deepNumbers)).toBe(true);
  });

  it('a mapped field holding a 5,000-level array is an invalid value, shown truncated', async () => {
    const file = write('deep.jsonl', `${line('"n":1', deepArray)}\n`);
    const result = await cli(['push', '--check', file]);
    expect(result.stderr).not.toContain('internal error');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/deep\.jsonl:1 \[value\] "\[\[\[\[.*….*": the value is not a number/);
  });
});

describe('the rejects file keeps a JSON line as it came', () => {
  it('a __proto__ member, and the digits of a large number', async () => {
    const text =
      '{"__proto__":{"x":1},"id":12345678901234567890,"visitor":"v1","time":"2024-01-01T00:00:00Z","value":"x","currency":"EUR"}';
    const file = write('proto.jsonl', `${text}\n`);
    const result = await cli(['push', '--check', file, '--rejects', 'r.jsonl']);
    expect(result.code).toBe(1);
    const rejected = readFileSync(path.join(work, 'r.jsonl'), 'utf8');
    expect(rejected.startsWith(`${text.slice(0, -1)},"_file":"proto.jsonl","_line":1,"_reason":`)).toBe(true);
  });
});

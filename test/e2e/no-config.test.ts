// Issue 21: the exports people download, pushed with no config at all (fixtures/no-config, README there).
// PayPal's own abbreviations (PST is Pacific time), and a file's day/month order decided from all its rows
// before anything is sent: read the other way round when its rows say so, asked for when none can tell.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { root, runCli, tempDir } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';

const dir = path.join(root, 'fixtures/no-config');
const usPst = path.join(dir, 'paypal-us-pst/Download.CSV');
const ukDayFirst = path.join(dir, 'paypal-uk-day-first/Download.CSV');
const undecidable = path.join(dir, 'paypal-undecidable/Download.CSV');

/** `push --check --json` in an empty folder (no config file to find), as a first-time user runs it. */
async function check(args: string[], stdin?: string) {
  const result = await runCli(['push', ...args, '--check', '--json'], { cwd: tempDir(), stdin });
  return { ...result, summary: result.stdout ? JSON.parse(result.stdout) : undefined };
}

describe('a US PayPal download with PST rows, no config', () => {
  it('reads PST as Pacific time (UTC-8) as PayPal writes it, and says so once', async () => {
    const { code, summary, stderr } = await check([usPst]);
    expect(code).toBe(0);
    expect(summary.valid).toBe(4);
    expect(summary.errors).toEqual([]);
    expect(summary.totals).toEqual({ USD: 2935.25 });
    const note =
      'PST read as Pacific Standard Time, UTC-08:00, as PayPal writes it; set `timezone` if your account is elsewhere';
    expect(summary.warnings).toEqual([note]);
    expect(stderr.split(note)).toHaveLength(2);
  });

  it('says it once per run, not once per file', async () => {
    const { summary } = await check([usPst, usPst]);
    expect(summary.warnings.filter((w: string) => w.startsWith('PST read as'))).toHaveLength(1);
  });
});

describe('a UK PayPal download written day first, no config', () => {
  const expected = [
    // 02/01 and 05/03 alone could be either; 25/03 and 30/09 decide the file: day first.
    ['2024-01-02T10:00:00.000Z', 100],
    ['2024-03-05T11:30:00.000Z', 250.5],
    ['2024-03-25T09:15:00.000Z', 1200],
    // BST: British Summer Time (UTC+1), PayPal's European meaning.
    ['2024-06-04T13:00:00.000Z', 80],
    ['2024-07-12T15:45:10.000Z', 45.25],
    ['2024-09-30T07:00:00.000Z', 300],
  ];

  it('reads every row day first and says why (was: 05/03 read as May 3, 25/03 an impossible date)', async () => {
    const emit = path.join(tempDir(), 'records.jsonl');
    const { code, summary } = await check([ukDayFirst, '--emit', emit]);
    expect(code).toBe(0);
    expect(summary.invalid).toBe(0);
    expect(summary.totals).toEqual({ GBP: 1975.75 });
    const records = readFileSync(emit, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).record);
    expect(records.map((r) => [r.conversionDatetime, r.conversionValue])).toEqual(expected);
    expect(summary.warnings).toContainEqual(
      expect.stringMatching(
        /read day first \("dd\/MM\/yyyy HH:mm:ss"\): 2 rows can only be read so \(e\.g\. line 4/,
      ),
    );
  });

  it('decides the same from stdin (its first rows are held, then read)', async () => {
    const emit = path.join(tempDir(), 'records.jsonl');
    const { code, summary } = await check(['-', '--emit', emit], readFileSync(ukDayFirst, 'utf8'));
    expect(code).toBe(0);
    expect(summary.totals).toEqual({ GBP: 1975.75 });
    const dates = readFileSync(emit, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).record.conversionDatetime);
    expect(dates).toEqual(expected.map(([at]) => at));
  });

  it('a format in the config is taken as written', async () => {
    const folder = tempDir();
    const config = path.join(folder, 'revimport.config.json');
    const format = 'MM/dd/yyyy HH:mm:ss';
    const mapping = { fields: { conversionDatetime: { columns: ['Date', 'Time', 'Time zone'], format } } };
    writeFileSync(config, JSON.stringify({ mapping }));
    const result = await runCli(['push', ukDayFirst, '-c', config, '--check', '--json'], { cwd: folder });
    const summary = JSON.parse(result.stdout);
    expect(summary.errors.map((e: { reason: string; count: number }) => [e.reason, e.count])).toEqual([
      ['impossible date', 2],
    ]);
  });
});

describe('a download whose dates never tell day from month', () => {
  const key = 'no-config-key';
  const e2e = useE2E({ key, startFirst: true, once: true });

  it('stops before sending anything of the run (exit 2), naming the columns and both formats', async () => {
    const work = tempDir();
    // The good file comes first: it is not sent either.
    const result = await runCli(['push', usPst, undecidable, '--base-url', e2e.receiver.url], {
      cwd: work,
      env: { REVIMPORT_API_KEY: key, REVIMPORT_STATE: path.join(work, 'ledger.db') },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `${undecidable}: the dates in Date + Time + TimeZone can be read day first or month first ` +
        '(line 2, "03/04/2024 10:00:00 PST", reads as two dates)',
    );
    expect(result.stderr).toContain(
      '"MM/dd/yyyy HH:mm:ss" (month first) or "dd/MM/yyyy HH:mm:ss" (day first)',
    );
    expect(e2e.receiver.requests).toHaveLength(0);
  });
});

// The class beyond PayPal: Etsy (and WooCommerce, Salesforce) write slash dates in the shop's or user's
// locale order, so their presets decide it per file too.
describe('an Etsy Sold Orders CSV from a UK shop (dd/MM/yy)', () => {
  it('reads every Sale Date day first, the 03/08/22 and 05/08/22 ones too', async () => {
    const work = tempDir();
    const file = path.join(dir, 'etsy-uk-day-first/EtsySoldOrders2022.csv');
    // Etsy's export has no e-mail column: a constant visitor id stands in, as a lookup would.
    const config = path.join(work, 'revimport.config.json');
    const mapping = { preset: 'etsy', fields: { serviceId: { value: 'v-1' } } };
    writeFileSync(config, JSON.stringify({ timezone: 'Europe/London', mapping }));
    const emit = path.join(work, 'records.jsonl');
    const result = await runCli(['push', file, '-c', config, '--check', '--json', '--emit', emit], {
      cwd: work,
    });
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ valid: 4, invalid: 0 });
    const days = readFileSync(emit, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line).record.conversionDatetime);
    // Midnight in London (BST, UTC+1) of 16 Jul, 3 Aug, 5 Aug and 20 Aug 2022.
    expect(days).toEqual([
      '2022-07-15T23:00:00.000Z',
      '2022-08-02T23:00:00.000Z',
      '2022-08-04T23:00:00.000Z',
      '2022-08-19T23:00:00.000Z',
    ]);
  });
});

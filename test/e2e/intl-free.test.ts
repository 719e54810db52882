// What a push leaves out of its memory (issue 23, "memory flat"): ICU's formatting and collation data, which any
// Intl formatter, `toLocaleString` or `localeCompare` loads for the rest of the run (+7 and +2.6 MiB of RSS;
// src/cli/zone-clock.ts). A push and a `--check` over local times in zones with daylight time, a rejected row and
// a value guard that reads the target's history make none of them on the main thread, whether TZ is set or not;
// their offsets are the zones' own (the records' UTC instants are checked).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { pinZone } from '../../src/cli/zone-env.js';
import { root, runCli } from '../helpers/cli.js';
import { useE2E } from '../helpers/e2e.js';

const key = 'e2e-intl-free-key-5d1a';
const e2e = useE2E({ key });
const preload = path.join(root, 'test/helpers/intl-uses.mjs');

const rows = [
  ['A-1', '12.50', 'EUR', '2024-03-31 01:30:00', 'Europe/Berlin'],
  ['A-2', '7.25', 'EUR', '2024-03-31 03:30:00', 'Europe/Berlin'],
  ['A-3', '1000', 'JPY', '2024-11-03 01:30:00', 'America/New_York'],
  ['A-4', '19.99', 'USD', '2024-04-07 02:30:00', 'Australia/Sydney'],
  ['A-5', '3.10', 'INR', '2024-06-01 12:00:00', 'Asia/Kolkata'],
  ['A-6', '-4.00', 'EUR', '2024-06-01 12:00:00', 'Europe/Berlin'],
  ['A-7', '5.00', 'NPR', '2023-06-01 00:10:00', 'Asia/Kathmandu'],
];
// Each row's UTC instant, from tzdb (a gap-free hour, the earlier of an overlap's two).
const instants: Record<string, string> = {
  'A-1': '2024-03-31T00:30:00.000Z',
  'A-2': '2024-03-31T01:30:00.000Z',
  'A-3': '2024-11-03T05:30:00.000Z',
  'A-4': '2024-04-06T15:30:00.000Z',
  'A-5': '2024-06-01T06:30:00.000Z',
  'A-7': '2023-05-31T18:25:00.000Z',
};

function writeExport(): string {
  const file = path.join(e2e.work, 'orders.csv');
  const lines = [
    'Order ID,Visitor,Amount,Currency,Time,Zone',
    ...rows.map(([id, ...rest]) => [id, `v-${id}`, ...rest].join(',')),
  ];
  writeFileSync(file, `${lines.join('\n')}\n`);
  const config = {
    mapping: {
      fields: {
        conversionId: 'Order ID',
        serviceId: 'Visitor',
        conversionValue: 'Amount',
        conversionCurrency: 'Currency',
        conversionDatetime: { column: 'Time', format: 'yyyy-MM-dd HH:mm:ss' },
        conversionTimezone: 'Zone',
      },
    },
  };
  writeFileSync(e2e.config, JSON.stringify(config));
  return file;
}

it.each([
  ['TZ unset', undefined],
  ['TZ set', 'America/Sao_Paulo'],
])('a push and a --check load no ICU formatter or collator (%s)', async (_, tz) => {
  // Where /etc/localtime names no zone TZ could be set to (zone-env.ts), an unset TZ leaves the offsets to Intl: the
  // same instants, its formatter. pinZone on an empty environment tells, as the CLI's start-up does.
  const expectedUses = tz === undefined && pinZone({}) === undefined ? ['intl-use Intl.DateTimeFormat'] : [];
  const receiver = await e2e.start();
  const file = writeExport();
  // The main thread's zone clock is what is checked: rows on the row thread would read their zones through Intl.
  const env = { ...e2e.env(), TZ: tz, NODE_OPTIONS: `--import ${preload}`, REVIMPORT_ROW_THREAD: undefined };
  const check = await runCli(['push', file, '-c', e2e.config, '--check'], { cwd: e2e.work, env });
  const push = await runCli(['push', file, '-c', e2e.config, '--json'], { cwd: e2e.work, env });
  const again = await runCli(['push', file, '-c', e2e.config], { cwd: e2e.work, env });

  // The invalid row (a negative value) ends the first two with 1; the re-push finds it known and ends with 0.
  expect([check.code, push.code, again.code], check.stderr).toEqual([1, 1, 0]);
  const sent = Object.fromEntries(
    receiver.accepted.map(({ record }) => [record.conversionId, record.conversionDatetime]),
  );
  expect(sent).toEqual(instants);
  for (const run of [check, push, again]) {
    expect(run.stderr.match(/^intl-use .*$/gm) ?? []).toEqual(expectedUses);
  }
});

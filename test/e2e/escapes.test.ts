// Issue 24, "words that reach the terminal": cells holding ESC, BEL and C1 controls go through every kind
// of message the CLI prints (row errors, duplicates, skip reasons, malformed lines, the server's refusals,
// config errors, init's table and review) and none reaches stdout or stderr raw; the rejects file keeps
// the raw bytes; the config init writes from such a sample is read by the next push.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../src/testing/receiver.js';
import { runCli, tempDir } from '../helpers/cli.js';
import { unprintableIn } from '../helpers/unprintable.js';

const key = 'e2e-escapes-key-24';
const OSC = '\u001b]0;pwned\u0007'; // retitles the terminal window
const HIDE = '\u001b[8m'; // hides what follows
const C1 = '\u009b8m'; // the same through a C1 CSI
const at = '2024-01-01T00:00:00Z';

const header = 'id,visitor,time,zone,value,currency,email,name,status';
const rows = [
  `1,v1,${at},,1,E${OSC}UR,,,paid`, // currency
  `2,v2,2024-01-01 10:00,Europe/${HIDE}Berlin,1,EUR,,,paid`, // time zone
  `3,v3,2024-01-01${C1},,1,EUR,,,paid`, // datetime
  `4,v4,${at},,12${HIDE},EUR,,,paid`, // amount
  `5,,${at},,1,EUR,ann${OSC}@example.com,,paid`, // e-mail
  `6${OSC},v6,${at},,1,EUR,,,paid`, // id
  `7,v7,${at},,1,EUR,,Sale${C1},paid`, // name
  `dup\u202e,v8,${at},,1,EUR,,,paid`, // a valid id with a bidi override, twice: duplicate
  `dup\u202e,v9,${at},,1,EUR,,,paid`,
  `10,v10,${at},,1,EUR,,,pend${HIDE}ing`, // skipped: the keep rule quotes the status
  `11,v11,${at},,1,EUR,,refuse,paid`, // the server refuses it with a message holding controls
  `12,v12,${at},,1,EUR,,,paid`,
];
const config = {
  mapping: {
    fields: {
      conversionId: 'id',
      serviceId: 'visitor',
      conversionDatetime: 'time',
      conversionTimezone: 'zone',
      conversionValue: 'value',
      conversionCurrency: 'currency',
      conversionEmail: 'email',
      conversionName: 'name',
    },
    keep: [{ column: 'status', in: ['paid'] }],
  },
};

let work: string;
let receiver: Receiver | undefined;

beforeEach(() => {
  work = tempDir();
  writeFileSync(path.join(work, 'revimport.config.json'), JSON.stringify(config));
  writeFileSync(path.join(work, 'cells.csv'), `${header}\n${rows.join('\n')}\n`);
  // A malformed line whose parse error quotes it; a JSON line with a control in a string.
  writeFileSync(path.join(work, 'lines.jsonl'), `{"id":${HIDE}1}\n{"id":"x${OSC}"\n`);
});
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

function expectClean(result: { stdout: string; stderr: string }) {
  expect(unprintableIn(result.stdout)).toEqual([]);
  expect(unprintableIn(result.stderr)).toEqual([]);
}

describe('cells with terminal controls', () => {
  it.each([[[]], [['--json']], [['--verbose']]])(
    'a real push %j prints every message escaped; the rejects file keeps the raw bytes',
    async (flags) => {
      receiver = await startReceiver({
        apiKey: key,
        validate: (record) => {
          const name = (record as { conversionName?: string }).conversionName;
          return name === 'refuse' ? `bad name ${OSC}${HIDE}` : undefined;
        },
      });
      const env = {
        REVIMPORT_BASE_URL: receiver.url,
        REVIMPORT_API_KEY: key,
        REVIMPORT_STATE: path.join(work, 'ledger.db'),
      };
      const result = await runCli(
        ['push', 'cells.csv', 'lines.jsonl', '--rejects', 'r.csv', '--rejects-skipped', ...flags],
        {
          cwd: work,
          env,
        },
      );
      expect(result.code).toBe(1);
      expectClean(result);
      expect(receiver.accepted.map((a) => a.record.conversionId).sort()).toEqual(['12', 'dup\u202e']);
      if (flags[0] === '--json') {
        const reasons = JSON.parse(result.stdout).errors.map((e: { reason: string }) => e.reason);
        expect(reasons).toEqual(
          expect.arrayContaining([
            'invalid currency',
            'unknown time zone',
            'invalid datetime',
            'invalid number',
            'control character',
            'duplicate',
            'malformed JSON',
            'rejected by server',
          ]),
        );
      } else {
        expect(result.stdout).toContain(`"E\\u001b]0;pwned\\u0007UR" is not an ISO 4217 currency code`);
        expect(result.stdout).toContain('conversionId "dup\\u202e" is already on an earlier valid row');
        expect(result.stdout).toContain('status: pend\\u001b[8ming');
        expect(result.stdout).toContain('bad name \\u001b]0;pwned\\u0007\\u001b[8m');
      }
      const rejects = readFileSync(path.join(work, 'r.csv'), 'utf8');
      for (const cell of [`E${OSC}UR`, `Europe/${HIDE}Berlin`, `6${OSC}`, `pend${HIDE}ing`]) {
        expect(rejects.includes(cell), cell).toBe(true);
      }
    },
  );

  it('a config error quoting a header cell', async () => {
    writeFileSync(path.join(work, 'header.csv'), `id,visitor${OSC},time,value\n1,v,${at},1\n`);
    const result = await runCli(['push', '--check', 'header.csv'], { cwd: work });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('visitor\\u001b]0;pwned\\u0007');
    expectClean(result);
  });

  it("init's sample column, table and review", async () => {
    const sample = [
      'order,visitor,time,amount,currency',
      `A1,v${OSC}1,${at},12.50,E${HIDE}UR`,
      `A2,v${C1}2,${at},3.00,EUR`,
    ].join('\n');
    writeFileSync(path.join(work, 'sample.csv'), `${sample}\n`);
    const result = await runCli(['init', 'sample.csv', '-o', 'init.yaml', '--timezone', 'UTC'], {
      cwd: work,
    });
    expectClean(result);
    expect(result.stdout).toContain(`v\\u001b]0;pwned\\u00071`);
    expect(unprintableIn(readFileSync(path.join(work, 'init.yaml'), 'utf8'))).toEqual([]);
  });
});

describe('the config init writes from such a sample', () => {
  it('a NUL quoted from a cell into a review comment: the next push reads the config', async () => {
    writeFileSync(path.join(work, 'nul.csv'), `id,visitor,time,value,currency\n1,v1,${at},1,E\u0000UR\n`);
    const init = await runCli(['init', 'nul.csv', '-o', 'nul.yaml', '--timezone', 'UTC'], { cwd: work });
    expect(init.code).toBe(1);
    const written = readFileSync(path.join(work, 'nul.yaml'), 'utf8');
    expect(written).toContain('E\\u0000UR');
    const push = await runCli(['push', '--check', 'nul.csv', '-c', 'nul.yaml', '--json'], { cwd: work });
    expect(push.stderr).not.toContain('cannot read config');
    expect(push.code).toBe(1);
    expect(JSON.parse(push.stdout)).toMatchObject({ rowsRead: 1, invalid: 1 });
  });
});

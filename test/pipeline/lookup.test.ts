// mapping.lookup through the pipeline on real files: fields taken from a second export by a shared key
// (Shopify Payments' Order -> the orders export's Name and Email), alternatives of key and match column,
// misses reported per row, a JSON-lines lookup, and the stop when nothing links a conversion to a visitor.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MappingInput } from '../../src/config/schema.js';
import { ConfigError } from '../../src/errors.js';
import { openLookup } from '../../src/pipeline/lookup-table.js';
import { runPipeline } from '../../src/pipeline/run.js';
import { tempDir } from '../helpers/cli.js';
import { testSettings } from '../helpers/settings.js';

const dir = tempDir('revimport-lookup-');
let n = 0;
function file(text: string, ext = 'csv'): string {
  const name = path.join(dir, `f${n++}.${ext}`);
  writeFileSync(name, text);
  return name;
}

const transactions = [
  'Transaction Date,Type,Order,Amount,Currency',
  '2024-03-01 10:00:00 +0000,charge,#1001,50.00,USD',
  '2024-03-01 11:00:00 +0000,charge,#1002,20.00,USD',
  '2024-03-02 09:00:00 +0000,refund,#1001,-10.00,USD',
  '2024-03-02 12:00:00 +0000,charge,#1003,35.00,USD',
].join('\n');

// A Shopify orders export: line-item rows repeat the Name; the first row carries the e-mail.
const orders = [
  'Name,Email,Financial Status,Total',
  '#1001,ann@example.com,partially_refunded,50.00',
  '#1001,,,',
  '#1002,bob@example.com,paid,20.00',
].join('\n');

function mapping(lookupFile: string, over: Partial<MappingInput> = {}): MappingInput {
  return {
    fields: {
      conversionDatetime: 'Transaction Date',
      conversionValue: { column: 'Amount', decimal: '.' },
      conversionCurrency: 'Currency',
      conversionId: 'Order',
      conversionEmail: { lookup: 'Email' },
    },
    sumBy: 'Order',
    lookup: { file: lookupFile, key: 'Order', match: 'Name' },
    ...over,
  };
}

async function check(input: string, mappingInput: MappingInput) {
  return runPipeline(
    testSettings({ mappingInput, timezone: 'UTC', allowNegative: false }),
    { files: [input], check: true, resend: false },
    { userAgent: 't', now: () => 0 },
  );
}

describe('mapping.lookup', () => {
  it('takes the e-mail from the other export by key; a key it lacks is invalid, naming both files', async () => {
    const summary = await check(file(transactions), mapping(file(orders)));
    // #1001: 50.00 - 10.00; #1002: 20.00. #1003 is not in the orders export.
    expect(summary.valid).toBe(2);
    expect(summary.totals).toEqual({ USD: 60 });
    expect(summary.invalid).toBe(1);
    // #1001's line-item row (no e-mail) neither hides nor contradicts the order's first row.
    expect(summary.warnings).toEqual([]);
    const issue = summary.errors[0]!;
    expect(issue.reason).toBe('not in lookup file');
    expect(issue.examples[0]!.message).toMatch(/"#1003" is not in column Name of .*f\d+\.csv/);
  });

  it('holds back a sum one of whose rows has no lookup row', async () => {
    const summary = await check(
      file(`${transactions}\n2024-03-03 10:00:00 +0000,refund,#1002,-5.00,USD`),
      mapping(file('Name,Email\n#1002,bob@example.com\n#1003,cy@example.com')),
    );
    // #1001 has no row in the lookup: both its rows are invalid. #1002 sums to 15.00, #1003 35.00.
    expect(summary.invalid).toBe(2);
    expect(summary.totals).toEqual({ USD: 50 });
  });

  it('tries each key in turn against its own match column', async () => {
    const opportunities = [
      'Id,ContactId,AccountId,Amount,CloseDate,CurrencyIsoCode',
      '006A,003X,,100,2024-05-01,EUR',
      '006B,,001Y,200,2024-05-02,EUR',
      '006C,003Z,001Y,300,2024-05-03,EUR',
    ].join('\n');
    const contacts = ['Id,AccountId,Email', '003X,001Q,x@example.com', '003W,001Y,y@example.com'].join('\n');
    const summary = await check(file(opportunities), {
      fields: {
        conversionId: 'Id',
        conversionValue: 'Amount',
        conversionDatetime: 'CloseDate',
        conversionCurrency: 'CurrencyIsoCode',
        conversionEmail: { lookup: 'Email' },
      },
      lookup: { file: file(contacts), key: ['ContactId', 'AccountId'], match: ['Id', 'AccountId'] },
    });
    // 006A by its contact; 006B by its account; 006C's contact is unknown, its account is not: found.
    expect(summary.valid).toBe(3);
    expect(summary.totals).toEqual({ EUR: 600 });
  });

  it('reads a JSON-lines lookup file by paths', async () => {
    const users = file(
      [
        '{"id":"u1","profile":{"email":"u1@example.com"}}',
        '{"id":"u2","profile":{"email":"u2@example.com"}}',
      ].join('\n'),
      'jsonl',
    );
    const input = file(
      'user,amount,at,cur\nu2,9.99,2024-01-01T00:00:00Z,USD\nu3,1.00,2024-01-01T00:00:00Z,USD',
    );
    const summary = await check(input, {
      fields: {
        conversionValue: 'amount',
        conversionDatetime: 'at',
        conversionCurrency: 'cur',
        conversionEmail: { lookup: 'profile.email' },
      },
      lookup: { file: users, key: 'user', match: 'id' },
    });
    expect(summary.valid).toBe(1);
    expect(summary.invalid).toBe(1);
  });

  it('is a config error when the lookup file lacks a column the mapping takes', async () => {
    await expect(
      check(file(transactions), mapping(file('Name,E-mail\n#1001,a@example.com'))),
    ).rejects.toThrow(/f\d+\.csv: no header row found .*"Email" \(mapping.lookup\)/);
  });

  it('warns, through the summary, about keys that come again with other values, and uses the first', async () => {
    const summary = await check(
      file(transactions),
      mapping(file('Name,Email\n#1001,first@example.com\n#1001,second@example.com\n#1002,b@example.com')),
    );
    expect(summary.warnings.join('\n')).toMatch(
      /1 key\(s\) of mapping.lookup appear again with other values/,
    );
    expect(summary.valid).toBe(2);
  });

  it('stores only the wanted columns, on disk, and closes', async () => {
    const table = await openLookup(
      {
        fields: { conversionEmail: { lookup: 'Email' } },
        defaults: {},
        lookup: { file: file(orders), key: 'x', match: 'Name' },
      },
      {},
    );
    expect(table?.rows).toBe(3);
    expect(table?.get(0, '#1002')).toEqual(['bob@example.com']);
    expect(table?.get(0, '#9999')).toBeUndefined();
    table?.close();
  });

  it('is a config error when fields take from a lookup that is not configured', async () => {
    const { lookup: _none, ...rest } = mapping('x');
    await expect(check(file(transactions), rest)).rejects.toThrow(ConfigError);
  });
});

describe('a file nothing in which links a conversion to a visitor', () => {
  it('stops the run before any row, saying what is missing and how to supply it', async () => {
    const run = check(file(transactions), {
      fields: {
        conversionDatetime: 'Transaction Date',
        conversionValue: 'Amount',
        conversionCurrency: 'Currency',
        conversionId: 'Order',
      },
    });
    await expect(run).rejects.toThrow(/no conversion in it can be attributed/);
    await expect(run).rejects.toMatchObject({ hint: expect.stringContaining('mapping.lookup') });
  });
});

// What a user reads when the setup, not the data, is wrong: a mapped column the header lacks, no config
// file, a preset's column the file lacks, a config key mistyped (issue 12, "Messages that point the wrong way").
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { root, runCli, tempDir } from '../helpers/cli.js';

let work: string;
beforeEach(() => {
  work = tempDir();
});

/** An export of made-up orders whose value column is `Total`. */
function writeOrders(): string {
  const file = path.join(work, 'orders.csv');
  writeFileSync(
    file,
    'Order ID,Date,Total,Currency,Email\nA-1,2024-05-01 10:00:00,12.50,USD,ann@example.com\nA-2,2024-05-02 11:00:00,20.00,USD,bob@example.com\n',
  );
  return file;
}

function writeYaml(text: string): string {
  const file = path.join(work, 'revimport.config.yaml');
  writeFileSync(file, text);
  return file;
}

const ordersMapping = `timezone: UTC
mapping:
  fields:
    conversionId: Order ID
    conversionDatetime: Date
    conversionValue: Order Total
    conversionCurrency: Currency
    conversionEmail: Email
`;

describe('setup messages', () => {
  it('a mapped column the header lacks is named, with the near matches, and is not "no header row found"', async () => {
    writeOrders();
    writeYaml(ordersMapping);
    const result = await runCli(['push', 'orders.csv', '--check'], { cwd: work });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'orders.csv:1: the config ./revimport.config.yaml expects columns the header lacks: no column "Order Total" (mapped to conversionValue; did you mean "Total" or "Order ID"?)',
    );
    expect(result.stderr).toContain(
      'hint: the header (line 1) has: "Order ID", "Date", "Total", "Currency", "Email"',
    );
    expect(result.stderr).not.toContain('no header row found');
  });

  it('no config file and a file no preset reads: says so and suggests revimport init <file>', async () => {
    writeOrders();
    const result = await runCli(['push', 'orders.csv', '--check'], { cwd: work });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`revimport: no config file in ${work} (looked for revimport.config.`);
    expect(result.stderr).toContain('orders.csv matches no preset');
    expect(result.stderr).toContain(
      'hint: run revimport init orders.csv to write revimport.config.yaml from it',
    );
    expect(result.stderr).not.toContain('no header row found');
  });

  it('no config file and a file a preset reads: works as before, no word of a config', async () => {
    const stripe = path.join(root, 'fixtures/presets/stripe/unified_payments.csv');
    const result = await runCli(['push', stripe, '--check', '--timezone', 'UTC'], { cwd: work });
    expect(result.code).not.toBe(2);
    expect(result.stderr).toContain('preset stripe');
    expect(result.stderr).not.toContain('no config file');
  });

  it('a config that names a file no preset reads says nothing of a missing config', async () => {
    writeOrders();
    writeYaml('timezone: UTC\nmapping:\n  fields:\n    serviceId: Email\n');
    const result = await runCli(['push', 'orders.csv', '--check'], { cwd: work });
    expect(result.code).toBe(2);
    expect(result.stderr).not.toContain('no config file');
    expect(result.stderr).toContain(
      'orders.csv:1: the header matches no preset, and the mapping does not give conversionValue or conversionDatetime',
    );
  });

  it('a preset column the file lacks (google-ads-report without Day) is one setup error, not "the cell is empty"', async () => {
    writeFileSync(
      path.join(work, 'report.csv'),
      'Conversions by week\nMarch 2024\nWeek\tCampaign\tConversion action\tCurrency code\tConversions\tConv. value\tVisitor ID\n' +
        '2024-03-04\tBrand\tPurchase\tUSD\t3.00\t1249.00\tv_a1\n2024-03-11\tBrand\tPurchase\tUSD\t1.00\t89.90\tv_a2\n',
    );
    writeYaml(
      'timezone: America/New_York\nmapping:\n  preset: google-ads-report\n  fields:\n    serviceId: Visitor ID\n',
    );
    const result = await runCli(['push', 'report.csv', '--check'], { cwd: work });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'revimport: report.csv: no column Day in this file for conversionDatetime (the google-ads-report preset reads conversionDatetime from "Day" or "Date")',
    );
    expect(result.stderr).toContain('the header, line 3, has: "Week"');
    expect(result.stderr).not.toContain('the cell is empty');
  });

  it('config errors say what a union expected, suggest the key meant, and never print the API key', async () => {
    writeOrders();
    writeYaml(
      'apiKey: 4815162342\ntimezon: UTC\napikey: sk-live-made-up-0042\nmapping:\n  fields:\n    conversionId: 12\n' +
        '    conversionValue: { column: Total, decimals: "," }\n',
    );
    const result = await runCli(['push', 'orders.csv', '--check'], { cwd: work });
    expect(result.code).toBe(2);
    const file = path.join(work, 'revimport.config.yaml');
    expect(result.stderr).toContain(`invalid config in ${file}:`);
    expect(result.stderr).toContain(
      '  - mapping.fields.conversionId: expected a column name or an object with column/columns/path/value/lookup, got 12',
    );
    expect(result.stderr).toContain('  - unknown key timezon: did you mean timezone?');
    expect(result.stderr).toContain('  - unknown key apikey: did you mean apiKey?');
    expect(result.stderr).toContain(
      '  - unknown key mapping.fields.conversionValue.decimals: did you mean decimal?',
    );
    expect(result.stderr).not.toContain('Invalid input\n');
    expect(result.stderr).not.toContain('4815162342');
    expect(result.stderr).not.toContain('sk-live-made-up-0042');
  });
});

// Detection when nothing matches exactly: the presets a header nearly matches, with what they lack, in the
// error a run gives (a re-saved export that lost a column must not read as "no preset at all").
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectPreset, nearMisses } from '../../src/mapping/presets/index.js';
import { runPipeline } from '../../src/pipeline/run.js';
import { tempDir } from '../helpers/cli.js';
import { testSettings } from '../helpers/settings.js';

const shopifyHeader = [
  'Name',
  'Email',
  'Financial Status',
  'Paid at',
  'Currency',
  'Total',
  'Created at',
  'Lineitem name',
];

describe('nearMisses', () => {
  it('names a preset whose header lost one identifying column, and the column', () => {
    const header = shopifyHeader.filter((c) => c !== 'Paid at');
    expect(detectPreset(header).candidates).toEqual([]);
    const near = nearMisses(header);
    expect(near.map((m) => m.preset.name)).toContain('shopify');
    expect(near.find((m) => m.preset.name === 'shopify')?.missing).toEqual(['Paid at']);
  });

  it('says when the lost column is one of several alternatives', () => {
    const header = shopifyHeader.filter((c) => c !== 'Created at' && c !== 'Lineitem name');
    expect(nearMisses(header).find((m) => m.preset.name === 'shopify')?.missing).toEqual([
      'one of Lineitem name / Lineitem quantity / Created at',
    ]);
  });

  it('offers nothing for a header that shares a column or two by chance', () => {
    expect(nearMisses(['Name', 'Email', 'Phone', 'City'])).toEqual([]);
    expect(nearMisses([])).toEqual([]);
  });

  it('offers nothing when the header matches (a near miss is only for headers that match none)', () => {
    expect(nearMisses(shopifyHeader).map((m) => m.preset.name)).not.toContain('shopify');
  });

  it('works on the first object of JSON lines, by path', () => {
    // A GA4 BigQuery row whose export dropped user_pseudo_id (a custom query's SELECT).
    const row = {
      event_name: 'purchase',
      event_timestamp: '1717243200123456',
      event_params: [],
      event_date: '20240601',
    };
    expect(nearMisses(row).find((m) => m.preset.name === 'ga4')?.missing).toEqual(['user_pseudo_id']);
    // Meta CAPI without custom_data: one of its four paths.
    const capi = { event_name: 'Purchase', event_time: 1717243200, user_data: {} };
    expect(nearMisses(capi).find((m) => m.preset.name === 'meta-capi')?.missing).toEqual([
      'custom_data.value',
    ]);
  });

  it('sorts the closest first', () => {
    const header = shopifyHeader.filter((c) => c !== 'Paid at');
    const counts = nearMisses(header).map((m) => m.missing.length);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
  });
});

describe('a run on a file that nearly matches a preset', () => {
  it('stops with an error naming the preset and the missing column', async () => {
    const file = path.join(tempDir('revimport-detect-'), 'orders.csv');
    const header = shopifyHeader.filter((c) => c !== 'Paid at');
    writeFileSync(
      file,
      `${header.join(',')}\n#1001,a@example.com,paid,USD,10.00,2024-01-01 10:00:00 +0000,Hat\n`,
    );
    const run = runPipeline(
      testSettings({ timezone: 'UTC' }),
      { files: [file], check: true, resend: false },
      { userAgent: 't', now: () => 0 },
    );
    await expect(run).rejects.toThrow(/matches no preset exactly; nearly: shopify \(no "Paid at"\)/);
  });
});

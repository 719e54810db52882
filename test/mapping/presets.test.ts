import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { configSchema, type FieldSpec, mappingSchema } from '../../src/config/schema.js';
import { normalizeColumnName } from '../../src/input/column-name.js';
import { compileJsonPath } from '../../src/mapping/json-path.js';
import {
  detectJsonPreset,
  detectPreset,
  findPreset,
  nearMisses,
  presets,
  unknownPreset,
} from '../../src/mapping/presets/index.js';
import type { Preset } from '../../src/mapping/presets/types.js';
import { recordFields } from '../../src/record/fields.js';

const fixturesDir = join(import.meta.dirname, '../../fixtures/presets');

/** Each fixture's export file and the physical line of its header (1-based). */
const csvFixtures = [
  { preset: 'google-ads', file: 'conversions.csv', headerLine: 7, delimiter: ',' },
  { preset: 'google-ads-report', file: 'campaign-conversions.csv', headerLine: 3, delimiter: '\t' },
  { preset: 'meta', file: 'offline-events.csv', headerLine: 1, delimiter: ',' },
  { preset: 'microsoft-ads', file: 'offline-conversions.csv', headerLine: 8, delimiter: ',' },
  { preset: 'tiktok', file: 'offline-events.csv', headerLine: 1, delimiter: ',' },
  { preset: 'linkedin', file: 'offline-conversions.csv', headerLine: 1, delimiter: ',' },
  { preset: 'shopify', file: 'orders_export.csv', headerLine: 1, delimiter: ',' },
  { preset: 'stripe', file: 'unified_payments.csv', headerLine: 1, delimiter: ',' },
  { preset: 'paypal', file: 'Download.CSV', headerLine: 1, delimiter: ',' },
  { preset: 'paypal-pt-br', file: 'paypal.csv', headerLine: 1, delimiter: ',' },
  { preset: 'shopify-payments', file: 'payment_transactions_export_1.csv', headerLine: 1, delimiter: ',' },
  { preset: 'salesforce', file: 'Opportunity.csv', headerLine: 1, delimiter: ',' },
  { preset: 'salesforce-report', file: 'salesforce_opportunities.csv', headerLine: 1, delimiter: ';' },
  { preset: 'hubspot', file: 'hubspot-crm-exports-all-deals-2023-06-01.csv', headerLine: 1, delimiter: ',' },
  { preset: 'awin', file: 'awin_transactions.csv', headerLine: 1, delimiter: ',' },
  { preset: 'woocommerce', file: 'orders_export.csv', headerLine: 1, delimiter: ',' },
  { preset: 'etsy', file: 'EtsySoldOrders.csv', headerLine: 1, delimiter: ',' },
  { preset: 'lemonsqueezy', file: 'orders.csv', headerLine: 1, delimiter: ',' },
  { preset: 'gumroad', file: 'Sales.csv', headerLine: 1, delimiter: ',' },
  { preset: 'ebay', file: 'SalesHistory.csv', headerLine: 2, delimiter: ',' },
] as const;
const jsonFixtures = [
  { preset: 'meta-capi', file: 'events.jsonl' },
  { preset: 'ga4', file: 'events.jsonl' },
] as const;

function readText(path: string): string {
  const bytes = readFileSync(path);
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le');
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return bytes.subarray(3).toString('utf8');
  return bytes.toString('utf8');
}

function readHeader(fixture: (typeof csvFixtures)[number]): string[] {
  const lines = readText(join(fixturesDir, fixture.preset, fixture.file)).split(/\r?\n/);
  const rows = parse(lines[fixture.headerLine - 1] ?? '', { delimiter: fixture.delimiter }) as string[][];
  return (rows[0] ?? []).map((cell) => cell.trim());
}

/** The header cells of each file in a fixture's layouts/ folder (first line; tab- or comma-separated). */
function layoutHeaders(preset: string): string[] {
  const dir = join(fixturesDir, preset, 'layouts');
  if (!existsSync(dir)) return [];
  const support = new Set(['revimport.config.json', 'README.md']);
  return readdirSync(dir)
    .filter((name) => !support.has(name))
    .flatMap((name) => {
      // The header is the first line that is no `Parameters:` row (Google's and Microsoft's upload templates).
      const lines = readText(join(dir, name)).split(/\r?\n/);
      const first = lines.find((line) => !/^parameters:/i.test(line)) ?? '';
      const rows = parse(first, { delimiter: first.includes('\t') ? '\t' : ',' }) as string[][];
      return (rows[0] ?? []).map((cell) => cell.trim());
    });
}

function readFirstObject(fixture: (typeof jsonFixtures)[number]): Record<string, unknown> {
  const firstLine = readText(join(fixturesDir, fixture.preset, fixture.file)).split('\n')[0] ?? '';
  return JSON.parse(firstLine) as Record<string, unknown>;
}

function presetNamed(name: string): Preset {
  const preset = findPreset(name);
  if (preset === undefined) throw new Error(`no preset ${name}`);
  return preset;
}

function alternatives(spec: FieldSpec | undefined, key: 'column' | 'path'): string[] {
  if (spec === undefined) return [];
  if (typeof spec === 'string') return key === 'column' ? [spec] : [];
  const value = spec[key];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

describe('detectPreset', () => {
  it.each(csvFixtures)('detects $preset from its fixture header', (fixture) => {
    const result = detectPreset(readHeader(fixture));
    expect(result.match?.name).toBe(fixture.preset);
    expect(result.candidates.map((p) => p.name)).toEqual([fixture.preset]);
  });

  it('detects a Lemon Squeezy orders download that has no status column (issue 21)', () => {
    // The real one was refused as "nearly: lemonsqueezy (no status)"; fixtures/presets/lemonsqueezy/README.md.
    const header = readText(join(fixturesDir, 'lemonsqueezy/layouts/orders-no-status.csv')).split('\n')[0]!;
    const result = detectPreset(header.split(','));
    expect(result.match?.name).toBe('lemonsqueezy');
    expect(presetNamed('lemonsqueezy').mapping.fields?.conversionValue).toMatchObject({
      column: 'total',
      unit: 'minor',
    });
  });

  it('detects the enhanced-conversions-for-leads upload (Email, Phone Number, no click id) as google-ads', () => {
    // Issue 21 item 3: a real upload file of this shape matched no preset; fixtures/presets/google-ads/README.md.
    const line = readText(join(fixturesDir, 'google-ads/layouts/leads_calidad.csv')).split(/\r?\n/)[1]!;
    const header = line.split(',');
    expect(header).not.toContain('Google Click ID');
    expect(detectPreset(header)).toEqual({
      match: presetNamed('google-ads'),
      candidates: [presetNamed('google-ads')],
    });
    expect(presetNamed('google-ads').mapping.fields?.conversionEmail).toBe('Email');
  });

  it('matches names case- and space-insensitively', () => {
    const header = ['GOOGLE CLICK ID', 'conversion name', 'ConversionTime', 'Conversion  Value'];
    expect(detectPreset(header).match?.name).toBe('google-ads');
  });

  it('returns every tied preset and no match when two presets score the same', () => {
    const header = [
      'Google Click ID',
      'Microsoft Click ID',
      'Conversion Name',
      'Conversion Time',
      'Conversion Value',
      'Conversion Currency',
    ];
    const result = detectPreset(header);
    expect(result.match).toBeUndefined();
    expect(result.candidates.map((p) => p.name).sort()).toEqual(['google-ads', 'microsoft-ads']);
  });

  it('prefers the preset that recognises more of the header', () => {
    // Both click-id presets qualify; two of Google's `any` columns outscore one of Microsoft's.
    const header = [
      'Google Click ID',
      'GBRAID',
      'Microsoft Click ID',
      'Conversion Name',
      'Conversion Time',
      'Conversion Value',
    ];
    const result = detectPreset(header);
    expect(result.match?.name).toBe('google-ads');
    expect(result.candidates.map((p) => p.name)).toEqual(['google-ads']);
  });

  it.each([
    ['an unrelated header', ['date', 'amount', 'customer']],
    ['an empty header', []],
    ['a header missing one required column', ['Google Click ID', 'Conversion Name', 'Conversion Value']],
    [
      'a header with all required columns but none of `any`',
      ['Conversion Name', 'Conversion Time', 'Conversion Value'],
    ],
    [
      "Etsy's Sold Order Items download (item rows, no order total)",
      [
        'Sale Date',
        'Item Name',
        'Buyer',
        'Quantity',
        'Price',
        'Discount Amount',
        'Order Shipping',
        'Order Sales Tax',
      ].concat([
        'Item Total',
        'Currency',
        'Transaction ID',
        'Listing ID',
        'Date Paid',
        'Order ID',
        'Order Type',
      ]),
    ],
  ])('finds no preset for %s', (_label, header) => {
    expect(detectPreset(header)).toEqual({ candidates: [] });
  });

  it('detects the older Stripe payments.csv layout (no id, no Amount Refunded) as stripe', () => {
    const header = readText(join(fixturesDir, 'stripe/layouts/payments.csv')).split(/\r?\n/)[0]!.split(';');
    expect(header).not.toContain('id');
    expect(detectPreset(header)).toEqual({
      match: presetNamed('stripe'),
      candidates: [presetNamed('stripe')],
    });
    // Without the zone-named date column, Amount and Currency alone are no Stripe export.
    expect(detectPreset(['id', 'Amount', 'Currency', 'Status']).candidates.map((p) => p.name)).not.toContain(
      'stripe',
    );
  });

  it.each([
    ['the 18-column EU layout (Payout ID, VAT)', ',Payout ID,', ',VAT'],
    ['the older 13-column layout', ',Payout ID,', ''],
  ])('detects %s of the Shopify Payments export', (_label, payoutId, vat) => {
    const base =
      'Transaction Date,Type,Order,Card Brand,Card Source,Payout Status,Payout Date,Available On,Amount,Fee,Net,' +
      'Checkout,Payment Method Name,Presentment Amount,Presentment Currency,Currency';
    let header = base.replace(',Payout Date,', `,Payout Date${payoutId}`) + vat;
    if (vat === '')
      header = header.replace(',Checkout,Payment Method Name,Presentment Amount,Presentment Currency', '');
    expect(detectPreset(header.split(',')).candidates.map((p) => p.name)).toEqual(['shopify-payments']);
  });

  it('never offers a JSON-lines preset for a CSV header', () => {
    const header = ['event_name', 'event_time', 'user_data', 'custom_data.value'];
    expect(detectPreset(header).candidates.map((p) => p.format)).not.toContain('jsonl');
  });
});

describe('detectJsonPreset', () => {
  it.each(jsonFixtures)('detects $preset from the first object of its fixture', (fixture) => {
    const result = detectJsonPreset(readFirstObject(fixture));
    expect(result.match?.name).toBe(fixture.preset);
  });

  it.each([
    ['an unrelated object', { id: 1, total: 9.5 }],
    ['a CAPI event without custom_data.value', { event_name: 'Purchase', event_time: 1, user_data: {} }],
    ['a path through a non-object', { event_name: 'x', event_time: 1, user_data: {}, custom_data: 'value' }],
  ])('finds no preset for %s', (_label, object) => {
    expect(detectJsonPreset(object)).toEqual({ candidates: [] });
  });
});

describe('findPreset', () => {
  it.each(presets.map((p) => p.name))('finds %s by name', (name) => {
    expect(findPreset(name)?.name).toBe(name);
  });

  it('returns undefined for an unknown name', () => {
    expect(findPreset('google')).toBeUndefined();
  });
});

describe('preset definitions', () => {
  it('have unique names', () => {
    const names = presets.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(presets)('$name: mapping passes mappingSchema and names its preset', (preset) => {
    const result = mappingSchema.safeParse(preset.mapping);
    expect(result.error?.issues ?? []).toEqual([]);
    expect(preset.mapping.preset).toBe(preset.name);
  });

  it.each(presets)('$name: notes say how to add a visitor id', (preset) => {
    expect(preset.notes.join('\n')).toContain('mapping.fields.serviceId');
  });

  it.each(presets)('$name: has a fixture folder with a valid config naming the preset', (preset) => {
    const dir = join(fixturesDir, preset.name);
    expect(existsSync(join(dir, 'expected.json'))).toBe(true);
    const config = configSchema.parse(JSON.parse(readFileSync(join(dir, 'revimport.config.json'), 'utf8')));
    expect(config.mapping?.preset).toBe(preset.name);
  });
});

describe('preset fields against fixture headers', () => {
  it.each(csvFixtures)('$preset: every column reference has an alternative in the header', (fixture) => {
    const preset = presetNamed(fixture.preset);
    // A preset reading several layouts (layouts/ beside the fixture) may name columns only those have.
    const header = new Set(
      [...readHeader(fixture), ...layoutHeaders(fixture.preset)].map(normalizeColumnName),
    );
    const fields = preset.mapping.fields ?? {};
    for (const field of recordFields) {
      const columns = alternatives(fields[field], 'column');
      if (columns.length === 0) continue;
      expect(
        columns.some((c) => header.has(normalizeColumnName(c))),
        `${field}: ${columns.join(' | ')}`,
      ).toBe(true);
    }
    if (preset.mapping.foldBy !== undefined) {
      const foldBy = [preset.mapping.foldBy].flat();
      expect(foldBy.some((c) => header.has(normalizeColumnName(c)))).toBe(true);
    }
  });

  // The first object the preset keeps: a GA4 file starts with page_view rows, which have no revenue paths.
  it.each(jsonFixtures)('$preset: every path exists in the first object it keeps', (fixture) => {
    const preset = presetNamed(fixture.preset);
    const kept = readText(join(fixturesDir, fixture.preset, fixture.file))
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((object) =>
        (preset.mapping.keep ?? []).every((rule) => {
          const value = String(compileJsonPath(rule.path ?? '').get(object) ?? '').toLowerCase();
          return rule.in?.some((v) => v.toLowerCase() === value) ?? true;
        }),
      );
    expect(kept).toBeDefined();
    const fields = preset.mapping.fields ?? {};
    for (const field of recordFields) {
      const paths = alternatives(fields[field], 'path');
      if (paths.length === 0) continue;
      expect(
        paths.some((p) => compileJsonPath(p).has(kept)),
        `${field}: ${paths.join(' | ')}`,
      ).toBe(true);
    }
  });
});

describe('fixture expectations', () => {
  const folders = readdirSync(fixturesDir, { withFileTypes: true }).filter((d) => d.isDirectory());

  it('cover exactly the built-in presets', () => {
    expect(folders.map((d) => d.name).sort()).toEqual(presets.map((p) => p.name).sort());
  });

  it.each(folders.map((d) => d.name))(
    '%s: expected.json holds wire-shaped records and line-ordered rejects',
    (name) => {
      const expected = JSON.parse(readFileSync(join(fixturesDir, name, 'expected.json'), 'utf8')) as {
        records: Record<string, unknown>[];
        invalid: { line: number; column: string; reason: string }[];
      };
      expect(expected.records.length).toBeGreaterThanOrEqual(5);
      for (const record of expected.records) {
        expect(Object.keys(record).every((k) => (recordFields as readonly string[]).includes(k))).toBe(true);
        expect(typeof record.conversionValue).toBe('number');
        expect(record.conversionDatetime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(record.conversionCurrency).toMatch(/^[A-Z]{3}$/);
        expect(record.serviceId ?? record.conversionEmail).toBeDefined();
      }
      const lines = expected.invalid.map((i) => i.line);
      expect(lines).toEqual([...lines].sort((a, b) => a - b));
      expect(expected.invalid.length).toBeGreaterThanOrEqual(1);
    },
  );
});

describe('CRM exports: other real layouts', () => {
  it('reads a HubSpot view export (9 columns) as hubspot, and names what a stage-less export lacks', () => {
    const view = [
      'Record ID',
      'Deal Name',
      'Deal Stage',
      'Close Date',
      'Deal owner',
      'Amount',
      'Closed Lost Reason',
      'Last Modified Date',
      'Create Date',
    ];
    expect(detectPreset(view).match?.name).toBe('hubspot');
    // Record ID, Deal Name, Simpro Quote Id, Amount: no stage, so won deals cannot be told: no preset.
    const fourColumns = ['Record ID', 'Deal Name', 'Simpro Quote Id', 'Amount'];
    expect(detectPreset(fourColumns).candidates).toEqual([]);
    const miss = nearMisses(fourColumns).find((m) => m.preset.name === 'hubspot');
    expect(miss?.missing[0]).toBe('Deal Stage');
  });

  it('tells the Salesforce object export (API names, re-saved too) from the report export (UI labels)', () => {
    const resaved =
      'Id,AccountId,Name,Description,StageName,Amount,Probability,ExpectedRevenue,CloseDate,NextStep,LeadSource,IsClosed,IsWon,CreatedDate'.split(
        ',',
      );
    expect(detectPreset(resaved).match?.name).toBe('salesforce');
    const report = [
      'Opportunity Owner',
      'Opportunity Name',
      'Account Name',
      'Stage',
      'Amount Currency',
      'Amount',
      'Probability (%)',
      'Close Date',
      'Opportunity ID',
    ];
    expect(detectPreset(report).match?.name).toBe('salesforce-report');
    // A report without Probability (%) cannot tell won deals: not taken for one.
    expect(detectPreset(report.filter((c) => c !== 'Probability (%)')).match).toBeUndefined();
  });
});

describe('unknownPreset', () => {
  it.each([
    ['strpe', 'unknown preset "strpe" (did you mean stripe?)'],
    ['Shopfy', 'unknown preset "Shopfy" (did you mean shopify?)'],
    ['paypal-br', 'unknown preset "paypal-br" (did you mean paypal or paypal-pt-br?)'],
    ['zzzzzz', 'unknown preset "zzzzzz"'],
  ])('%s: %s, then every name', (name, message) => {
    const said = unknownPreset(name);
    expect(said.message).toBe(message);
    expect(said.hint).toMatch(/^known presets: google-ads, .*stripe/);
  });
});

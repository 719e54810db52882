// Earned-money edge cases of the new presets, through the pipeline on real files: a PayPal refund of a
// payment that carries an invoice reference, payments of one subscription profile, a Stripe refund the
// older layout does not quantify, GA4's "(not set)" transaction id, SkyVerge's refunded_total, a Shopify
// Payments chargeback, an e-mail key masked in a lookup miss, a transform that supplies the link.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MappingInput } from '../../src/config/schema.js';
import type { Settings } from '../../src/config/settings.js';
import { runPipeline } from '../../src/pipeline/run.js';
import { tempDir } from '../helpers/cli.js';
import { testSettings } from '../helpers/settings.js';

const dir = tempDir('revimport-policies-');
let n = 0;
function file(text: string, ext = 'csv'): string {
  const name = path.join(dir, `f${n++}.${ext}`);
  writeFileSync(name, text);
  return name;
}

async function check(input: string, mappingInput: MappingInput, over: Partial<Settings> = {}) {
  return runPipeline(
    testSettings({ mappingInput, timezone: 'UTC', ...over }),
    { files: [input], check: true, resend: false },
    { userAgent: 't', now: () => 0 },
  );
}

const paypalHeader =
  'Date,Time,TimeZone,Name,Type,Status,Currency,Gross,Fee,Net,From Email Address,Transaction ID,Reference Txn ID';

describe('paypal: refunds meet their payment, payments keep their own key', () => {
  it('nets a refund of a payment whose own Reference Txn ID names an invoice', async () => {
    const summary = await check(
      file(
        [
          paypalHeader,
          '03/11/2024,09:41:17,PDT,Cy,PayPal Here Payment,Completed,USD,80.00,-2.32,77.68,cy@example.com,TX-PAY-1,INV2-AAAA',
          '03/15/2024,10:00:00,PDT,Cy,Payment Refund,Completed,USD,-20.00,0.58,-19.42,shop@example.com,TX-REF-1,TX-PAY-1',
        ].join('\n'),
      ),
      { preset: 'paypal', fields: {}, defaults: {} },
    );
    expect(summary.valid).toBe(1);
    expect(summary.totals).toEqual({ USD: 60 });
    expect(summary.skippedReasons).toEqual({});
  });

  it('keeps apart two payments of one subscription profile', async () => {
    const summary = await check(
      file(
        [
          paypalHeader,
          // Days above 12: the file's day/month order is read from them (issue 21).
          '02/14/2024,10:00:00,PST,Di,Subscription Payment,Completed,EUR,9.99,-0.50,9.49,di@example.com,TX-S-1,I-PROFILE1',
          '04/14/2024,10:00:00,PDT,Di,Subscription Payment,Completed,EUR,9.99,-0.50,9.49,di@example.com,TX-S-2,I-PROFILE1',
        ].join('\n'),
      ),
      { preset: 'paypal', fields: {}, defaults: {} },
      { timezone: 'America/Los_Angeles' },
    );
    expect(summary.valid).toBe(2);
    expect(summary.totals).toEqual({ EUR: 19.98 });
  });
});

describe('stripe, older payments.csv without Amount Refunded', () => {
  const payments = [
    'Description;Created (UTC);Amount;Currency;Status;Customer Email',
    'Plan A;2024-05-01 10:00;12.00;usd;Paid;a@example.com',
    'Plan B;2024-05-02 10:00;40.00;usd;Refunded;b@example.com',
    'Plan C;2024-05-03 10:00;25.00;usd;Partially refunded;c@example.com',
  ].join('\r\n');

  it('does not send a refunded payment at full value: the refund amount is unknown', async () => {
    const summary = await check(file(payments), { preset: 'stripe', fields: {}, defaults: {} });
    expect(summary.totals).toEqual({ USD: 12 });
    expect(summary.invalid).toBe(2);
    expect(summary.errors.map((e) => e.reason)).toEqual(['refund amount unknown']);
    expect(summary.errors[0]!.examples[0]!.message).toMatch(/has no "Amount Refunded" column/);
    expect(summary.warnings.join('\n')).toMatch(/rows whose status says refunded are invalid/);
  });

  it('sends them as written under refunds: gross', async () => {
    const summary = await check(
      file(payments),
      { preset: 'stripe', fields: {}, defaults: {} },
      { refunds: 'gross' },
    );
    expect(summary.totals).toEqual({ USD: 77 });
  });
});

describe('ga4: "(not set)" is no transaction id', () => {
  it('sends two purchases without ids instead of calling the second a duplicate', async () => {
    const event = (ts: string, revenue: string) =>
      JSON.stringify({
        event_date: '20240601',
        event_timestamp: ts,
        event_name: 'purchase',
        event_params: [{ key: 'currency', value: { string_value: 'EUR' } }],
        user_pseudo_id: 'u1',
        ecommerce: { transaction_id: '(not set)', purchase_revenue: revenue },
      });
    const summary = await check(
      file([event('1717243200000000', '31.0'), event('1717243300000000', '12.5')].join('\n'), 'jsonl'),
      { preset: 'ga4', fields: { serviceId: { path: 'user_pseudo_id' } }, defaults: {} },
    );
    expect(summary.duplicates).toBe(0);
    expect(summary.valid).toBe(2);
    expect(summary.totals).toEqual({ EUR: 43.5 });
  });
});

describe('woocommerce, SkyVerge layout', () => {
  it('takes refunded_total off the order total under refunds: net', async () => {
    const csv = [
      'order_id,order_number,order_date,status,order_total,refunded_total,order_currency,billing_email',
      '101,101,2024-06-01 10:00:00,completed,100.00,30.00,USD,a@example.com',
      '102,102,2024-06-02 10:00:00,processing,50.00,0.00,USD,b@example.com',
    ].join('\n');
    const summary = await check(file(csv), { preset: 'woocommerce', fields: {}, defaults: {} });
    expect(summary.totals).toEqual({ USD: 120 });
  });
});

describe('shopify-payments: a chargeback comes off its order', () => {
  it('sums a dispute row with its charge', async () => {
    const csv = [
      'Transaction Date,Type,Order,Card Brand,Payout Status,Amount,Fee,Net,Currency',
      '2024-03-01 10:00:00 -0400,charge,#1001,visa,paid,50.00,-1.75,48.25,USD',
      '2024-03-01 11:00:00 -0400,charge,#1002,visa,paid,20.00,-0.88,19.12,USD',
      '2024-03-20 09:00:00 -0400,dispute,#1002,visa,paid,-20.00,-15.00,-35.00,USD',
    ].join('\n');
    const summary = await check(file(csv), {
      preset: 'shopify-payments',
      fields: { serviceId: { value: 'v-1' } },
      defaults: {},
    });
    expect(summary.totals).toEqual({ USD: 50 });
    expect(summary.skippedReasons).toEqual({ 'refunded in full': 1 });
  });
});

describe('mapping.lookup by an e-mail key', () => {
  it('masks the address in the miss', async () => {
    const input = file('buyer,amount,at,cur\nzoe.secret@example.com,9.99,2024-01-01T00:00:00Z,USD');
    const summary = await check(input, {
      fields: {
        conversionValue: 'amount',
        conversionDatetime: 'at',
        conversionCurrency: 'cur',
        serviceId: { lookup: 'visitor' },
      },
      lookup: { file: file('email,visitor\nann@example.com,v-1'), key: 'buyer', match: 'email' },
    });
    expect(summary.invalid).toBe(1);
    const example = summary.errors[0]!.examples[0]!;
    expect(JSON.stringify(example)).not.toContain('zoe.secret@example.com');
    expect(example.message).toMatch(/is not in column email/);
  });
});

describe('a JS transform that supplies the visitor link', () => {
  it('is not refused as unattributable: the transform has the last say', async () => {
    const csv = [
      'Transaction Date,Type,Order,Card Brand,Payout Status,Amount,Fee,Net,Currency',
      '2024-03-01 10:00:00 -0400,charge,#1001,visa,paid,50.00,-1.75,48.25,USD',
    ].join('\n');
    const summary = await check(
      file(csv),
      { preset: 'shopify-payments', fields: {}, defaults: {} },
      { transform: (row) => ({ ...row, serviceId: `v-${(row.$row as Record<string, string>).Order}` }) },
    );
    expect(summary.valid).toBe(1);
  });
});

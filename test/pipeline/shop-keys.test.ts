// Mapping keys the shop presets need: foldBy with alternatives (WooCommerce plugins name the order
// column differently), and a `remaining` deduction (Etsy's Adjusted Order Total: what is left after a refund).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MappingInput } from '../../src/config/schema.js';
import { mappingSchema } from '../../src/config/schema.js';
import { runPipeline } from '../../src/pipeline/run.js';
import { tempDir } from '../helpers/cli.js';
import { testSettings } from '../helpers/settings.js';

const dir = tempDir('revimport-shop-keys-');
let n = 0;
function file(text: string): string {
  const name = path.join(dir, `f${n++}.csv`);
  writeFileSync(name, text);
  return name;
}

async function check(input: string, mappingInput: MappingInput, refunds: 'net' | 'gross' = 'net') {
  return runPipeline(
    testSettings({ mappingInput, timezone: 'UTC', refunds }),
    { files: [input], check: true, resend: false },
    { userAgent: 't', now: () => 0 },
  );
}

const fields = (id: string) => ({
  conversionId: id,
  conversionValue: { column: 'total', decimal: '.' as const },
  conversionDatetime: 'at',
  conversionCurrency: { value: 'USD' },
  serviceId: { value: 'v' },
});

describe('foldBy with alternatives', () => {
  const rows = [
    '1,10.00,2024-01-01T00:00:00Z',
    '1,10.00,2024-01-01T00:00:00Z',
    '2,5.00,2024-01-01T00:00:00Z',
  ];

  it.each(['order_id', 'Order Number'])(
    'folds by the first alternative the header has (%s)',
    async (column) => {
      const summary = await check(file([`${column},total,at`, ...rows].join('\n')), {
        fields: fields(column),
        foldBy: ['order_id', 'Order Number'],
      });
      expect([summary.rowsRead, summary.folded, summary.valid, summary.invalid]).toEqual([3, 1, 2, 0]);
      expect(summary.totals).toEqual({ USD: 15 });
    },
  );

  it('does not fold when the header has none of them: the repeated id is a duplicate', async () => {
    const summary = await check(file(['id,total,at', ...rows].join('\n')), {
      fields: fields('id'),
      foldBy: ['order_id', 'Order Number'],
    });
    expect([summary.valid, summary.invalid]).toEqual([2, 1]);
  });

  it('refuses an empty list', () => {
    expect(mappingSchema.safeParse({ foldBy: [] }).success).toBe(false);
  });
});

describe('a remaining deduction (what is left after refunds)', () => {
  const orders = [
    'id,total,left,at',
    '1,67.91,0.00,2024-01-01T00:00:00Z', // no refund recorded: the whole total
    '2,67.91,48.57,2024-01-01T00:00:00Z', // partly refunded: 48.57 left
    '3,20.00,,2024-01-01T00:00:00Z', // empty: no refund recorded
    '4,20.00,25.00,2024-01-01T00:00:00Z', // more left than the total (no refund): the total
  ].join('\n');
  const remaining = (refunds: 'net' | 'gross') =>
    check(file(orders), { fields: fields('id'), refunded: { column: 'left', remaining: true } }, refunds);

  it('sends what is left under refunds: net', async () => {
    const summary = await remaining('net');
    expect(summary.valid).toBe(4);
    expect(summary.totals).toEqual({ USD: 67.91 + 48.57 + 20 + 20 });
  });

  it('sends the totals under refunds: gross', async () => {
    const summary = await remaining('gross');
    expect(summary.totals).toEqual({ USD: 67.91 * 2 + 40 });
  });

  it('without remaining, the same column is an amount refunded', async () => {
    const summary = await check(file(orders), { fields: fields('id'), refunded: 'left' });
    // 67.91 - 0; 67.91 - 48.57; 20 - 0; 20 - 25 (nothing left: skipped).
    expect([summary.valid, summary.skipped]).toEqual([3, 1]);
    expect(summary.totals).toEqual({ USD: 67.91 + 19.34 + 20 });
  });
});

// init's guesses (issue 12): every column scored for every field from its name and its cells; totals over
// their parts; a close call, a part alone or a missing field is for review. Header layouts from real
// exports (the fixtures under fixtures/init/ hold whole files; these are the rules one by one).

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { suggestionLines, toYaml } from '../../src/config/write-yaml.js';
import { currencyInHeader, guessDecimal } from '../../src/init/cell-tests.js';
import { guessDatetimeFormat, undecidedDayMonth } from '../../src/init/datetime-formats.js';
import { guessMapping } from '../../src/init/guess-mapping.js';
import { nameWords } from '../../src/init/name-rules.js';
import type { ColumnSample } from '../../src/init/types.js';
import { createDatetimeParser } from '../../src/record/datetime.js';
import type { RecordField } from '../../src/record/fields.js';

const accepts = (format: string, value: string) => {
  const result = createDatetimeParser([format])(value, 'UTC');
  return result.ok || result.reason === 'missing time zone' || result.reason === 'ambiguous time zone';
};

/** Columns from `|`-separated lines: the header, then rows (cells trimmed; `|` because cells hold commas). */
function columns(...lines: string[]): ColumnSample[] {
  const [header, ...rows] = lines.map((l) => l.split('|').map((c) => c.trim()));
  return header!.map((name, i) => ({ name, cells: rows.map((r) => r[i] ?? '') }));
}

function chosen(sample: ColumnSample[]): Partial<Record<RecordField, string | string[]>> {
  const guess = guessMapping(sample, accepts);
  const out: Partial<Record<RecordField, string | string[]>> = {};
  for (const [field, g] of Object.entries(guess.fields)) {
    const c = g.choice?.columns;
    if (c) out[field as RecordField] = c.length === 1 ? c[0]! : c;
  }
  return out;
}

describe('nameWords', () => {
  it.each([
    ['CloseDate', 'close date'],
    ['paid_date', 'paid date'],
    ['Created date (UTC)', 'created date utc'],
    ['Sale Price ($)', 'sale price $'],
    ['ID da transação', 'id da transacao'],
    ['custom_data.value', 'custom data value'],
  ])('%s -> %s', (name, words) => {
    expect(nameWords(name)).toBe(words);
  });
});

describe('guessMapping: the revenue', () => {
  it('takes the order total over shipping, tax, discount and subtotal (WooCommerce, USD 8 was sent)', () => {
    const sample = columns(
      'order_id|order_date|shipping_total|shipping_tax_total|cart_discount|order_subtotal|order_total|order_currency|billing_email',
      '1001|2025-04-05 09:25:13|8.00|0.00|5.00|34.77|37.77|USD|a@example.com',
      '1002|2025-04-06 10:00:00|8.00|0.00|0.00|100.00|108.00|USD|b@example.com',
    );
    const guess = guessMapping(sample, accepts);
    expect(guess.fields.conversionValue.choice?.columns).toEqual(['order_total']);
    expect(guess.fields.conversionValue.review).toBeUndefined();
    // The runner-up shown is a part, marked as one.
    expect(guess.fields.conversionValue.runnerUp?.part).toBeDefined();
    expect(chosen(sample)).toMatchObject({
      conversionId: 'order_id',
      conversionDatetime: 'order_date',
      conversionCurrency: 'order_currency',
      conversionEmail: 'billing_email',
    });
  });

  it.each([
    ['Shipping and Handling Amount', 'shipping'],
    ['Discount Amount', 'discount'],
    ['Subtotal', 'subtotal'],
    ['Amount spent (USD)', 'ad spend'],
    ['Cost per result', 'ad spend'],
    ['Sales Tax', 'tax'],
    ['Fee', 'fee'],
  ])('never chooses %s: alone it is a part to review', (name, part) => {
    const guess = guessMapping(columns(`${name}|Currency`, '8.00|USD', '12.50|USD'), accepts);
    expect(guess.fields.conversionValue.choice).toBeUndefined();
    expect(guess.fields.conversionValue.runnerUp?.part).toBe(part);
    expect(guess.fields.conversionValue.review).toMatch(/is not the revenue/);
  });

  it('reads `Total Cost` as an order total, a `Total` column over `Subtotal`', () => {
    expect(chosen(columns('Subtotal|Total Cost', '10|12', '20|22')).conversionValue).toBe('Total Cost');
    expect(chosen(columns('Subtotal|Shipping|Total', '10|2|12', '20|2|22')).conversionValue).toBe('Total');
  });

  it('flags two totals with different values as a close call (Etsy: Order Value vs Order Total)', () => {
    const guess = guessMapping(columns('Order Value|Order Total', '21.39|25.99', '10.00|14.60'), accepts);
    expect(guess.fields.conversionValue.review).toMatch(/close call between "Order Value".*"Order Total"/);
  });

  it('is no close call when the two columns agree on every row', () => {
    const guess = guessMapping(columns('Total|Amount', '12.00|12.00', '3.50|3.50'), accepts);
    expect(guess.fields.conversionValue.review).toBeUndefined();
  });

  it('never takes a column empty in the sample, nor one whose cells are not numbers', () => {
    const guess = guessMapping(columns('Total|Amount|Value', '|abc|9.90', '|def|1.00'), accepts);
    expect(guess.fields.conversionValue.choice?.columns).toEqual(['Value']);
    expect(guess.fields.conversionValue.ruledOut).toEqual([
      '"Total" is empty in the sample',
      '"Amount" does not hold numbers (e.g. "abc")',
    ]);
  });

  it('reads the currency from the value header: Amount (USD), Sale Price ($) is ambiguous', () => {
    expect(guessMapping(columns('Amount (USD)|Date', '5|2024-01-01'), accepts).headerCurrency).toBe('USD');
    expect(currencyInHeader('Sale Price ($)')).toBe('$');
    expect(currencyInHeader('Umsatz (€)')).toBe('EUR');
    expect(currencyInHeader('Total')).toBeUndefined();
  });

  it('proposes a decimal comma and a micros scale from the cells and the name', () => {
    const guess = guessMapping(
      columns('Umsatz|Value (micros)', '1.149,00|1000000', '14,90|2500000'),
      accepts,
    );
    expect(guess.fields.conversionValue.choice).toMatchObject({ columns: ['Umsatz'], decimal: ',' });
    expect(guess.fields.conversionValue.runnerUp).toMatchObject({ scale: 0.000001 });
  });
});

describe('guessMapping: when it happened', () => {
  it('joins Date, Time and an abbreviation TimeZone column into one datetime (PayPal)', () => {
    const guess = guessMapping(
      columns(
        'Date|Time|TimeZone|Name|Gross|Currency|Transaction ID',
        '07/01/2024|14:02:11|PDT|Ann Lee|10.00|USD|8AB12345CD678901E',
        '07/02/2024|9:05:00|PDT|Bob Ray|20.00|USD|9AB12345CD678901E',
      ),
      accepts,
    );
    expect(guess.fields.conversionDatetime.choice).toMatchObject({
      columns: ['Date', 'Time', 'TimeZone'],
      format: 'MM/dd/yyyy HH:mm:ss',
    });
    // The customer's name is never the conversion id.
    expect(guess.fields.conversionId.choice?.columns).toEqual(['Transaction ID']);
    expect(guess.fields.conversionId.ruledOut).toEqual(['"Name" holds people\'s names (e.g. "Ann Lee")']);
  });

  it("rules out a person's Name as the id when it is the only candidate", () => {
    const guess = guessMapping(columns('Name|Gross', 'Ann Lee|10', 'Bob Ray|20'), accepts);
    expect(guess.fields.conversionId.choice).toBeUndefined();
    expect(guess.fields.conversionId.ruledOut[0]).toMatch(/"Name" holds people's names/);
  });

  it('takes Close Date over Create Date (HubSpot deals), paid over created', () => {
    const deals = columns(
      'Create Date|Close Date|Amount',
      '2024-01-02 10:00|2024-02-01 12:00|500',
      '2024-01-05 10:00|2024-03-01 12:00|900',
    );
    expect(chosen(deals).conversionDatetime).toBe('Close Date');
    const orders = columns(
      'Created at|Paid at|Total',
      '2024-01-02 10:00|2024-01-02 10:05|5',
      '2024-01-03 10:00|2024-01-03 10:01|6',
    );
    expect(chosen(orders).conversionDatetime).toBe('Paid at');
  });

  it.each([
    'Sale Date',
    'CloseDate',
    'Transaction Date',
    'date_utc',
    'Purchase Time (UTC timezone)',
    'order_date',
    'paid_date',
    'Date Paid',
    'Created date (UTC)',
  ])('recognises %s', (name) => {
    expect(
      chosen(columns(`${name}|Total`, '2025-07-01 2:19:42|5', '2025-07-02 12:19:42|6')).conversionDatetime,
    ).toBe(name);
  });

  it('sets UTC for a header that names it, and never maps a timestamp column as the zone', () => {
    const guess = guessMapping(
      columns('Purchase Time (UTC timezone)|Total', '2025-07-01 2:19:42|5'),
      accepts,
    );
    expect(guess.fields.conversionDatetime.choice?.timezone).toBe('UTC');
    expect(guess.fields.conversionTimezone.choice).toBeUndefined();
    expect(guess.fields.conversionTimezone.ruledOut[0]).toMatch(/does not hold time zones/);
  });

  it('marks day and month order for review when no day in the sample is above 12', () => {
    const undecided = columns('Date|Total', '07/01/2024 10:00|5', '07/02/2024 11:00|6');
    expect(guessMapping(undecided, accepts).fields.conversionDatetime.review).toMatch(
      /does not tell "MM\/dd\/yyyy HH:mm" from "dd\/MM\/yyyy HH:mm"/,
    );
    expect(undecidedDayMonth('MM/dd/yyyy HH:mm', ['07/13/2024 10:00'], accepts)).toBeUndefined();
    expect(undecidedDayMonth('dd/MM/yyyy', ['01/02/2024'], accepts)).toBe('MM/dd/yyyy');
    expect(undecidedDayMonth('dd.MM.yyyy', ['01.02.2024'], accepts)).toBeUndefined();
    expect(undecidedDayMonth('yyyy-MM-dd', ['2024-01-02'], accepts)).toBeUndefined();
  });

  it('offers the spreadsheet forms', () => {
    expect(guessDatetimeFormat(['7/1/25 14:02', '12/31/25 9:00'], accepts)).toBe('M/d/yy H:mm');
    expect(guessDatetimeFormat(['31/12/2025 14:02', '01/02/2025 09:00'], accepts)).toBe('dd/MM/yyyy HH:mm');
  });
});

describe('guessMapping: currency, ids, links', () => {
  it("never takes a currency column that names another currency of the row (AWIN's different_currency)", () => {
    const guess = guessMapping(
      columns('different_currency|sale_amount', '|207.00', 'NOK|99.00', '|10.00'),
      accepts,
    );
    expect(guess.fields.conversionCurrency.choice).toBeUndefined();
    expect(guess.fields.conversionCurrency.review).toMatch(/only "different_currency"/);
  });

  it('rules out a currency column whose cells are not ISO codes', () => {
    const guess = guessMapping(columns('Currency|Total', 'dollars|5'), accepts);
    expect(guess.fields.conversionCurrency.choice).toBeUndefined();
    expect(guess.fields.conversionCurrency.ruledOut[0]).toMatch(/does not hold ISO currency codes/);
  });

  it('takes the payment id over an invoice id, and an e-mail column only with addresses in it', () => {
    const sample = columns(
      'id|Invoice ID|Customer Email|Seller Email|Email verified',
      'ch_1|in_1|a@example.com|shop@example.com|true',
      'ch_2|in_2|b@example.com|shop@example.com|false',
    );
    expect(chosen(sample)).toMatchObject({ conversionId: 'id', conversionEmail: 'Customer Email' });
  });

  it('recognises event_name and a visitor column', () => {
    expect(chosen(columns('event_name|Visitor ID|value', 'Purchase|v-1|5'))).toMatchObject({
      conversionName: 'event_name',
      serviceId: 'Visitor ID',
    });
  });
});

describe('guessMapping: what is revenue', () => {
  it('keeps the rows of a status meaning money received, and takes a refund column off', () => {
    const guess = guessMapping(
      columns(
        'Order ID|Amount|Amount Refunded|Status',
        '1|100.00|0.00|Paid',
        '2|50.00|50.00|Refunded',
        '3|70.00|0.00|Failed',
        '4|30.00|5.00|Paid',
      ),
      accepts,
    );
    expect(guess.status).toEqual({
      column: 'Status',
      keep: ['Paid'],
      notRevenue: [
        ['Refunded', 1],
        ['Failed', 1],
      ],
    });
    expect(guess.refunded).toBe('Amount Refunded');
  });

  it('names a status that is never money received (all Pending)', () => {
    const guess = guessMapping(columns('Amount|Status', '1|Pending', '2|Pending'), accepts);
    expect(guess.status).toEqual({ column: 'Status', keep: [], notRevenue: [['Pending', 2]] });
  });

  it('proposes no status rule when every row is received, nor a refund column of zeros', () => {
    const guess = guessMapping(columns('Amount|Amount Refunded|Status', '1|0|Paid', '2|0.00|Paid'), accepts);
    expect(guess.status).toBeUndefined();
    expect(guess.refunded).toBeUndefined();
  });

  it('reads a cents column as minor units', () => {
    expect(
      guessMapping(columns('amount_cents|currency', '3777|USD'), accepts).fields.conversionValue.choice,
    ).toMatchObject({
      unit: 'minor',
    });
  });

  it('never takes a count as money (Total users), nor an amount still owed (Amount Due)', () => {
    const guess = guessMapping(columns('Total users|Amount Due', '3100|20.00'), accepts);
    expect(guess.fields.conversionValue.choice).toBeUndefined();
    expect(guess.fields.conversionValue.runnerUp?.columns).toEqual(['Amount Due']);
  });
});

describe('guessMapping: dates and their times', () => {
  it.each([
    ['Order Date', 'Order Time'],
    ['Transaction Date', 'Transaction Time'],
    ['Data', 'Hora'],
  ])('joins %s with %s', (date, time) => {
    const guess = guessMapping(
      columns(`${date}|${time}|Total`, '2025-03-01|14:22:10|10.50', '2025-03-02|9:05:00|20'),
      accepts,
    );
    expect(guess.fields.conversionDatetime.choice?.columns).toEqual([date, time]);
    expect(guess.fields.conversionDatetime.dateOnly).toBeUndefined();
  });

  it('says when the dates carry no time', () => {
    const guess = guessMapping(columns('CloseDate|Amount', '2024-02-01|5', '2024-03-13|6'), accepts);
    expect(guess.fields.conversionDatetime.dateOnly).toBe(true);
  });

  it('reads dotted dates day first without asking', () => {
    const guess = guessMapping(columns('Datum|Umsatz', '01.03.2025 10:05|12,50'), accepts);
    expect(guess.fields.conversionDatetime.choice?.format).toBe('dd.MM.yyyy HH:mm');
    expect(guess.fields.conversionDatetime.review).toBeUndefined();
  });
});

describe('guessDecimal', () => {
  it.each([
    [['1.149,00', '14,9'], ','],
    [['1,249.00', '3.5'], '.'],
    [['12', '1,234'], undefined],
    [['1,5', '2.5'], undefined],
  ])('%j -> %s', (values, decimal) => {
    expect(guessDecimal(values)).toBe(decimal);
  });
});

describe('toYaml', () => {
  const entries = [
    { key: 'baseUrl', comment: 'the CRM', suggestion: 'https://crm.example.com' },
    {
      key: 'mapping',
      children: [
        { key: 'preset', value: 'shopify', comment: 'Shopify' },
        {
          key: 'fields',
          children: [
            { key: 'serviceId', suggestion: 'Visitor: ID #1' },
            { key: 'conversionDatetime', suggestion: { columns: ['Date', 'Time'], format: 'MM/dd/yyyy' } },
          ],
        },
      ],
    },
    { key: 'format', value: ['a: b', 'c'] },
    { key: 'n', value: 3 },
  ];

  it('writes comments, values, and suggestions commented out', () => {
    expect(toYaml(entries)).toBe(
      [
        '# the CRM',
        '# baseUrl: "https://crm.example.com"',
        'mapping:',
        '  # Shopify',
        '  preset: "shopify"',
        '  fields:',
        '    # serviceId: "Visitor: ID #1"',
        '    # conversionDatetime: { columns: [ "Date", "Time" ], format: "MM/dd/yyyy" }',
        'format: [ "a: b", "c" ]',
        'n: 3',
        '',
      ].join('\n'),
    );
  });

  it('stays valid YAML with any one suggestion uncommented', () => {
    const text = toYaml(entries);
    const at = suggestionLines(text);
    expect(at).toHaveLength(3);
    for (const index of at) {
      const lines = text.split('\n');
      lines[index] = lines[index]!.replace('# ', '');
      expect(() => parse(lines.join('\n'))).not.toThrow();
    }
  });
});

describe('guessMapping: rows of several kinds', () => {
  it("names a Type column's kinds (PayPal: payments beside memos and refunds)", () => {
    const guess = guessMapping(
      columns(
        'Type|Gross',
        'Website Payment|10',
        'Invoice Sent|0',
        'Payment Refund|-10',
        'Website Payment|5',
      ),
      accepts,
    );
    expect(guess.kinds).toEqual({
      column: 'Type',
      values: ['Website Payment', 'Invoice Sent', 'Payment Refund'],
    });
    // Kinds that are all sales need no review.
    const sales = columns('Type|Gross', 'Website Payment|10', 'Express Checkout Payment|5');
    expect(guessMapping(sales, accepts).kinds).toBeUndefined();
  });
});

// Issue 21 item 4: the cells make a candidate whatever the name; minor units only on the cells' word; an
// id unique over the sales of the sample.
describe('guessMapping: what the cells say', () => {
  it('finds a datetime, a currency and an e-mail column by their cells (Placed (local), Cur, Buyer Mail)', () => {
    const sample = columns(
      'Order|Placed (local)|Total|Cur|Buyer Mail',
      'A-1|23/03/2025 14:05|42.50|EUR|lena@example.com',
      'A-2|24/03/2025 09:12|18.00|EUR|ole@example.net',
    );
    const guess = guessMapping(sample, accepts);
    expect(chosen(sample)).toMatchObject({
      conversionDatetime: 'Placed (local)',
      conversionCurrency: 'Cur',
      conversionEmail: 'Buyer Mail',
    });
    expect(guess.fields.conversionDatetime.choice?.format).toBe('dd/MM/yyyy HH:mm');
    expect(guess.fields.conversionCurrency.choice?.evidence).toBe('its cells are ISO currency codes');
  });

  it('ranks a named column above one found by its cells alone', () => {
    const sample = columns('Shipped|Order Date', '2025-01-02|2025-01-01', '2025-01-04|2025-01-03');
    expect(chosen(sample).conversionDatetime).toBe('Order Date');
  });

  it('takes an amount column by its cells, never a conversion count written with decimals', () => {
    expect(chosen(columns('Sold For|Date', '$24.00|2025-01-01', '$12.50|2025-01-02')).conversionValue).toBe(
      'Sold For',
    );
    expect(
      chosen(columns('Conv. (Platform Comparable)|Cur', '1.50|EUR', '0.00|EUR')).conversionValue,
    ).toBeUndefined();
  });

  it('never reads order numbers as years, nor upper-case words as currencies', () => {
    const sample = columns('Ref|Flag', '1001|YES', '1002|NO');
    const guess = guessMapping(sample, accepts);
    expect(guess.fields.conversionDatetime.choice).toBeUndefined();
    expect(guess.fields.conversionCurrency.choice).toBeUndefined();
  });
});

describe('guessMapping: minor units', () => {
  it.each([
    ['a formatted sibling', 'total|total_formatted|currency', ['8820|$88.20|USD', '1999|$19.99|USD']],
    [
      'parts that add up only at /100',
      'subtotal|tax|total|currency',
      ['80.00|8.20|8820|USD', '19.99|0|1999|USD'],
    ],
  ])('reads whole numbers as cents when %s says so', (_why, header, rows) => {
    const value = guessMapping(columns(header, ...rows), accepts).fields.conversionValue;
    expect(value.choice?.columns).toEqual(['total']);
    expect(value.choice?.unit).toBe('minor');
    expect(value.review).toBeUndefined();
  });

  it('asks when whole numbers read either way (parts in cents too), never for JPY or written decimals', () => {
    const cents = guessMapping(
      columns('subtotal|tax|total|currency', '8000|820|8820|USD', '1999|0|1999|USD'),
      accepts,
    );
    expect(cents.fields.conversionValue.unitUndecided).toBe(true);
    expect(cents.fields.conversionValue.choice?.unit).toBeUndefined();
    const yen = guessMapping(columns('total|currency', '8820|JPY', '1999|JPY'), accepts);
    expect(yen.fields.conversionValue.unitUndecided).toBeUndefined();
    const units = guessMapping(columns('Total|Currency', '784.00|ZAR', '1999.00|ZAR'), accepts);
    expect(units.fields.conversionValue.unitUndecided).toBeUndefined();
    const small = guessMapping(columns('Total|Currency', '25|USD', '40|USD'), accepts);
    expect(small.fields.conversionValue.unitUndecided).toBeUndefined();
  });

  it('does not take a quantity of 1 beside a total of 100 for a formatted sibling', () => {
    const value = guessMapping(columns('Total|Quantity|Currency', '100|1|USD'), accepts).fields
      .conversionValue;
    expect(value.choice?.unit).toBeUndefined();
  });
});

describe('guessMapping: an id unique over the sales', () => {
  const ebay = (orderNumbers: string[]) =>
    columns(
      'Sales Record Number|Order Number|Total Price|Sale Date|PayPal Transaction ID',
      ...['7AB', '7AB', '9XY', '9XY'].map(
        (txn, i) => `100${i}|${orderNumbers[i]}|${10 + i}.00|2025-03-0${i + 1}|${txn}`,
      ),
    );

  it('gives way to a unique column when the chosen one repeats (eBay: PayPal Transaction ID, 4 sales, 2 values)', () => {
    const id = guessMapping(ebay(['', '', '', '']), accepts).fields.conversionId;
    expect(id.choice?.columns).toEqual(['Sales Record Number']);
    expect(id.runnerUp?.columns).toEqual(['PayPal Transaction ID']);
    expect(id.runnerUp?.repeats).toBe('4 rows, 2 values');
    expect(id.review).toBeUndefined();
  });

  it('keeps a repeating id only with a review line when no column is unique', () => {
    const sample = columns('Total|Date|Transaction ID', '10.00|2025-03-01|7AB', '12.00|2025-03-02|7AB');
    const id = guessMapping(sample, accepts).fields.conversionId;
    expect(id.choice?.columns).toEqual(['Transaction ID']);
    expect(id.review).toMatch(/"Transaction ID" repeats in the sample \(2 rows, 1 value\).*duplicates/);
  });

  it('counts only the rows that are sales: line items without a total, pending rows', () => {
    const lines = columns(
      'Name|Total|Paid at|Status',
      '#1|10.00|2025-03-01|paid',
      '#1||||',
      '#2|12.00|2025-03-02|pending',
      '#2|12.00|2025-03-03|paid',
    );
    const id = guessMapping(lines, accepts).fields.conversionId;
    expect(id.choice?.columns).toEqual(['Name']);
    expect(id.review).toBeUndefined();
  });
});

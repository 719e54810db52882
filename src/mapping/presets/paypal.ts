// Presets for the PayPal activity download (Activity > Statements > Activity download), English and
// Brazilian Portuguese: one row per balance movement, the kind of movement in `Type` (`Tipo`).
import type { SumByEntry } from '../../config/schema.js';
import type { Preset } from './types.js';

/**
 * Received payments (lower case; compared trimmed and case-insensitively). Seen in real downloads: Website,
 * Express Checkout, PayPal Here, Mobile, eBay Auction, Donation and PreApproved Payment Bill User Payment;
 * the others are PayPal's names for money received from a buyer (docs/formats.md, PayPal).
 */
const englishSales = [
  'Website Payment',
  'Express Checkout Payment',
  'PayPal Here Payment',
  'Mobile Payment',
  'eBay Auction Payment',
  'Donation Payment',
  'Subscription Payment',
  'Recurring Payment',
  'PreApproved Payment Bill User Payment',
  'Shopping Cart Payment',
  'Virtual Terminal Payment',
  'Payment Received',
];
/** Money given back on a payment: netted against it through Reference Txn ID. */
const englishRefunds = ['Payment Refund', 'Payment Reversal'];

/**
 * Which rows sum into one conversion: a refund's Reference Txn ID is its payment's Transaction ID. Only a
 * refund is keyed by its reference: a payment's own Reference Txn ID names an invoice (`INV2-…`), a
 * subscription profile (`I-…`) or an authorization, and keying it so would part it from its refunds and
 * join the payments of one profile. The short layout has neither: sale and refund share a Receipt ID.
 */
const englishSumBy: SumByEntry[] = [
  { column: 'Reference Txn ID', when: { column: 'Type', in: englishRefunds } },
  { column: 'Reference Txn ID', when: { column: 'Description', in: englishRefunds } },
  'Transaction ID',
  'Receipt ID',
];

export const paypal: Preset = {
  name: 'paypal',
  title: 'PayPal activity download CSV, English (Activity > Statements > Activity download)',
  description:
    'The PayPal activity download in English: `Date` (MM/dd/yyyy), `Time`, `TimeZone` (PST, PDT, EST...), `Type`, ' +
    '`Status`, `Currency`, `Gross`/`Fee`/`Net` (or only `Amount` in the short "balance affecting" layout), ' +
    '`From Email Address`, `Transaction ID`, `Reference Txn ID`; also the 18-column statement layout ' +
    '(`Time Zone` as an IANA name, `Description` for the type, no Status).',
  policy:
    'completed received payments by Type (Website, Express Checkout, PayPal Here, Mobile, eBay, Subscription...): ' +
    'Gross (or Amount) less the refunds that name them in Reference Txn ID',
  seen: 'real',
  format: 'csv',
  // PayPal writes the account's North American or European abbreviations: its PST is Pacific (UTC-8).
  abbreviations: { reading: 'north-america-europe', writer: 'PayPal' },
  // US downloads write MM/dd/yyyy, UK and Australian ones dd/MM/yyyy, under the same English headers.
  dateOrder: 'per-file',
  detect: {
    all: ['Date', 'Time', 'TimeZone', 'Currency'],
    any: [
      'Type',
      'Description',
      'Gross',
      'Amount',
      'Transaction ID',
      'From Email Address',
      'Reference Txn ID',
      'Receipt ID',
      'Balance',
    ],
  },
  mapping: {
    preset: 'paypal',
    fields: {
      conversionName: { value: 'Purchase' },
      // `07/01/2024 14:02:11 PDT`: the abbreviation is an offset. Re-saved files drop the zero padding.
      conversionDatetime: {
        columns: ['Date', 'Time', 'TimeZone'],
        format: ['MM/dd/yyyy HH:mm:ss', 'M/d/yyyy H:mm:ss'],
      },
      // Gross, not Net: the fee is the seller's cost, not a smaller sale.
      conversionValue: { column: ['Gross', 'Amount'], decimal: '.' },
      conversionCurrency: { column: 'Currency', transform: 'uppercase' },
      conversionId: 'Transaction ID',
      conversionEmail: 'From Email Address',
    },
    // The Type decides, not the sign: an `Invoice Sent` memo is positive and `Paid` but its money comes as
    // a Website / PayPal Here payment of its own; holds, releases, card purchases, withdrawals, deposits,
    // authorizations, currency conversions and fees are not sales. The statement layout has the type in
    // `Description` and no Status (it lists completed movements only): a rule on a missing column does not apply.
    keep: [
      { column: 'Status', in: ['Completed'] },
      { column: 'Type', in: [...englishSales, ...englishRefunds] },
      { column: 'Description', in: [...englishSales, ...englishRefunds] },
    ],
    sumBy: englishSumBy,
  },
  notes: [
    'Records are linked by `From Email Address` (the payer). If your checkout passes the CRM visitor id in ' +
      'PayPal\'s `custom` field, add `mapping.fields.serviceId: "Custom Number"`.',
    'Only completed received payments count, by Type: Website, Express Checkout, PayPal Here, Mobile, eBay ' +
      'Auction, Donation, Subscription / Recurring, PreApproved, Shopping Cart, Virtual Terminal. Invoice Sent ' +
      '(a memo), holds and releases, authorizations, debit-card purchases, withdrawals, deposits, currency ' +
      'conversions and fees are skipped; so are pending or denied rows.',
    'A Payment Refund (or Reversal) is summed with the payment its Reference Txn ID names; one whose payment is ' +
      'not in the file is skipped ("refund without its original in the file"), as is a payment refunded in full. ' +
      'A payment you sent (a negative Express Checkout or Website Payment) is skipped the same way.',
    'The short "balance affecting" layout (`Amount`, no Transaction ID or e-mail) cannot be attributed: a run ' +
      'stops at once unless you map `mapping.fields.serviceId` or a lookup; rows then sum by Receipt ID.',
    'US downloads write dates month first (MM/dd/yyyy), UK and Australian ones day first (dd/MM/yyyy): each ' +
      'file is read the way its rows allow (25/03 only day first); when no row tells, the run stops and asks for ' +
      '`mapping.fields.conversionDatetime: { columns: [Date, Time, TimeZone], format: "dd/MM/yyyy HH:mm:ss" }` ' +
      '(or "MM/dd/yyyy HH:mm:ss"). PST, CST, EST, BST, IST are read as PayPal writes them, in North America or ' +
      "Europe (PST = UTC-8; the run says so once); set `timezone` to the account's zone so rows carry its name.",
  ],
};

/** Brazilian Portuguese types: the received ones (`Pagamento recorrente recebido` seen in a real download). */
const portugueseSales = [
  'Pagamento recorrente recebido',
  'Pagamento recebido',
  'Pagamento de assinatura recebido',
  'Pagamento do Express Checkout',
  'Pagamento no site',
];
const portugueseRefunds = ['Reembolso de pagamento', 'Reembolso'];

export const paypalPtBr: Preset = {
  name: 'paypal-pt-br',
  title: 'PayPal activity download CSV, Brazilian Portuguese (Atividade > Extratos > Download)',
  description:
    'The PayPal activity download in Brazilian Portuguese: `Data` (dd/MM/yyyy), `Hora`, `Fuso horário` (BRT, BRST), ' +
    '`Tipo`, `Status` (Concluído), `Moeda`, `Valor bruto`/`Tarifa`/`Líquido` with a decimal comma, `Do e-mail`, ' +
    '`ID da transação`, `ID txn. de referência`.',
  policy:
    'completed received payments by Tipo (Pagamento recorrente recebido, Pagamento recebido...): Valor bruto ' +
    'less the refunds that name them in ID txn. de referência',
  seen: 'real',
  format: 'csv',
  detect: {
    all: ['Data', 'Hora', 'Fuso horário', 'Tipo', 'Moeda', 'Valor bruto'],
    any: ['Status', 'Líquido', 'Tarifa', 'Do e-mail', 'ID da transação', 'Saldo'],
  },
  mapping: {
    preset: 'paypal-pt-br',
    fields: {
      conversionName: { value: 'Purchase' },
      // `26/07/2018 10:25:10 BRT`; the one real file, re-saved, writes `26-07-2018`.
      conversionDatetime: {
        columns: ['Data', 'Hora', 'Fuso horário'],
        format: ['dd/MM/yyyy HH:mm:ss', 'dd-MM-yyyy HH:mm:ss', 'd/M/yyyy H:mm:ss'],
      },
      conversionValue: { column: 'Valor bruto', decimal: ',' },
      conversionCurrency: { column: 'Moeda', transform: 'uppercase' },
      conversionId: 'ID da transação',
      conversionEmail: 'Do e-mail',
    },
    keep: [
      // `Concluído`, and the `Conclu\uFFFDdo` a wrong re-encoding leaves (seen in the one real file).
      { column: 'Status', in: ['Concluído', 'Conclu\uFFFDdo'] },
      { column: 'Tipo', in: [...portugueseSales, ...portugueseRefunds] },
    ],
    sumBy: [
      { column: 'ID txn. de referência', when: { column: 'Tipo', in: portugueseRefunds } },
      'ID da transação',
    ],
  },
  notes: [
    "Records are linked by `Do e-mail` (the payer). If your checkout passes the CRM visitor id in PayPal's " +
      '`custom` field, add `mapping.fields.serviceId: "Número personalizado"`.',
    'Only completed (Concluído) received payments count, by Tipo: Pagamento recorrente recebido (seen), Pagamento ' +
      'recebido, Pagamento de assinatura recebido, Pagamento do Express Checkout, Pagamento no site (names not ' +
      'confirmed: a skipped row names its Tipo, tell us if a received payment is missing). Transfers to the bank ' +
      'and everything else are skipped.',
    'A Reembolso is summed with the payment its `ID txn. de referência` names; one whose payment is not in the ' +
      'file is skipped.',
    'An `ID da transação` a spreadsheet turned into `1,23456765432346E+021` has lost its digits: such rows are ' +
      'rejected ("id not exact"). Download the file again and import it without opening it in a spreadsheet.',
    'Set `timezone` (America/Sao_Paulo) so BRT rows carry its name.',
  ],
};

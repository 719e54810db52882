// Preset for a Salesforce opportunity report exported as CSV (Reports > Export > Details Only): UI labels.
import type { Preset } from './types.js';

export const salesforceReport: Preset = {
  name: 'salesforce-report',
  title: 'Salesforce opportunity report CSV (Reports > Export, Details Only; UI labels)',
  description:
    'An opportunity report exported as CSV: UI labels (Opportunity ID, Stage, Amount Currency, Amount, ' +
    "Probability (%), Close Date) in the user's locale: delimiter, decimal mark and date order follow it " +
    '(Dutch: `;`, `13884,00`, `31-1-2019`). 15-character ids. No e-mail column unless added to the report.',
  policy:
    'opportunities at Probability (%) 100 (closed won) with an Amount: Amount in Amount Currency, dated Close Date',
  seen: 'real',
  format: 'csv',
  // A report is written in the running user's locale: en_US M/d/yyyy, en_GB d/M/yyyy.
  dateOrder: 'per-file',
  detect: {
    all: ['Opportunity Name', 'Stage', 'Amount', 'Close Date', 'Probability (%)'],
    any: ['Opportunity ID', 'Amount Currency', 'Fiscal Period', 'Opportunity Owner'],
  },
  mapping: {
    preset: 'salesforce-report',
    fields: {
      conversionName: { value: 'Opportunity won' },
      // Dates follow the user's locale; only forms whose separator tells the order are listed (nl/de/ISO/US).
      conversionDatetime: {
        column: 'Close Date',
        format: ['d-M-yyyy', 'd.M.yyyy', 'yyyy-MM-dd', 'M/d/yyyy'],
      },
      // The decimal mark follows the locale too: inferred per value (an ambiguous `1,234` is rejected).
      conversionValue: 'Amount',
      conversionCurrency: { column: 'Amount Currency', transform: 'uppercase' },
      conversionId: 'Opportunity ID',
    },
    // A report has no IsWon: a won stage has probability 100 (lost stages 0). A won deal with no Amount is
    // skipped, counted.
    keep: [
      { column: 'Probability (%)', in: ['100', '100,0', '100.0', '100%'] },
      { column: 'Amount', matches: '[1-9]' },
    ],
  },
  notes: [
    "No e-mail and no visitor id in the report: the run stops until you supply one. Add the contact's e-mail " +
      'to the report and map `mapping.fields.conversionEmail`, or take it from another export by Opportunity ID ' +
      '(`mapping.lookup: { file: "contact-roles.csv", key: "Opportunity ID", match: "Opportunity ID" }`, ' +
      '`conversionEmail: { lookup: "Email" }`), or map `mapping.fields.serviceId` to a field holding the visitor id.',
    'Won = Probability (%) 100 (a report has no IsWon; stage names are per org). A won deal with an empty or 0 ' +
      'Amount is skipped. Include Opportunity ID in the report: it is the record id.',
    "Dates and numbers follow the exporting user's locale: d-M-yyyy, d.M.yyyy, yyyy-MM-dd and M/d/yyyy are read; " +
      "for d/M/yyyy (en_GB) override `conversionDatetime.format`. Set `timezone` to the org's zone. Without an " +
      'Amount Currency column (single-currency org) set `currency`.',
    'A Classic export footer ("Grand Totals", "Confidential Information", "Copyright") is not data (its rows are ' +
      'skipped or rejected): export Details Only or cut it.',
  ],
};

// Preset for the Salesforce Opportunity object export (Data Export service, Data Loader): API field names.
import type { Preset } from './types.js';

export const salesforce: Preset = {
  name: 'salesforce',
  title: 'Salesforce Opportunity object export CSV (Data Export / Data Loader, API field names)',
  description:
    'Opportunity.csv of the weekly Data Export (Setup > Data Export) or a Data Loader export: API names (Id, ' +
    'StageName, Amount, CloseDate, IsWon, CurrencyIsoCode), IsWon 1/0 or true/false, CloseDate ' +
    '`yyyy-MM-dd 00:00:00`, Amount with a dot decimal. It holds no e-mail: link it to Contact.csv with mapping.lookup.',
  policy:
    'won opportunities (IsWon 1/true, not deleted) with an Amount: Amount in CurrencyIsoCode, dated CloseDate',
  seen: 'real',
  format: 'csv',
  // A Data Export writes ISO; a report re-saved in a locale writes M/d/yy or d/M/yy: decided per file.
  dateOrder: 'per-file',
  detect: {
    all: ['Id', 'StageName', 'Amount', 'CloseDate', 'IsWon'],
    any: ['IsClosed', 'AccountId', 'CurrencyIsoCode', 'ForecastCategory'],
  },
  mapping: {
    preset: 'salesforce',
    fields: {
      conversionName: { value: 'Opportunity won' },
      // A date field: the Data Export writes it with a midnight time; Data Loader writes the date alone;
      // a spreadsheet re-save (US locale) writes MM/dd/yy. Read as the org's local day (config timezone).
      conversionDatetime: {
        column: 'CloseDate',
        format: ['yyyy-MM-dd HH:mm:ss', 'yyyy-MM-dd', 'iso', 'M/d/yy', 'M/d/yyyy'],
      },
      conversionValue: { column: 'Amount', decimal: '.' },
      // Multi-currency orgs only; a single-currency org has no column: set `currency` in the config.
      conversionCurrency: { column: 'CurrencyIsoCode', transform: 'uppercase' },
      conversionId: 'Id',
    },
    // Only won deals: IsWon is set by the stage's definition (stage names are free text per org). A won deal
    // without an Amount (empty or 0, seen in every real export) has no money to send: skipped, counted.
    keep: [
      { column: 'IsDeleted', in: ['0', 'false'] },
      { column: 'IsWon', in: ['1', 'true'] },
      { column: 'Amount', matches: '[1-9]' },
    ],
  },
  notes: [
    'No e-mail and no visitor id in an Opportunity: the run stops until you supply one. Take the e-mail from ' +
      'the Contact.csv of the same export: `mapping.lookup: { file: "Contact.csv", key: ["ContactId", ' +
      '"AccountId"], match: ["Id", "AccountId"] }` and `mapping.fields.conversionEmail: { lookup: "Email" }` ' +
      '(the null id 000000000000000AAA is never found, so the AccountId is tried next; an account with several ' +
      'contacts gives its first). Or map `mapping.fields.serviceId` to a custom field holding the CRM visitor id.',
    'Only won opportunities count (IsWon 1/true; IsDeleted rows skipped). A won opportunity with an empty or 0 ' +
      'Amount is skipped (Amount: (empty) / Amount: not matching [1-9]).',
    "CloseDate is a date: set `timezone` to the org's zone (otherwise UTC midnight). A single-currency org has " +
      'no CurrencyIsoCode: set `currency`.',
    'Report exports (UI labels: Opportunity ID, Stage, Close Date) are the `salesforce-report` preset.',
  ],
};

// Preset for the HubSpot deals export (CRM > Deals > Export), English labels.
import type { Preset } from './types.js';

/** Won stages by label: HubSpot's internal id, the default "Closed Won", custom "Closed: won" (not "won't"). */
const wonStage = "^closedwon$|\\bwon(?![\\w'’])";

export const hubspot: Preset = {
  name: 'hubspot',
  title: 'HubSpot deals export CSV (CRM > Deals > Export, English labels)',
  description:
    'A deals view export (Record ID, Deal Name, Deal Stage, Close Date `yyyy-MM-dd HH:mm`, Amount); with "all ' +
    'properties" it adds Is Deal Closed?, Deal probability and Associated Contact (`Name (e-mail)` entries ' +
    'joined by `;`), the only e-mail in a deals export.',
  policy:
    'won deals (Deal Stage closedwon or a "won" label; Is Deal Closed? true and Deal probability 1.0 when ' +
    'exported) with an Amount: Amount, dated Close Date',
  seen: 'real',
  format: 'csv',
  detect: {
    all: ['Record ID', 'Deal Name', 'Deal Stage', 'Amount'],
    any: ['Close Date', 'Is Deal Closed?', 'Deal probability', 'Pipeline', 'Deal owner'],
  },
  mapping: {
    preset: 'hubspot',
    fields: {
      conversionName: { value: 'Deal won' },
      // Written in the exporting user's zone (no offset): set `timezone`.
      conversionDatetime: {
        column: 'Close Date',
        format: ['yyyy-MM-dd HH:mm', 'yyyy-MM-dd HH:mm:ss', 'yyyy-MM-dd', 'iso'],
      },
      // Amount is in the deal's currency; "Amount in company currency" is another figure, never mixed in.
      conversionValue: { column: 'Amount', decimal: '.' },
      conversionId: 'Record ID',
      // The first contact's address out of `Ann Lee (ann@example.com);Bob (bob@example.com)`.
      conversionEmail: { column: 'Associated Contact', transform: 'email' },
    },
    // Stage labels are per portal and language: the stage's own settings (closed, probability 1.0) decide
    // when the export has them; a label without "won" is not taken for won. A won deal with no Amount
    // (empty or 0, most won deals in the real exports) has no money to send: skipped, counted.
    keep: [
      { column: 'Is Deal Closed?', in: ['true'] },
      { column: 'Deal probability', in: ['1', '1.0', '1.00'] },
      { column: 'Deal Stage', matches: wonStage },
      { column: 'Amount', matches: '[1-9]' },
    ],
  },
  notes: [
    'Records are linked by the first e-mail in Associated Contact, exported only with "all properties" (or when ' +
      'chosen as a column). A view export without it stops at once: export all properties, take the e-mail from a ' +
      'contacts export with mapping.lookup, or map `mapping.fields.serviceId` to a deal property holding the CRM ' +
      'visitor id.',
    'Won = Deal Stage closedwon (internal values) or a label with the word "won" ("Closed Won", "Closed: won"), ' +
      'and, when exported, Is Deal Closed? true and Deal probability 1.0. A won stage with another label (other ' +
      'languages, custom names) is skipped as "Deal Stage: not matching ...": replace `mapping.keep` with ' +
      '`{ column: "Deal Stage", in: ["<your label>"] }` (plus the Amount rule).',
    'A won deal with an empty or 0 Amount is skipped (Amount: (empty) / Amount: not matching [1-9]).',
    'The export has no currency column unless multi-currency is on: set `currency`, or map ' +
      '`mapping.fields.conversionCurrency` to the deal currency column. Close ' +
      "Date has no zone: set `timezone` to the exporting user's zone.",
  ],
};

// For `revimport init` on an export no preset knows: score every column for every field, from its name
// and from the cells of a sample, and propose the best one per field with the runner-up and the evidence.
// A guess is only a proposal: a close call, a part of an order total offered as the revenue, or a required
// field left unmapped is for the user to review (init then exits 1).

import { quote } from '../quote.js';
import { currencyFromSymbolOrCode, minorUnits, normalizeCurrency } from '../record/currency.js';
import { type RecordField, recordFields } from '../record/fields.js';
import { parseAmount } from '../record/money.js';
import { canonicalZone } from '../record/zone.js';
import { lookupAbbreviation } from '../record/zone-abbreviations.js';
import { CELLS_ONLY_SCORE, cellKinds, readUnit, repeatsOf } from './guess-cells.js';
import { joinedCells } from './joined-columns.js';

/** One column of the sample: its name as written and its trimmed cells, one per sample row ('' when empty). */
export interface ColumnSample {
  name: string;
  cells: readonly string[];
}

/** A column proposed for a field. */
export interface Candidate {
  /** The column, or the columns joined into one datetime (`Date`, `Time`, `TimeZone`). */
  columns: string[];
  score: number;
  /** Why it ranks where it does, for the user: `an order total`, `a part of the total: shipping`. */
  evidence: string;
  /** Set when the column is a part of an order total (shipping, tax, discount, subtotal, fee, ad spend...). */
  part?: string;
  /** First non-empty sample value. */
  sample?: string;
  /** conversionDatetime: the token format that reads every sample value (`iso` and `epoch` need none). */
  format?: string;
  /** conversionValue: the decimal separator the sample shows. */
  decimal?: ',' | '.';
  /** conversionDatetime: the zone the header names (`Created (UTC)`). */
  timezone?: string;
  /** conversionValue: integer minor units (`cents` in the name, or a sibling or the parts say so). */
  unit?: 'minor';
  /** conversionId: the column repeats over the sample's rows (`4 rows, 2 values`): not a choice while another is unique. */
  repeats?: string;
  /** conversionValue: `micros` in the name: a multiplier. */
  scale?: number;
  /** conversionValue: what in the cells says minor units (a sibling column, the parts), when they say it. */
  unitEvidence?: string;
}

export interface FieldGuess {
  choice?: Candidate;
  runnerUp?: Candidate;
  /** Set when the user must look at this field before pushing: a close call, a part offered alone... */
  review?: string;
  /** conversionDatetime: the cells carry a date and no time (each conversion at local midnight). */
  dateOnly?: boolean;
  /** Columns ruled out by their cells, with the reason (shown when nothing was chosen). */
  ruledOut: string[];
  /** conversionValue: whole numbers the sample cannot tell units from minor units (init shows both totals). */
  unitUndecided?: boolean;
}

export interface MappingGuess {
  fields: Record<RecordField, FieldGuess>;
  /** The value's currency read from its header (`Amount (USD)`), when no currency column was found. */
  headerCurrency?: string;
  /** A status column holding both money received and not (`Paid`, `Failed`): only the first are revenue. */
  status?: StatusGuess;
  /** A column of amounts refunded beside the value (`Amount Refunded`): taken off it (mapping.refunded). */
  refunded?: string;
  /** A column naming the kind of each row (`Type`: Website Payment, Invoice Sent, Payment Refund...). */
  kinds?: { column: string; values: string[] };
}

export interface StatusGuess {
  column: string;
  /** The sample's values that mean money received (kept). */
  keep: string[];
  /** The sample's values that do not (pending, failed, refunded in full, lost...), with their row counts. */
  notRevenue: Array<[string, number]>;
}

const receivedStatus =
  /^(paid|succeeded|success|successful|complete|completed|closed ?won|won|captured|settled|approved|partially[ _]refunded|conclu[ií]do|pago|bezahlt|abgeschlossen)$/i;
const notReceivedStatus =
  /pending|fail|refund|void|cancel|declin|lost|unpaid|incomplete|abandon|expire|authori[sz]ed|requires|^open$|draft|disput|chargeback|revers|denied|pendente|reembols|storn/i;

/** Kinds of rows that are sales (`Website Payment`, `Express Checkout Payment`), and kinds that are not. */
const saleKind = /payment|sale|order|purchase|checkout|pagamento|compra|venda|venta|zahlung|donation/i;
const notSaleKind =
  /refund|revers|hold|fee|withdraw|transfer|invoice sent|conversion|authori[sz]ation|memo|reembolso|estorno|chargeback|sent/i;

/**
 * A column named like a status whose sample holds money not received (`Failed`, `Refunded`, `Pending`,
 * `Closed Lost`), with the values that mean money received (`Paid`, `Succeeded`, `Closed Won`; maybe
 * none): sending every row would count money never received. Values it recognises as neither are left
 * out of both lists (and so not kept).
 */
export function guessStatus(columns: readonly ColumnSample[]): StatusGuess | undefined {
  for (const column of columns) {
    if (!/\b(status|state|stage|stage name|result|situacao)\b/.test(nameWords(column.name))) continue;
    const counts = new Map<string, number>();
    for (const cell of filled(column.cells)) counts.set(cell, (counts.get(cell) ?? 0) + 1);
    if (counts.size > 30) continue;
    const keep = [...counts.keys()].filter((v) => receivedStatus.test(v));
    const notRevenue = [...counts].filter(([v]) => !receivedStatus.test(v) && notReceivedStatus.test(v));
    if (notRevenue.length > 0) return { column: column.name, keep, notRevenue };
  }
  return undefined;
}

/** Lower-case words: camelCase split, accents, punctuation and underscores to spaces (`CloseDate` -> `close date`). */
export function nameWords(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9$€£¥%]+/g, ' ')
    .trim();
}

type Rule = readonly [RegExp, number, string];

/** The first rule matching wins; rules are ordered from the most to the least specific. */
function ruleScore(words: string, rules: readonly Rule[]): { score: number; evidence: string } | undefined {
  for (const [pattern, score, evidence] of rules) if (pattern.test(words)) return { score, evidence };
  return undefined;
}

const currencyWord = /\s+(usd|eur|gbp|chf|jpy|cad|aud|inr|brl|nok|sek|dkk|pln|mxn|\$|€|£|¥)$/;

/** Money columns that are a part of an order's total, or not revenue at all: never chosen over a total. */
const valueParts: readonly Rule[] = [
  [/\bsub ?totals?\b/, 0, 'subtotal'],
  [/\b(shipping|shipment|postage|handling|freight|delivery)\b/, 0, 'shipping'],
  [/\b(tax|taxes|vat|gst|hst|pst|duty|duties)\b/, 0, 'tax'],
  [/\b(discounts?|coupons?|promo|rebate|voucher)\b/, 0, 'discount'],
  [/\b(fees?|commission|processing)\b/, 0, 'fee'],
  [/\b(refunds?|refunded|chargebacks?)\b/, 0, 'refund'],
  [/\b(spend|spent|budget|cpc|cpm|cpa|cpv|bid)\b|\bcost per\b/, 0, 'ad spend'],
  [/\b(tips?|gratuity)\b/, 0, 'tip'],
  [/\b(balance|outstanding|due|owed|owing)\b/, 0, 'an amount still owed'],
  [/\b(unit|item|items|line ?item|product|compare at)\b/, 0, 'a line item'],
  [/\b(cost|costs)\b/, 0, 'a cost'],
];
/** Not money at all (counts, rates, codes): never a value candidate. */
const notMoney =
  /\b(quantity|qty|count|clicks|impressions|rate|ratio|percent|%|weight|ctr|roas|zip|phone|postal|id|number|users|sessions|views|visitors|events|country|state|code)\b|^(conversions|conv|all conv|orders)$/;
const valueTotals: readonly Rule[] = [
  [
    /^(total|order total|total amount|grand total|amount|gross|gross amount|revenue|total revenue|value|conversion value|conv value|order value|total price|sale amount|sales amount|payment amount|transaction amount|purchase value|total sales|amount paid|total paid|order amount|revenue amount|total cost)$/,
    100,
    'an order or payment total',
  ],
  [/\btotal\b/, 85, 'a total'],
  [/\b(revenue|umsatz|betrag|montant|importe|valor)\b/, 80, 'revenue'],
  [/\b(amount|gross)\b/, 75, 'an amount'],
  [/\bvalue\b/, 70, 'a value'],
  [/\bsales?\b/, 65, 'sales'],
  [/\bprice\b/, 60, 'a price'],
  [/\bnet\b/, 50, 'a net amount (after fees or refunds)'],
];

const datetimeRules: readonly Rule[] = [
  [
    /\b(updated|modified|shipped|fulfilled|cancell?ed|refunded|due|expires?|expiry|birth|dob|start|end|last|delivered|scheduled|trial|archived)\b/,
    20,
    'another moment of the order',
  ],
  [/\bpaid\b|\bpayment (date|time)\b/, 100, 'when it was paid'],
  [/\bclosed? ?(date|at|time|on)?\b/, 95, 'when the deal closed'],
  [
    /\b(order|sale|transaction|purchase|conversion|event|charge|booking)s? ?(date|time|at|datetime|timestamp)\b/,
    90,
    'when the conversion happened',
  ],
  [/\b(timestamp|datetime|date time)\b/, 85, 'a timestamp'],
  [/\bcreat(ed|e|ion)\b/, 75, 'when it was created'],
  [/^(date|datum|fecha|data|date utc|date gmt)\b/, 85, 'a date'],
  [/\bprocessed\b/, 70, 'when it was processed'],
  [/\b(date|datum|fecha|data|zeit|zeitpunkt|heure)\b/, 60, 'a date'],
  [/^(day|tag|jour|dia)$/, 60, 'a day'],
  [/^(time|hour)\b/, 50, 'a time'],
];

const idRules: readonly Rule[] = [
  [
    /\b(customer|client|user|visitor|product|sku|variant|item|line|campaign|ad|adgroup|account|merchant|seller|store|shop|location|parent|gclid|fbclid|msclkid|session|device|tracking|cookie|external|reference txn|tax|refund|subscription|plan|price)\b/,
    0,
    'an id of something else',
  ],
  [
    /\b(order|transaction|txn|conversion|purchase|sale|booking|deal|opportunity|bestell|commande|pedido)s? ?(id|number|no|nr|ref|reference|num|nummer|numero)\b/,
    95,
    'an order or transaction id',
  ],
  [
    /^(id|codigo|numero|n|nr|no) (da |de |do |del )?(transacao|transaccion|pedido|compra|venta|commande|bestellung)$/,
    95,
    'an order or transaction id',
  ],
  [
    /\b(payment|charge|receipt|invoice)s? ?(id|number|no|nr|ref|reference|num)\b/,
    75,
    'a payment or invoice id',
  ],
  [
    /^(order|transaction|invoice|receipt|reference|ref|bestellnummer|commande|pedido)$/,
    85,
    'an order reference',
  ],
  [/^(id|uuid)$/, 85, 'the row id'],
  [/\b(sales? )?record (number|no|nr|id)\b/, 70, 'a sales record number'],
  [/\bid$/, 55, 'an id'],
  [/^name$/, 50, 'a name (order references in some exports)'],
];

const emailRules: readonly Rule[] = [
  [/\b(seller|merchant|receiver|recipient|shop|store|to|para|an)\b.*e ?-?mail/, 40, "another party's e-mail"],
  [
    /\b(customer|buyer|billing|from|payer|contact|client|purchaser|do|de|von|kunde|cliente)\b.*e ?-?mail/,
    100,
    "the customer's e-mail",
  ],
  [/e ?-?mail|courriel|correo/, 90, 'an e-mail'],
];
const currencyRules: readonly Rule[] = [
  [
    /\b(different|original|local|settlement|payout|presentment|converted|shopper|customer|buyer|charge)\b.*\bcurrency\b/,
    60,
    'another currency of the row',
  ],
  [
    /^(currency|currency code|currency iso code|conversion currency|order currency|iso currency)$/,
    100,
    'the currency',
  ],
  [/\b(currency|curr|ccy|wahrung|devise|moneda|moeda|valuta)\b/, 90, 'a currency'],
];
const zoneRules: readonly Rule[] = [
  [/time ?zone|\btz\b|\bzone\b|zeitzone|fuseau|\bfuso\b|\bhuso\b/, 90, 'a time zone'],
];
const serviceIdRules: readonly Rule[] = [
  [
    /\b(visitor|vid|service id|tracking id|client id|cookie|besucher|anonymous id|user pseudo id|cid)\b/,
    90,
    "the tracking script's visitor id",
  ],
];
const nameRules: readonly Rule[] = [
  [
    /^(event name|conversion name|conversion action|conversion action name|event type|event|goal|goal name|action|conversion|aktion)$/,
    90,
    'the kind of conversion',
  ],
  [/\b(event name|conversion name|conversion action)\b/, 80, 'the kind of conversion'],
];

/** Datetime formats init tries on a sample column, most specific first; `iso`/`epoch` need no `format`. */
export const candidateDatetimeFormats = [
  'iso',
  'epoch',
  'dd.MM.yyyy HH:mm:ss',
  'dd.MM.yyyy HH:mm',
  'dd.MM.yyyy',
  'MM/dd/yyyy h:mm:ss a',
  'MM/dd/yyyy h:mm a',
  'MM/dd/yyyy HH:mm:ss',
  'MM/dd/yyyy HH:mm',
  'dd/MM/yyyy HH:mm:ss',
  'dd/MM/yyyy HH:mm',
  'MM/dd/yyyy',
  'dd/MM/yyyy',
  'M/d/yy H:mm:ss',
  'M/d/yy H:mm',
  'M/d/yy h:mm a',
  'M/d/yy',
  'dd/MM/yy HH:mm',
  'dd/MM/yy',
  'dd-MM-yyyy HH:mm:ss',
  'dd-MM-yyyy HH:mm',
  'dd-MM-yyyy',
  'yyyy-MM-dd H:mm:ss',
  'yyyy-MM-dd H:mm',
  'yyyy-MM-dd',
  'MMM d, yyyy h:mm:ss a',
  'MMM d, yyyy h:mm a',
  'MMM d, yyyy',
  'd MMM yyyy HH:mm',
  'd MMM yyyy',
  'yyyy/MM/dd HH:mm:ss',
  'yyyy/MM/dd',
] as const;

/** Whether a value has the shape of a format (a DST-gap time still has the shape). */
export type FormatCheck = (format: string, value: string) => boolean;

/**
 * The candidate format that reads the most sample values, the first of equals, when it reads at least 80%
 * of them (an export has its damaged rows: those are rejected at push, named). Day-first vs month-first is
 * settled by the sample: `13/02/2024` rules out month-first.
 */
export function guessDatetimeFormat(values: readonly string[], accepts: FormatCheck): string | undefined {
  const sample = values.filter((v) => v.trim() !== '');
  if (sample.length === 0) return undefined;
  let best: string | undefined;
  let bestCount = 0;
  for (const format of candidateDatetimeFormats) {
    const count = sample.filter((value) => accepts(format, value)).length;
    if (count > bestCount) {
      best = format;
      bestCount = count;
    }
  }
  return bestCount >= sample.length * 0.8 ? best : undefined;
}

/**
 * The same format with day and month swapped, when the sample reads with both (every day is 12 or less):
 * `MM/dd/yyyy` and `dd/MM/yyyy` are then a guess the user must settle. Undefined when the sample decides.
 */
export function undecidedDayMonth(
  format: string,
  values: readonly string[],
  accepts: FormatCheck,
): string | undefined {
  // Dotted dates (`31.03.2024`) are written day first everywhere they are used.
  const match = /^(MM?|dd?)([/-])(MM?|dd?)/.exec(format);
  if (!match || match[1]![0] === match[3]![0]) return undefined;
  const swapped = `${match[3]}${match[2]}${match[1]}${format.slice(match[0].length)}`;
  const sample = values.filter((v) => v.trim() !== '');
  return sample.length > 0 && sample.every((v) => accepts(swapped, v)) ? swapped : undefined;
}

/** `,` when the sample writes decimals with a comma and never with a point; else undefined (inferred). */
export function guessDecimal(values: readonly string[]): ',' | '.' | undefined {
  const comma = values.some((v) => /\d,\d{1,2}$/.test(v.trim()));
  const point = values.some((v) => /\d\.\d{1,2}$/.test(v.trim()));
  if (comma && !point) return ',';
  if (point && !comma) return '.';
  return undefined;
}

const emailShape = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;
const timeOfDay = /^\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(\s?[ap]\.?m\.?)?$/i;
const personName = /^[\p{L}'.-]+(\s+[\p{L}'.-]+)+$/u;

function isZone(value: string): boolean {
  return (
    canonicalZone(value) !== undefined ||
    lookupAbbreviation(value) !== undefined ||
    /^(utc|gmt)?\s*[+-]\d{1,2}(:?\d{2})?$/i.test(value)
  );
}

/** A number with either decimal separator (`1,234` is ambiguous alone, but a number). */
function isNumber(value: string): boolean {
  return parseAmount(value).ok || parseAmount(value, { decimal: ',' }).ok;
}

function filled(cells: readonly string[]): string[] {
  return cells.filter((c) => c !== '');
}

function share(cells: readonly string[], test: (value: string) => boolean): number {
  return cells.length === 0 ? 0 : cells.filter(test).length / cells.length;
}

/** The currency a header names for its values (`Amount (USD)`, `Sale Price (€)`); `$` when it names `$` alone. */
export function currencyInHeader(name: string): string | undefined {
  const match = /\(\s*([^()]{1,4})\s*\)\s*$|\b([A-Z]{3})\s*$|\bin\s+([A-Z]{3})\b/.exec(name);
  const token = match?.[1] ?? match?.[2] ?? match?.[3];
  if (token === undefined) return undefined;
  if (token === '$' || token === 'US$') return token === 'US$' ? 'USD' : '$';
  return currencyFromSymbolOrCode(token);
}

interface Scored extends Candidate {
  field: RecordField;
}

/** A candidate its cells found: ranked below every name rule but the ones saying "another moment". */
function cellsOnly(what: string): { score: number; evidence: string } {
  return { score: CELLS_ONLY_SCORE, evidence: `its cells are ${what}` };
}

/** An e-mail column found by its cells: a name saying whose (`Buyer Mail`) ranks it as the name rules would. */
function emailByCells(words: string): { score: number; evidence: string } {
  const buyer = /\b(customer|buyer|billing|payer|client|purchaser|contact|kunde|cliente)\b/.test(words);
  const other = /\b(seller|merchant|receiver|recipient|shop|store)\b/.test(words);
  const score = CELLS_ONLY_SCORE + (buyer ? 30 : 0) - (other ? 20 : 0);
  return { score, evidence: `its cells are e-mail addresses${buyer ? ", the buyer's by its name" : ''}` };
}

/** Every candidate of every column for every field, before columns are shared out. */
function candidates(
  columns: readonly ColumnSample[],
  accepts: FormatCheck,
  ruledOut: Map<RecordField, string[]>,
) {
  const out: Scored[] = [];
  const rule = (field: RecordField, column: ColumnSample, reason: string) => {
    const list = ruledOut.get(field) ?? [];
    list.push(`${quote(column.name)} ${reason}`);
    ruledOut.set(field, list);
  };
  const rows = Math.max(1, ...columns.map((c) => c.cells.length));
  for (const column of columns) {
    const words = nameWords(column.name);
    const values = filled(column.cells);
    const sample = values[0];
    const fill = values.length / rows;
    const base = { columns: [column.name], sample };
    const named = (field: RecordField, rules: readonly Rule[]) => {
      const hit = ruleScore(words, rules);
      if (hit && values.length === 0) rule(field, column, 'is empty in the sample');
      return values.length === 0 ? undefined : hit;
    };
    /** A candidate of `field` whose cells passed its check, weighed by how often the column is filled. */
    const accept = (
      field: RecordField,
      hit: { score: number; evidence: string },
      extra: Partial<Candidate> = {},
    ) => out.push({ ...base, field, score: hit.score * (0.75 + fill / 4), evidence: hit.evidence, ...extra });
    // What the cells plainly are, for the fields whose rules the name matched none of (issue 21).
    const kinds = cellKinds(values, (v) => (guessDatetimeFormat(v, accepts) ?? 'epoch') !== 'epoch');

    // conversionValue: a total beats its parts; the cells must be numbers.
    const bare = words.replace(currencyWord, '');
    // `Total Cost` of an order is its total; any other cost is not revenue.
    // `Total users` is a count; `Order Number` an id; but `Amount (number)` or `Value` are money.
    const money = !notMoney.test(bare) || /\b(value|revenue|amount|price)\b/.test(bare);
    const part = bare === 'total cost' || !money ? undefined : ruleScore(bare, valueParts);
    const total = money ? ruleScore(bare, valueTotals) : undefined;
    const valueHit = part ? { score: 15, evidence: `a part of the total: ${part.evidence}` } : total;
    // Ad reports write conversion counts with two decimals (`Conv. (Platform Comparable)` 0.00).
    const counted = /\b(conv|conversions?|interactions)\b/.test(bare);
    if (!valueHit && money && !counted && kinds.includes('money'))
      accept('conversionValue', cellsOnly('amounts'));
    if (valueHit && values.length === 0) rule('conversionValue', column, 'is empty in the sample');
    else if (valueHit) {
      const numeric = share(values, (v) => isNumber(v));
      if (numeric < 0.9)
        rule(
          'conversionValue',
          column,
          `does not hold numbers (e.g. ${quote(values.find((v) => !isNumber(v)))})`,
        );
      else {
        const scale = /\bmicros?\b/.test(words) ? 0.000001 : undefined;
        // `amount_cents`: integer minor units (cents), divided by the currency's digits.
        const minor = /\b(cents?|minor|pence|centavos|centimes)\b/.test(words);
        const decimal = guessDecimal(values);
        out.push({
          ...base,
          field: 'conversionValue',
          score: valueHit.score * (0.75 + fill / 4),
          evidence: valueHit.evidence,
          ...(part ? { part: part.evidence } : {}),
          ...(decimal ? { decimal } : {}),
          ...(scale ? { scale } : {}),
          ...(minor ? { unit: 'minor' as const } : {}),
        });
      }
    }

    // conversionDatetime: the cells must read with one format.
    const dt = named('conversionDatetime', datetimeRules);
    if (!dt && kinds.includes('datetime'))
      accept('conversionDatetime', cellsOnly('dates and times'), {
        format: guessDatetimeFormat(values, accepts)!,
      });
    if (dt) {
      const format = guessDatetimeFormat(values, accepts);
      if (format === 'epoch' && !/\b(time|timestamp|date|epoch|created|at)\b/.test(words)) {
        // a number column whose name only half says time: not a datetime
      } else if (format === undefined) {
        if (!values.every((v) => timeOfDay.test(v)))
          rule('conversionDatetime', column, `does not read as a date and time (e.g. ${quote(sample)})`);
      } else {
        out.push({
          ...base,
          field: 'conversionDatetime',
          // Times are often empty on a line item's continuation rows or an unpaid order: a light penalty.
          score: dt.score * (0.75 + fill / 4),
          evidence: dt.evidence,
          format,
          // `Created date (UTC)`: the header names the zone of times that carry none.
          ...(/\b(utc|gmt)\b/.test(words) ? { timezone: 'UTC' } : {}),
        });
      }
    }

    // conversionCurrency: ISO codes; a mostly empty column (another currency "when it differs") ranks low.
    const cur = named('conversionCurrency', currencyRules);
    if (!cur && kinds.includes('currency')) accept('conversionCurrency', cellsOnly('ISO currency codes'));
    if (cur) {
      if (share(values, (v) => normalizeCurrency(v) !== undefined) < 0.8)
        rule('conversionCurrency', column, `does not hold ISO currency codes (e.g. ${quote(sample)})`);
      else
        out.push({
          ...base,
          field: 'conversionCurrency',
          score: cur.score * fill,
          // AWIN's `different_currency`: the shopper's currency on the few rows where it differs.
          ...(cur.score < 90 ? { part: 'another currency of the row' } : {}),
          evidence:
            fill < 0.9
              ? `${cur.evidence}, empty on ${Math.round((1 - fill) * 100)}% of the sample`
              : cur.evidence,
        });
    }

    const zone = named('conversionTimezone', zoneRules);
    if (zone) {
      if (share(values, (v) => canonicalZone(v) !== undefined) >= 0.9)
        out.push({
          ...base,
          field: 'conversionTimezone',
          score: zone.score * fill,
          evidence: 'IANA time zones',
        });
      else if (share(values, isZone) < 0.9)
        rule('conversionTimezone', column, `does not hold time zones (e.g. ${quote(sample)})`);
    }

    const email = named('conversionEmail', emailRules);
    if (!email && kinds.includes('email')) accept('conversionEmail', emailByCells(words));
    if (email) {
      if (share(values, (v) => emailShape.test(v)) < 0.8)
        rule('conversionEmail', column, `does not hold e-mail addresses (e.g. ${quote(sample)})`);
      else accept('conversionEmail', email);
    }

    const visitor = named('serviceId', serviceIdRules);
    if (visitor) {
      if (share(values, (v) => !/\s/.test(v)) < 0.9)
        rule('serviceId', column, `does not hold ids (e.g. ${quote(sample)})`);
      else accept('serviceId', visitor);
    }

    const id = named('conversionId', idRules);
    if (id && id.score > 0) {
      const distinct = new Set(values).size;
      if (share(values, (v) => personName.test(v)) > 0.5)
        rule('conversionId', column, `holds people's names (e.g. ${quote(sample)})`);
      else if (id.evidence.startsWith('a name') && !values.every((v) => /\d/.test(v) && !/\s/.test(v)))
        rule('conversionId', column, `does not hold order references (e.g. ${quote(sample)})`);
      else if (values.length > 2 && distinct === 1)
        rule('conversionId', column, `holds the same value on every row (${quote(sample)})`);
      else accept('conversionId', id);
    }

    const kind = named('conversionName', nameRules);
    if (kind) {
      if (share(values, (v) => isNumber(v)) > 0.5)
        rule('conversionName', column, `holds numbers (e.g. ${quote(sample)})`);
      else accept('conversionName', kind);
    }
  }
  return out;
}

/** Whether two columns give the same cells on every sample row (then choosing between them changes nothing). */
function sameCells(columns: readonly ColumnSample[], a: Candidate, b: Candidate): boolean {
  const cellsOf = (c: Candidate) => columns.find((col) => col.name === c.columns[0])?.cells ?? [];
  const x = cellsOf(a);
  const y = cellsOf(b);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}

const CLOSE_CALL = 10;

/**
 * The proposal: per field the best candidate whose column no better-scoring field took, the runner-up and
 * what to review. A date column whose cells carry no time, beside a time column (and a zone column of
 * abbreviations or offsets), is proposed as the columns joined (`[Date, Time, TimeZone]`).
 */
export function guessMapping(columns: readonly ColumnSample[], accepts: FormatCheck): MappingGuess {
  const ruledOut = new Map<RecordField, string[]>();
  const all = candidates(columns, accepts, ruledOut).sort((a, b) => b.score - a.score);
  const used = new Set<string>();
  const fields = Object.fromEntries(
    recordFields.map((f) => [f, { ruledOut: ruledOut.get(f) ?? [] }]),
  ) as Record<RecordField, FieldGuess>;
  for (const candidate of all) {
    const guess = fields[candidate.field];
    if (guess.choice || used.has(candidate.columns[0]!)) continue;
    if (candidate.part) continue; // a part (shipping, another row's currency) is never a choice
    guess.choice = candidate;
    used.add(candidate.columns[0]!);
  }
  const datetime = fields.conversionDatetime.choice;
  if (datetime) joinDateAndTime(columns, datetime, used, accepts);
  settleId(columns, fields, all, used);
  settleUnit(columns, fields, all);

  for (const field of recordFields) {
    const guess = fields[field];
    const others = all.filter((c) => c.field === field && !used.has(c.columns[0]!));
    guess.runnerUp = others[0];
    const { choice, runnerUp } = guess;
    if (!choice) {
      const part = others.find((c) => c.part);
      if (part)
        guess.review =
          field === 'conversionValue'
            ? `only "${part.columns[0]}" (${part.evidence}) looks like money: it is not the revenue; set the column that holds the order or payment total`
            : `only "${part.columns[0]}" (${part.evidence}) was found: it is not ${field}; set the column that holds it, or \`currency\` to the export's one currency`;
      continue;
    }
    if (field === 'conversionValue' && choice.score < 60 && !runnerUp) {
      guess.review = `"${choice.columns[0]}" is ${choice.evidence}, not a total: check that it holds the revenue of each conversion`;
    }
    if (
      runnerUp &&
      !runnerUp.part &&
      !runnerUp.repeats &&
      choice.score - runnerUp.score < CLOSE_CALL &&
      !sameCells(columns, choice, runnerUp)
    ) {
      guess.review = `close call between "${choice.columns.join(' + ')}" (${choice.evidence}) and "${runnerUp.columns[0]}" (${runnerUp.evidence}); their sample values differ: keep the one that holds ${field === 'conversionValue' ? 'the revenue' : 'it'}`;
    }
  }
  if (datetime && !fields.conversionDatetime.review && isDateOnly(columns, datetime)) {
    fields.conversionDatetime.dateOnly = true;
  }
  if (datetime?.format && !fields.conversionDatetime.review) {
    const swapped = undecidedDayMonth(datetime.format, joinedSample(columns, datetime.columns), accepts);
    if (swapped)
      fields.conversionDatetime.review = `the sample does not tell "${datetime.format}" from "${swapped}" (no day above 12): check day and month order`;
  }
  const valueColumn = fields.conversionValue.choice?.columns[0];
  const headerCurrency = valueColumn === undefined ? undefined : currencyInHeader(valueColumn);
  const status = guessStatus(columns);
  // Rows of several kinds (PayPal's Type): not every kind is a sale, and init cannot tell which.
  const chosenColumns = new Set(recordFields.flatMap((f) => fields[f].choice?.columns ?? []));
  const kindColumn = columns.find(
    (c) =>
      !chosenColumns.has(c.name) &&
      /^(type|transaction type|row type|kind|tipo|typ|record type|line type)$/.test(nameWords(c.name)) &&
      new Set(filled(c.cells)).size >= 2 &&
      new Set(filled(c.cells)).size <= 30,
  );
  const kindValues = kindColumn ? [...new Set(filled(kindColumn.cells))] : [];
  const kinds =
    kindColumn && kindValues.some((v) => !saleKind.test(v) || notSaleKind.test(v))
      ? { column: kindColumn.name, values: kindValues }
      : undefined;
  // Amounts refunded beside the value: the first refund column with a refund in the sample.
  const refunded = fields.conversionValue.choice
    ? all.find(
        (c) =>
          c.field === 'conversionValue' &&
          c.part === 'refund' &&
          filled(columns.find((col) => col.name === c.columns[0])?.cells ?? []).some((v) => {
            const amount = parseAmount(v, { decimal: c.decimal });
            return amount.ok && amount.value !== 0;
          }),
      )?.columns[0]
    : undefined;
  return {
    fields,
    ...(headerCurrency && !fields.conversionCurrency.choice ? { headerCurrency } : {}),
    ...(status ? { status } : {}),
    ...(refunded ? { refunded } : {}),
    ...(kinds ? { kinds } : {}),
  };
}

function cellsOf(columns: readonly ColumnSample[], name: string | undefined): readonly string[] {
  return columns.find((c) => c.name === name)?.cells ?? [];
}

/**
 * The id must be unique over the rows that carry a value (a line item's continuation row repeats its
 * order's id, but carries no total): a repeating choice gives way to the best unique candidate, and is
 * kept, for review, only when there is none (an eBay `PayPal Transaction ID` shared by two sales).
 */
function settleId(
  columns: readonly ColumnSample[],
  fields: Record<RecordField, FieldGuess>,
  all: Scored[],
  used: Set<string>,
) {
  const guess = fields.conversionId;
  const id = guess.choice;
  if (!id) return;
  const rows = revenueRows(columns, fields.conversionValue.choice, fields.conversionDatetime.choice, id);
  const repeats = (c: Candidate) => {
    const { cells, values } = repeatsOf(cellsOf(columns, c.columns[0]), rows);
    return values < cells ? `${cells} rows, ${values} value${values === 1 ? '' : 's'}` : undefined;
  };
  const repeated = repeats(id);
  if (!repeated) return;
  id.repeats = repeated;
  const unique = all.find(
    (c) =>
      c.field === 'conversionId' &&
      !used.has(c.columns[0]!) &&
      repeatsOf(cellsOf(columns, c.columns[0]), rows).cells === rows.length &&
      !repeats(c),
  );
  if (unique) {
    used.delete(id.columns[0]!);
    used.add(unique.columns[0]!);
    guess.choice = unique;
    guess.ruledOut.push(`${quote(id.columns[0])} repeats in the sample (${repeated})`);
  } else {
    guess.review = `"${id.columns[0]}" repeats in the sample (${repeated}): rows sharing an id are taken as one sale and the others refused as duplicates; set conversionId to a column unique per sale`;
  }
}

/**
 * The sample rows a push would send: a positive value, a datetime (a line item's continuation row has
 * neither), and no status of money not received (a pending payment and its completion, a refund, share
 * their payment's id without being a second sale).
 */
function revenueRows(
  columns: readonly ColumnSample[],
  value: Candidate | undefined,
  datetime: Candidate | undefined,
  id: Candidate,
): number[] {
  const values = cellsOf(columns, value?.columns[0]);
  const times = cellsOf(columns, datetime?.columns[0]);
  const status = guessStatus(columns);
  const statuses = cellsOf(columns, status?.column);
  const notRevenue = new Set(status?.notRevenue.map(([v]) => v));
  return [...cellsOf(columns, id.columns[0]).keys()].filter((i) => {
    if (notRevenue.has(statuses[i] ?? '') || (datetime && times[i] === '')) return false;
    if (!value) return true;
    const amount = parseAmount(values[i] ?? '', { decimal: value.decimal });
    return amount.ok && amount.value > 0;
  });
}

/** A value of whole numbers: minor units when the cells say so, a question when they cannot tell. */
function settleUnit(
  columns: readonly ColumnSample[],
  fields: Record<RecordField, FieldGuess>,
  all: Scored[],
) {
  const guess = fields.conversionValue;
  const value = guess.choice;
  if (!value || value.scale || value.columns.length > 1) return;
  const name = value.columns[0]!;
  const code =
    normalizeCurrency(filled(cellsOf(columns, fields.conversionCurrency.choice?.columns[0]))[0] ?? '') ??
    currencyInHeader(name);
  const digits = code && code !== '$' ? minorUnits(code) : 2;
  const reading = readUnit(
    {
      value: cellsOf(columns, name),
      siblings: columns.filter(
        (c) => c.name !== name && !recordFields.some((f) => fields[f].choice?.columns.includes(c.name)),
      ),
      parts: all
        .filter((c) => c.field === 'conversionValue' && c.part)
        .map((c) => ({ part: c.part!, cells: cellsOf(columns, c.columns[0]) })),
    },
    name,
    digits,
  );
  if (reading.unit === 'minor') {
    value.unit = 'minor';
    value.unitEvidence = reading.evidence;
    value.evidence = `${value.evidence}, in minor units: ${reading.evidence}`;
  } else if (reading.unit === 'undecided' && !value.unit) {
    guess.unitUndecided = true;
    guess.review = `"${name}" holds whole numbers the sample cannot tell as units or minor units (cents)`;
  }
}

/** Per sample row, the cells of `names` joined as push joins `columns: [...]` (joined-columns.ts); empty rows left out. */
function joinedSample(columns: readonly ColumnSample[], names: readonly string[]): string[] {
  const cells = names.map((n) => columns.find((c) => c.name === n)?.cells ?? []);
  const indexes = cells.map((_, k) => k);
  const rows = Math.max(0, ...cells.map((c) => c.length));
  const out: string[] = [];
  for (let i = 0; i < rows; i++) {
    const value = joinedCells(
      cells.map((c) => c[i]),
      indexes,
    );
    if (value !== '') out.push(value);
  }
  return out;
}

function isDateOnly(columns: readonly ColumnSample[], datetime: Candidate): boolean {
  if (datetime.format === 'epoch') return false;
  return !joinedSample(columns, datetime.columns).some((v) => /\d:\d\d|T\d\d/.test(v));
}

function joinDateAndTime(
  columns: readonly ColumnSample[],
  datetime: Candidate,
  used: Set<string>,
  accepts: FormatCheck,
) {
  const dateCells = columns.find((c) => c.name === datetime.columns[0])?.cells ?? [];
  if (datetime.format === 'epoch' || filled(dateCells).some((v) => /\d:\d\d/.test(v))) return;
  // Any unused column of times of day (`Time`, `Order Time`, `Transaction Time`, `Hora`); one named
  // like a time first.
  const times = columns.filter(
    (c) => !used.has(c.name) && filled(c.cells).length > 0 && filled(c.cells).every((v) => timeOfDay.test(v)),
  );
  const time =
    times.find((c) => /\b(time|hour|uhrzeit|zeit|hora|heure)\b/.test(nameWords(c.name))) ?? times[0];
  if (!time) return;
  const zone = columns.find(
    (c) =>
      !used.has(c.name) &&
      ruleScore(nameWords(c.name), zoneRules) !== undefined &&
      filled(c.cells).length > 0 &&
      filled(c.cells).every(isZone),
  );
  const joined = [datetime.columns[0]!, time.name, ...(zone ? [zone.name] : [])];
  const values = joinedSample(columns, joined);
  const format = guessDatetimeFormat(values, accepts);
  if (format === undefined) return;
  datetime.columns = joined;
  datetime.format = format;
  datetime.sample = values[0];
  datetime.evidence = `${datetime.evidence}, with its time${zone ? ' and zone' : ''} columns`;
  for (const name of joined) used.add(name);
}

// What a column's name says it holds: its words (`CloseDate` -> `close date`) matched against one table of
// rules per field, ordered from the most to the least specific, each with a score and the evidence shown.

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

export type Rule = readonly [RegExp, number, string];

/** The first rule matching wins; rules are ordered from the most to the least specific. */
export function ruleScore(
  words: string,
  rules: readonly Rule[],
): { score: number; evidence: string } | undefined {
  for (const [pattern, score, evidence] of rules) if (pattern.test(words)) return { score, evidence };
  return undefined;
}

export const currencyWord = /\s+(usd|eur|gbp|chf|jpy|cad|aud|inr|brl|nok|sek|dkk|pln|mxn|\$|€|£|¥)$/;

/** Money columns that are a part of an order's total, or not revenue at all: never chosen over a total. */
export const valueParts: readonly Rule[] = [
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
export const notMoney =
  /\b(quantity|qty|count|clicks|impressions|rate|ratio|percent|%|weight|ctr|roas|zip|phone|postal|id|number|users|sessions|views|visitors|events|country|state|code)\b|^(conversions|conv|all conv|orders)$/;
export const valueTotals: readonly Rule[] = [
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

export const datetimeRules: readonly Rule[] = [
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

export const idRules: readonly Rule[] = [
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

export const emailRules: readonly Rule[] = [
  [/\b(seller|merchant|receiver|recipient|shop|store|to|para|an)\b.*e ?-?mail/, 40, "another party's e-mail"],
  [
    /\b(customer|buyer|billing|from|payer|contact|client|purchaser|do|de|von|kunde|cliente)\b.*e ?-?mail/,
    100,
    "the customer's e-mail",
  ],
  [/e ?-?mail|courriel|correo/, 90, 'an e-mail'],
];
export const currencyRules: readonly Rule[] = [
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
export const zoneRules: readonly Rule[] = [
  [/time ?zone|\btz\b|\bzone\b|zeitzone|fuseau|\bfuso\b|\bhuso\b/, 90, 'a time zone'],
];
export const serviceIdRules: readonly Rule[] = [
  [
    /\b(visitor|vid|service id|tracking id|client id|cookie|besucher|anonymous id|user pseudo id|cid)\b/,
    90,
    "the tracking script's visitor id",
  ],
];
export const nameRules: readonly Rule[] = [
  [
    /^(event name|conversion name|conversion action|conversion action name|event type|event|goal|goal name|action|conversion|aktion)$/,
    90,
    'the kind of conversion',
  ],
  [/\b(event name|conversion name|conversion action)\b/, 80, 'the kind of conversion'],
];

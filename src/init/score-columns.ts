// Scores every column of the sample for every field, from its name (name-rules.ts) and its cells: one small
// scorer per field, each adding candidates or saying why a column named like the field is ruled out.
import { quote } from '../quote.js';
import { normalizeCurrency } from '../record/currency.js';
import type { RecordField } from '../record/fields.js';
import { canonicalZone } from '../record/zone.js';
import {
  emailShape,
  filled,
  guessDecimal,
  isNumber,
  isZone,
  personName,
  share,
  timeOfDay,
} from './cell-tests.js';
import { guessDatetimeFormat } from './datetime-formats.js';
import { CELLS_ONLY_SCORE, type CellKind, cellKinds } from './guess-cells.js';
import {
  currencyRules,
  currencyWord,
  datetimeRules,
  emailRules,
  idRules,
  nameRules,
  nameWords,
  notMoney,
  type Rule,
  ruleScore,
  serviceIdRules,
  valueParts,
  valueTotals,
  zoneRules,
} from './name-rules.js';
import type { Candidate, ColumnSample, FormatCheck, Scored } from './types.js';

/** Every candidate of every column for every field, and the columns ruled out per field (with why). */
export interface ScoredColumns {
  candidates: Scored[];
  ruledOut: Map<RecordField, string[]>;
}

/** One column as the scorers see it: its name's words, its filled cells and how often it is filled. */
interface ColumnView {
  column: ColumnSample;
  words: string;
  values: string[];
  sample: string | undefined;
  /** Filled cells over the sample's rows. */
  fill: number;
  /** What the cells plainly are, for the fields whose rules the name matched none of (issue 21). */
  kinds: CellKind[];
  base: { columns: string[]; sample: string | undefined };
}

type Hit = { score: number; evidence: string };
type Scorer = (view: ColumnView, found: ScoredColumns, accepts: FormatCheck) => void;

/** Every candidate of every column for every field, before columns are shared out. */
export function scoreColumns(columns: readonly ColumnSample[], accepts: FormatCheck): ScoredColumns {
  const found: ScoredColumns = { candidates: [], ruledOut: new Map() };
  const rows = Math.max(1, ...columns.map((c) => c.cells.length));
  for (const column of columns) {
    const view = viewOf(column, rows, accepts);
    for (const score of scorers) score(view, found, accepts);
  }
  return found;
}

function viewOf(column: ColumnSample, rows: number, accepts: FormatCheck): ColumnView {
  const values = filled(column.cells);
  const sample = values[0];
  return {
    column,
    words: nameWords(column.name),
    values,
    sample,
    fill: values.length / rows,
    kinds: cellKinds(values, (v) => (guessDatetimeFormat(v, accepts) ?? 'epoch') !== 'epoch'),
    base: { columns: [column.name], sample },
  };
}

function rule(found: ScoredColumns, field: RecordField, view: ColumnView, reason: string): void {
  const list = found.ruledOut.get(field) ?? [];
  list.push(`${quote(view.column.name)} ${reason}`);
  found.ruledOut.set(field, list);
}

/** The name rule the column matches for `field`; an empty column matching one is ruled out. */
function named(found: ScoredColumns, view: ColumnView, field: RecordField, rules: readonly Rule[]) {
  const hit = ruleScore(view.words, rules);
  if (hit && view.values.length === 0) rule(found, field, view, 'is empty in the sample');
  return view.values.length === 0 ? undefined : hit;
}

/** A candidate of `field` whose cells passed its check, weighed by how often the column is filled. */
function accept(
  found: ScoredColumns,
  view: ColumnView,
  field: RecordField,
  hit: Hit,
  extra: Partial<Candidate> = {},
): void {
  found.candidates.push({
    ...view.base,
    field,
    score: hit.score * (0.75 + view.fill / 4),
    evidence: hit.evidence,
    ...extra,
  });
}

/** A candidate its cells found: ranked below every name rule but the ones saying "another moment". */
function cellsOnly(what: string): Hit {
  return { score: CELLS_ONLY_SCORE, evidence: `its cells are ${what}` };
}

/** An e-mail column found by its cells: a name saying whose (`Buyer Mail`) ranks it as the name rules would. */
function emailByCells(words: string): Hit {
  const buyer = /\b(customer|buyer|billing|payer|client|purchaser|contact|kunde|cliente)\b/.test(words);
  const other = /\b(seller|merchant|receiver|recipient|shop|store)\b/.test(words);
  const score = CELLS_ONLY_SCORE + (buyer ? 30 : 0) - (other ? 20 : 0);
  return { score, evidence: `its cells are e-mail addresses${buyer ? ", the buyer's by its name" : ''}` };
}

/** conversionValue: a total beats its parts; the cells must be numbers. */
function scoreValue(view: ColumnView, found: ScoredColumns): void {
  const bare = view.words.replace(currencyWord, '');
  // `Total Cost` of an order is its total; any other cost is not revenue.
  // `Total users` is a count; `Order Number` an id; but `Amount (number)` or `Value` are money.
  const money = !notMoney.test(bare) || /\b(value|revenue|amount|price)\b/.test(bare);
  const part = bare === 'total cost' || !money ? undefined : ruleScore(bare, valueParts);
  const total = money ? ruleScore(bare, valueTotals) : undefined;
  const valueHit = part ? { score: 15, evidence: `a part of the total: ${part.evidence}` } : total;
  // Ad reports write conversion counts with two decimals (`Conv. (Platform Comparable)` 0.00).
  const counted = /\b(conv|conversions?|interactions)\b/.test(bare);
  if (!valueHit && money && !counted && view.kinds.includes('money'))
    accept(found, view, 'conversionValue', cellsOnly('amounts'));
  if (!valueHit) return;
  const { values } = view;
  if (values.length === 0) rule(found, 'conversionValue', view, 'is empty in the sample');
  else if (share(values, (v) => isNumber(v)) < 0.9)
    rule(
      found,
      'conversionValue',
      view,
      `does not hold numbers (e.g. ${quote(values.find((v) => !isNumber(v)))})`,
    );
  else found.candidates.push(valueCandidate(view, valueHit, part));
}

function valueCandidate(view: ColumnView, hit: Hit, part: Hit | undefined): Scored {
  const scale = /\bmicros?\b/.test(view.words) ? 0.000001 : undefined;
  // `amount_cents`: integer minor units (cents), divided by the currency's digits.
  const minor = /\b(cents?|minor|pence|centavos|centimes)\b/.test(view.words);
  const decimal = guessDecimal(view.values);
  return {
    ...view.base,
    field: 'conversionValue',
    score: hit.score * (0.75 + view.fill / 4),
    evidence: hit.evidence,
    ...(part ? { part: part.evidence } : {}),
    ...(decimal ? { decimal } : {}),
    ...(scale ? { scale } : {}),
    ...(minor ? { unit: 'minor' as const } : {}),
  };
}

/** conversionDatetime: the cells must read with one format. */
function scoreDatetime(view: ColumnView, found: ScoredColumns, accepts: FormatCheck): void {
  const dt = named(found, view, 'conversionDatetime', datetimeRules);
  if (!dt && view.kinds.includes('datetime'))
    accept(found, view, 'conversionDatetime', cellsOnly('dates and times'), {
      format: guessDatetimeFormat(view.values, accepts)!,
    });
  if (!dt) return;
  const format = guessDatetimeFormat(view.values, accepts);
  // A number column whose name only half says time: not a datetime.
  if (format === 'epoch' && !/\b(time|timestamp|date|epoch|created|at)\b/.test(view.words)) return;
  if (format === undefined) {
    if (!view.values.every((v) => timeOfDay.test(v)))
      rule(
        found,
        'conversionDatetime',
        view,
        `does not read as a date and time (e.g. ${quote(view.sample)})`,
      );
    return;
  }
  found.candidates.push({
    ...view.base,
    field: 'conversionDatetime',
    // Times are often empty on a line item's continuation rows or an unpaid order: a light penalty.
    score: dt.score * (0.75 + view.fill / 4),
    evidence: dt.evidence,
    format,
    // `Created date (UTC)`: the header names the zone of times that carry none.
    ...(/\b(utc|gmt)\b/.test(view.words) ? { timezone: 'UTC' } : {}),
  });
}

/** conversionCurrency: ISO codes; a mostly empty column (another currency "when it differs") ranks low. */
function scoreCurrency(view: ColumnView, found: ScoredColumns): void {
  const cur = named(found, view, 'conversionCurrency', currencyRules);
  if (!cur && view.kinds.includes('currency'))
    accept(found, view, 'conversionCurrency', cellsOnly('ISO currency codes'));
  if (!cur) return;
  const { fill } = view;
  if (share(view.values, (v) => normalizeCurrency(v) !== undefined) < 0.8)
    rule(found, 'conversionCurrency', view, `does not hold ISO currency codes (e.g. ${quote(view.sample)})`);
  else
    found.candidates.push({
      ...view.base,
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

/** conversionTimezone: IANA names; a column of abbreviations or offsets is only joined to a datetime. */
function scoreZone(view: ColumnView, found: ScoredColumns): void {
  const zone = named(found, view, 'conversionTimezone', zoneRules);
  if (!zone) return;
  if (share(view.values, (v) => canonicalZone(v) !== undefined) >= 0.9)
    found.candidates.push({
      ...view.base,
      field: 'conversionTimezone',
      score: zone.score * view.fill,
      evidence: 'IANA time zones',
    });
  else if (share(view.values, isZone) < 0.9)
    rule(found, 'conversionTimezone', view, `does not hold time zones (e.g. ${quote(view.sample)})`);
}

function scoreEmail(view: ColumnView, found: ScoredColumns): void {
  const email = named(found, view, 'conversionEmail', emailRules);
  if (!email && view.kinds.includes('email'))
    accept(found, view, 'conversionEmail', emailByCells(view.words));
  if (!email) return;
  if (share(view.values, (v) => emailShape.test(v)) < 0.8)
    rule(found, 'conversionEmail', view, `does not hold e-mail addresses (e.g. ${quote(view.sample)})`);
  else accept(found, view, 'conversionEmail', email);
}

function scoreServiceId(view: ColumnView, found: ScoredColumns): void {
  const visitor = named(found, view, 'serviceId', serviceIdRules);
  if (!visitor) return;
  if (share(view.values, (v) => !/\s/.test(v)) < 0.9)
    rule(found, 'serviceId', view, `does not hold ids (e.g. ${quote(view.sample)})`);
  else accept(found, view, 'serviceId', visitor);
}

/** conversionId: order references, not people's names nor one value on every row. */
function scoreId(view: ColumnView, found: ScoredColumns): void {
  const id = named(found, view, 'conversionId', idRules);
  if (!id || id.score <= 0) return;
  const { values, sample } = view;
  const distinct = new Set(values).size;
  if (share(values, (v) => personName.test(v)) > 0.5)
    rule(found, 'conversionId', view, `holds people's names (e.g. ${quote(sample)})`);
  else if (id.evidence.startsWith('a name') && !values.every((v) => /\d/.test(v) && !/\s/.test(v)))
    rule(found, 'conversionId', view, `does not hold order references (e.g. ${quote(sample)})`);
  else if (values.length > 2 && distinct === 1)
    rule(found, 'conversionId', view, `holds the same value on every row (${quote(sample)})`);
  else accept(found, view, 'conversionId', id);
}

function scoreName(view: ColumnView, found: ScoredColumns): void {
  const kind = named(found, view, 'conversionName', nameRules);
  if (!kind) return;
  if (share(view.values, (v) => isNumber(v)) > 0.5)
    rule(found, 'conversionName', view, `holds numbers (e.g. ${quote(view.sample)})`);
  else accept(found, view, 'conversionName', kind);
}

/** The scorers in the order candidates were always found (ties keep this order after the stable sort). */
const scorers: readonly Scorer[] = [
  scoreValue,
  scoreDatetime,
  scoreCurrency,
  scoreZone,
  scoreEmail,
  scoreServiceId,
  scoreId,
  scoreName,
];

// What init asks the user to look at before a push (the review list: init exits 1 while it is not empty) and
// what is only worth knowing (notes), from the proposal and the sample tried with it. Pure: literal inputs in.
import { UnlinkableError } from '../errors.js';
import { normalizeColumnName } from '../input/column-name.js';
import type { Preset } from '../mapping/presets/types.js';
import { type RecordField, recordFields } from '../record/fields.js';
import type { FieldSpecs, Resaved } from './propose.js';
import type { Tried } from './try-sample.js';
import type { MappingGuess } from './types.js';

/** Everything the lists are drawn from. */
export interface ReviewInput {
  /** Rows read from the sample. */
  sampled: number;
  /** The sample rows that cannot be read. */
  malformed: ReadonlyArray<{ line: number; message: string }>;
  /** The CSV header as read (empty for JSON lines). */
  header: readonly string[];
  preset: Preset | undefined;
  guess: MappingGuess | undefined;
  specs: FieldSpecs;
  unguessed: readonly RecordField[];
  /** The unit question's text, when the guess cannot tell units from cents (try-sample.ts unitQuestion). */
  unitQuestion?: string;
  /** How many rows were tried (none while the value or time is unmapped). */
  checked: number;
  tried: Pick<Tried, 'records' | 'reasons' | 'stop'>;
  resaved?: Resaved;
}

/** Must be looked at before a push (exit 1), and only worth knowing. */
export interface ReviewLists {
  review: string[];
  notes: string[];
}

export function reviewList(input: ReviewInput): ReviewLists {
  const lists: ReviewLists = { review: [], notes: [] };
  malformedRows(input, lists);
  if (input.preset) lists.notes.push(...input.preset.notes);
  if (input.guess) for (const step of guessSteps) step(input.guess, input, lists);
  resavedDates(input, lists);
  const { stop } = input.tried;
  if (stop) lists.review.push(stop.hint ? `${stop.message}; ${stop.hint}` : stop.message);
  linking(input, lists);
  zones(input, lists);
  refusals(input, lists);
  return lists;
}

function malformedRows({ malformed, sampled }: ReviewInput, { review, notes }: ReviewLists): void {
  if (malformed.length === 0) return;
  const first = malformed[0]!;
  (malformed.length === sampled ? review : notes).push(
    `${malformed.length} of the ${sampled} sample rows cannot be read: line ${first.line}: ${first.message}`,
  );
}

type GuessStep = (guess: MappingGuess, input: ReviewInput, lists: ReviewLists) => void;

/** Per field: the unit question, or what the guess says to review. */
function fieldReviews(guess: MappingGuess, input: ReviewInput, { review }: ReviewLists): void {
  for (const field of recordFields) {
    const note = guess.fields[field].review;
    if (field === 'conversionValue' && guess.fields.conversionValue.unitUndecided)
      review.push(input.unitQuestion!);
    else if (note) review.push(`${field}: ${note}`);
  }
}

function repeatingId(guess: MappingGuess, _: ReviewInput, { notes }: ReviewLists): void {
  const id = guess.fields.conversionId;
  if (id.runnerUp?.repeats && id.choice && !id.choice.repeats)
    notes.push(
      `conversionId: "${id.runnerUp.columns[0]}" repeats in the sample (${id.runnerUp.repeats}): init chose "${id.choice.columns[0]}", unique in the sample`,
    );
}

function statusColumn(guess: MappingGuess, _: ReviewInput, { review }: ReviewLists): void {
  if (!guess.status) return;
  const { column, keep, notRevenue } = guess.status;
  const seen = notRevenue.map(([value, n]) => `${value} (${n})`).join(', ');
  review.push(
    keep.length > 0
      ? `"${column}" holds ${seen} in the sample: money not received is not revenue, so init keeps only rows whose ${column} is ${keep.join(' or ')} (mapping.keep); check that list`
      : `"${column}" holds only ${seen} in the sample: money not received is not revenue; add mapping.keep: [{ column: "${column}", in: [<the values meaning paid>] }]`,
  );
}

function centsByName(guess: MappingGuess, _: ReviewInput, { review }: ReviewLists): void {
  const value = guess.fields.conversionValue.choice;
  if (value?.unit === 'minor' && !value.unitEvidence) {
    review.push(
      `conversionValue: "${value.columns[0]}" is read as integer cents (unit: minor, from its name): check the sample totals`,
    );
  }
}

function datesOnly(guess: MappingGuess, _: ReviewInput, { notes }: ReviewLists): void {
  const datetime = guess.fields.conversionDatetime.choice;
  if (datetime && guess.fields.conversionDatetime.dateOnly) {
    notes.push(
      `conversionDatetime: "${datetime.columns.join(' + ')}" holds dates without times: each conversion is sent at local midnight`,
    );
  }
}

/** A name written twice in the header (as the mapping compares names): the mapping reads the first of them only. */
function repeatedNames(guess: MappingGuess, { header }: ReviewInput, { review }: ReviewLists): void {
  const names = header.map(normalizeColumnName);
  for (const field of recordFields) {
    for (const column of guess.fields[field].choice?.columns ?? []) {
      const key = normalizeColumnName(column);
      if (names.filter((name) => name === key).length > 1)
        review.push(`${field}: the header has two columns named "${column}"; the mapping reads the first`);
    }
  }
}

function rowKinds(guess: MappingGuess, _: ReviewInput, { review }: ReviewLists): void {
  if (!guess.kinds) return;
  const { column, values } = guess.kinds;
  const shown = values.slice(0, 8).join(', ') + (values.length > 8 ? ', ...' : '');
  review.push(
    `"${column}" holds ${values.length} kinds of rows (${shown}): every kind is sent as revenue; keep only the sales: mapping.keep: [{ column: "${column}", in: [...] }]`,
  );
}

function refunds(guess: MappingGuess, _: ReviewInput, { notes }: ReviewLists): void {
  if (guess.refunded)
    notes.push(`"${guess.refunded}" is taken off the value (mapping.refunded; refunds: net, the default)`);
}

function unguessedFields(guess: MappingGuess, { unguessed }: ReviewInput, { review }: ReviewLists): void {
  for (const field of unguessed) {
    if (guess.fields[field].review) continue;
    const ruled = guess.fields[field].ruledOut;
    review.push(
      `no column found for ${field}: set mapping.fields.${field} to the column that holds it` +
        (ruled.length ? ` (ruled out: ${ruled.slice(0, 3).join('; ')})` : '') +
        (field === 'conversionCurrency' ? ', or `currency` to the one currency of the export' : ''),
    );
  }
}

function dollarHeader(guess: MappingGuess, _: ReviewInput, { review }: ReviewLists): void {
  if (guess.headerCurrency === '$')
    review.push(
      'the value column names "$", which several currencies use: set `currency` (USD, CAD, AUD...)',
    );
}

/** What a guess adds to the lists, in the order they are shown. */
const guessSteps: readonly GuessStep[] = [
  fieldReviews,
  repeatingId,
  statusColumn,
  centsByName,
  datesOnly,
  repeatedNames,
  rowKinds,
  refunds,
  unguessedFields,
  dollarHeader,
];

function resavedDates({ resaved, preset }: ReviewInput, { review }: ReviewLists): void {
  if (!resaved) return;
  const undecided = resaved.swapped ? ` (or "${resaved.swapped}": no day in the sample is above 12)` : '';
  review.push(
    `conversionDatetime: the dates are not in the form the ${preset!.name} preset reads (a re-saved export?): init set format "${resaved.format}"${undecided}, the form of the sample; check day and month order`,
  );
}

/** A record is linked by a visitor id or an e-mail: without either column nothing can be attributed. */
function linking({ preset, specs, tried }: ReviewInput, { review, notes }: ReviewLists): void {
  const link = preset ? preset.mapping.fields : specs;
  const linked = link?.serviceId || link?.conversionEmail || specs.serviceId || specs.conversionEmail;
  // An UnlinkableError has said what links a record; other stops leave that still to say.
  if (!linked && !(tried.stop instanceof UnlinkableError)) {
    review.push(
      'no visitor id and no e-mail column: set mapping.fields.serviceId or mapping.fields.conversionEmail',
    );
  } else if (!preset && !specs.serviceId && specs.conversionEmail) {
    notes.push(
      'no visitor id column: records are linked by e-mail; if the export has the tracking script visitor id, set mapping.fields.serviceId to its column',
    );
  }
}

function zones({ tried, checked }: ReviewInput, { review, notes }: ReviewLists): void {
  const ambiguous = tried.reasons.get('ambiguous time zone');
  if (ambiguous !== undefined) {
    (ambiguous === checked ? review : notes).push(
      'the zone abbreviations (EST, PST, CST...) have several meanings: set `timezone` to the zone the export was written in (or rerun init with --timezone), or mapping.zoneAbbreviations: default',
    );
  }
  if (tried.reasons.has('missing time zone')) {
    review.push(
      'times carry no zone: set `timezone` (an IANA name such as Europe/Berlin) or rerun init with --timezone',
    );
  }
}

/** The sample's refusals by reason: every row refused for one reason, or none valid, is a mapping problem. */
function refusals({ tried, checked, sampled }: ReviewInput, { review, notes }: ReviewLists): void {
  for (const [reason, count] of tried.reasons) {
    if (reason === 'missing time zone' || reason === 'ambiguous time zone') continue;
    const line = `${count} of the ${sampled} sample rows: ${reason}`;
    if (count === checked || tried.records.length === 0 || reason === 'missing currency') review.push(line);
    else notes.push(line);
  }
}

// mapping.sumBy (PayPal's payment and its refunds, Stripe's charge and its refunds): the rows of one key
// are one conversion. Members are held per key across the run's files, then summed into one outcome each.
import type { SourceRow } from '../../input/types.js';
import { contentHash } from '../../ledger/record-key.js';
import type { BoundMapping } from '../../mapping/compile-mapping.js';
import { quote } from '../../quote.js';
import type { ConversionRecord } from '../../record/fields.js';
import { exactAmountLimit, fromMinorUnits, toMinorUnits } from '../../record/money.js';
import type { ValidateResult } from '../../record/validate.js';
import { duplicateOf, invalid } from './outcome.js';
import type { CheckedRow, RowOutcome, SkippedRow } from './types.js';

interface Member {
  record: ConversionRecord;
  row: SourceRow;
}

interface SumGroup {
  bound: BoundMapping;
  members: Member[];
  /** The first row of the key that was invalid: then none of the key's rows is sent. */
  invalidLine: number | undefined;
  firstRow: SourceRow;
  /** conversionIds (when not the key itself) and contents of the members: a repeated row is a duplicate. */
  ids: Set<string>;
  hashes: Set<string>;
}

/** A summed conversion made a record: checked for a duplicate conversionId by the caller. */
export type Accept = (record: ConversionRecord, row: SourceRow, bound: BoundMapping) => CheckedRow;

/** Each key's rows in the whole run, in order of first appearance (across files). */
export class SumGroups {
  #groups = new Map<string, SumGroup>();

  /**
   * The sumBy step of a parsed row of a file with a sum key: held as a member of its key (`folded`),
   * refused (invalid, a repeated member, a negative row without a key), or undefined: a conversion alone.
   */
  take(
    row: SourceRow,
    bound: BoundMapping,
    checked: ValidateResult,
    allowNegative: boolean,
  ): RowOutcome | undefined {
    const key = bound.sumKey!(row);
    if (key !== undefined && (checked.ok || 'issues' in checked)) {
      const group = this.#groupFor(key, row, bound);
      if (!checked.ok) {
        group.invalidLine ??= row.line;
        return invalid(row, checked.issues);
      }
      const repeated = repeatedMember(group, key, checked.record);
      if (repeated !== undefined)
        return duplicateOf(row, bound, repeated, 'on an earlier row summed with it');
      group.members.push({ record: checked.record, row });
      return 'folded';
    }
    // A row without a key is a conversion of its own: the run's allowNegative applies to it again.
    if (checked.ok && checked.record.conversionValue < 0 && !allowNegative) {
      return negativeAlone(row, bound, checked.record.conversionValue);
    }
    return undefined;
  }

  /** A row of the key failed before it was parsed (no lookup row): the sum is not sent short of it. */
  holdBack(row: SourceRow, bound: BoundMapping): void {
    const key = bound.sumKey!(row);
    if (key !== undefined) this.#groupFor(key, row, bound).invalidLine ??= row.line;
  }

  /** The summed conversions of the run so far, one outcome per key; then forgotten. */
  flush(accept: Accept): Array<CheckedRow | SkippedRow> {
    const out: Array<CheckedRow | SkippedRow> = [];
    for (const [key, group] of this.#groups) {
      // A key whose rows all failed: they were reported one by one already.
      if (group.members.length > 0) out.push(sumGroup(key, group, accept));
    }
    this.#groups.clear();
    return out;
  }

  #groupFor(key: string, row: SourceRow, bound: BoundMapping): SumGroup {
    let group = this.#groups.get(key);
    if (!group) {
      group = {
        bound,
        members: [],
        invalidLine: undefined,
        firstRow: row,
        ids: new Set(),
        hashes: new Set(),
      };
      this.#groups.set(key, group);
    }
    return group;
  }
}

/** A member repeating an earlier one of its key: the same conversionId (when that is not the key), or the same content. */
function repeatedMember(group: SumGroup, key: string, record: ConversionRecord): string | undefined {
  const id = record.conversionId;
  if (id !== undefined && id !== key) {
    if (group.ids.has(id)) return id;
    group.ids.add(id);
    return undefined;
  }
  const hash = contentHash(record);
  if (group.hashes.has(hash)) return id ?? key;
  group.hashes.add(hash);
  return undefined;
}

function negativeAlone(row: SourceRow, bound: BoundMapping, value: number): CheckedRow {
  return invalid(row, [
    {
      column: bound.fields.conversionValue.column,
      value: String(value),
      reason: 'negative value',
      message: `negative value ${value} with no sumBy key to sum it with: refunds are not imported unless allowNegative is set`,
    },
  ]);
}

/** One key's members as one outcome: held back, refused, skipped as refunded, or the summed record. */
function sumGroup(key: string, group: SumGroup, accept: Accept): CheckedRow | SkippedRow {
  if (group.invalidLine !== undefined) {
    // The invalid row is reported (and counted) itself; the others are held back, not sent short.
    return { skipped: 'summed with an invalid row', row: group.firstRow };
  }
  const currencies = new Set(group.members.map((m) => m.record.conversionCurrency));
  if (currencies.size > 1) {
    const listed = [...currencies].join(', ');
    const message = `the rows of ${quote(key)} are one conversion but in several currencies (${listed})`;
    return invalid(group.firstRow, [{ column: '(sumBy)', value: key, reason: 'currency mismatch', message }]);
  }
  const currency = group.members[0]!.record.conversionCurrency;
  const sum = sumOf(group.members, currency);
  // Each row's amount is exact; their sum past 2^53 minor units would be sent inexact (issue 24).
  if (!Number.isSafeInteger(sum)) {
    const message = `the rows of ${quote(key)} sum to more than ${currency} ${exactAmountLimit(currency)}, past what is exact in minor units`;
    return invalid(group.firstRow, [{ column: '(sumBy)', value: key, reason: 'amount too large', message }]);
  }
  let first = firstCapture(group.members);
  if (first === undefined) {
    if (sum < 0) return { skipped: 'refund without its original in the file', row: group.firstRow };
    first = group.members[0]!;
  }
  if (sum < 0 || (sum === 0 && group.members.some((m) => m.record.conversionValue < 0))) {
    return { skipped: 'refunded in full', row: first.row };
  }
  return accept({ ...first.record, conversionValue: fromMinorUnits(sum, currency) }, first.row, group.bound);
}

/** The members' values added in minor units (exact while the total stays a safe integer). */
function sumOf(members: Member[], currency: string): number {
  let sum = 0;
  for (const member of members) sum += toMinorUnits(member.record.conversionValue, currency);
  return sum;
}

/** Dated at the first capture: the earliest member that took money in; undefined when none did. */
function firstCapture(members: Member[]): Member | undefined {
  let first: Member | undefined;
  for (const member of members) {
    if (
      member.record.conversionValue > 0 &&
      (first === undefined || member.record.conversionDatetime < first.record.conversionDatetime)
    ) {
      first = member;
    }
  }
  return first;
}

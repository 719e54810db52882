// The table of per-field checks and its steps on their own: which steps a file's table holds and in what
// order, and what single steps write into the row draft (values, zones, issues named by source column).
import { describe, expect, it } from 'vitest';
import { type MappingInput, mappingSchema } from '../../../src/config/schema.js';
import type { CsvRow, SourceInfo } from '../../../src/input/types.js';
import { bindMapping } from '../../../src/mapping/compile-mapping.js';
import { mergeMapping } from '../../../src/mapping/merge-mapping.js';
import { readCandidate } from '../../../src/record/checks/candidate.js';
import { checkDeductions } from '../../../src/record/checks/deductions.js';
import { type FileRules, resolveFileRules } from '../../../src/record/checks/file-rules.js';
import { newRowDraft, type RowDraft } from '../../../src/record/checks/row-draft.js';
import { checkRowZone, zoneReadable } from '../../../src/record/checks/row-zone.js';
import { rowChecksFor } from '../../../src/record/checks/table.js';
import { checkAmountFits, checkCurrency, checkValue } from '../../../src/record/checks/value.js';

const header = ['Order', 'Email', 'Time', 'Zone', 'Value', 'Currency', 'Refunded'];
const fields = {
  conversionId: 'Order',
  conversionEmail: 'Email',
  conversionDatetime: 'Time',
  conversionTimezone: 'Zone',
  conversionValue: 'Value',
  conversionCurrency: 'Currency',
};

function file(mapping: MappingInput = {}, timezone?: string, parameters?: Record<string, string>) {
  const written = mappingSchema.parse({ ...mapping, fields: { ...fields, ...mapping.fields } });
  const source: SourceInfo = { file: 'in.csv', format: 'csv', encoding: 'utf-8', header, parameters };
  const bound = bindMapping(mergeMapping(undefined, written), source);
  const rules = resolveFileRules(bound, { timezone, currency: undefined, allowNegative: false });
  /** Runs `steps` over one row's candidate and returns the draft they wrote. */
  const run = (
    cells: Record<string, string>,
    ...steps: ((d: RowDraft, c: never, r: FileRules) => void)[]
  ) => {
    const row: CsvRow = { kind: 'csv', source, line: 2, cells: header.map((h) => cells[h] ?? '') };
    const candidate = readCandidate(bound, undefined, row);
    const draft = newRowDraft();
    for (const step of steps) step(draft, candidate as never, rules);
    return draft;
  };
  return { bound, rules, run };
}

describe('rowChecksFor', () => {
  it('runs the money checks first, the instant after its zone, and the visitor link last', () => {
    expect(rowChecksFor(file().bound).map((check) => check.name)).toEqual([
      'checkValue',
      'checkCurrency',
      'checkAmountFits',
      'checkRowZone',
      'checkDatetime',
      'checkEmail',
      'checkExactIds',
      'checkTexts',
      'checkVisitorLink',
    ]);
  });

  it('holds the deductions step only for a mapping with a refunded or unpaid column, after the currency', () => {
    const names = rowChecksFor(file({ refunded: 'Refunded' }).bound).map((check) => check.name);
    expect(names.slice(0, 5)).toEqual([
      'checkValue',
      'checkCurrency',
      'checkAmountFits',
      'checkDeductions',
      'checkRowZone',
    ]);
  });
});

describe('the money steps', () => {
  it('reads the value and takes the currency written next to it when no column gives one', () => {
    const draft = file().run({ Value: '€12.50' }, checkValue, checkCurrency, checkAmountFits);
    expect([draft.value, draft.currency, draft.issues]).toEqual([12.5, 'EUR', undefined]);
  });

  it('names a currency mismatch on the value column, and keeps the column currency', () => {
    const draft = file().run({ Value: '€12.50', Currency: 'USD' }, checkValue, checkCurrency);
    expect(draft.currency).toBe('USD');
    expect(draft.issues).toEqual([
      expect.objectContaining({ column: 'Value', value: '€12.50', reason: 'currency mismatch' }),
    ]);
  });

  it('turns minor units into the amount only once the currency is known', () => {
    const cents = file({ fields: { conversionValue: { column: 'Value', unit: 'minor' } } });
    expect(
      cents.run({ Value: '1250', Currency: 'EUR' }, checkValue, checkCurrency, checkAmountFits).value,
    ).toBe(12.5);
    expect(
      cents.run({ Value: '1250', Currency: 'JPY' }, checkValue, checkCurrency, checkAmountFits).value,
    ).toBe(1250);
  });

  it('reads a refund into the draft, and an unreadable one as an issue on its own column and no value', () => {
    const net = file({ refunded: 'Refunded' });
    const steps = [checkValue, checkCurrency, checkAmountFits, checkDeductions] as const;
    expect(net.run({ Value: '20', Currency: 'EUR', Refunded: '5' }, ...steps)).toMatchObject({
      value: 20,
      refunded: 5,
    });
    const bad = net.run({ Value: '20', Currency: 'EUR', Refunded: 'five' }, ...steps);
    expect(bad.value).toBeUndefined();
    expect(bad.issues).toEqual([expect.objectContaining({ column: 'Refunded', reason: 'invalid number' })]);
  });
});

describe('the row zone step', () => {
  it('reads an abbreviation as an offset and keeps the configured zone for the record', () => {
    const draft = file({}, 'America/Los_Angeles').run({ Zone: 'PDT' }, checkRowZone);
    expect([draft.rowZone, draft.rowAbbreviation?.abbreviation, draft.rowZoneIsOffset]).toEqual([
      'America/Los_Angeles',
      'PDT',
      false,
    ]);
  });

  it('marks a zone read from an offset, and an unknown zone as an issue whose time cannot be read', () => {
    const { rules, run } = file();
    expect(run({ Zone: '-0500' }, checkRowZone)).toMatchObject({
      rowZone: 'Etc/GMT+5',
      rowZoneIsOffset: true,
    });
    const unknown = run({ Zone: 'Mars/Base' }, checkRowZone);
    expect(unknown.issues).toEqual([
      expect.objectContaining({ column: 'Zone', reason: 'unknown time zone' }),
    ]);
    expect(zoneReadable(unknown, rules)).toBe(false);
  });

  it("blames the file's unresolvable Parameters zone only on rows without a zone of their own", () => {
    const { rules, run } = file({}, undefined, { TimeZone: '+0530' });
    const bare = run({}, checkRowZone);
    expect(bare.issues).toEqual([expect.objectContaining({ column: 'Parameters:TimeZone', value: '+0530' })]);
    expect(zoneReadable(bare, rules)).toBe(false);
    const own = run({ Zone: 'Asia/Kolkata' }, checkRowZone);
    expect([own.issues, own.rowZone, zoneReadable(own, rules)]).toEqual([undefined, 'Asia/Kolkata', true]);
  });
});

// The revenue policy a sample suggests beyond its columns: a status column holding money not received
// (keep only the received values), a column of kinds of rows (not every kind a sale), a refund column.

import type { RecordField } from '../record/fields.js';
import { recordFields } from '../record/fields.js';
import { parseAmount } from '../record/money.js';
import { cellsOf, filled } from './cell-tests.js';
import { nameWords } from './name-rules.js';
import type { Candidate, ColumnSample, FieldGuess, MappingGuess, Scored, StatusGuess } from './types.js';

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

/** Rows of several kinds (PayPal's Type): not every kind is a sale, and init cannot tell which. */
export function guessKinds(
  columns: readonly ColumnSample[],
  fields: Record<RecordField, FieldGuess>,
): MappingGuess['kinds'] {
  const chosenColumns = new Set(recordFields.flatMap((f) => fields[f].choice?.columns ?? []));
  const kindColumn = columns.find(
    (c) =>
      !chosenColumns.has(c.name) &&
      /^(type|transaction type|row type|kind|tipo|typ|record type|line type)$/.test(nameWords(c.name)) &&
      new Set(filled(c.cells)).size >= 2 &&
      new Set(filled(c.cells)).size <= 30,
  );
  const kindValues = kindColumn ? [...new Set(filled(kindColumn.cells))] : [];
  return kindColumn && kindValues.some((v) => !saleKind.test(v) || notSaleKind.test(v))
    ? { column: kindColumn.name, values: kindValues }
    : undefined;
}

/** Amounts refunded beside the value: the first refund column with a refund in the sample. */
export function guessRefunded(
  columns: readonly ColumnSample[],
  value: Candidate | undefined,
  all: readonly Scored[],
): string | undefined {
  if (!value) return undefined;
  return all.find(
    (c) =>
      c.field === 'conversionValue' &&
      c.part === 'refund' &&
      filled(cellsOf(columns, c.columns[0])).some((v) => {
        const amount = parseAmount(v, { decimal: c.decimal });
        return amount.ok && amount.value !== 0;
      }),
  )?.columns[0];
}

// The rejections the row path builds itself (malformed rows, policy refusals, duplicates), in the one
// shape every rejection of the stage has.
import type { SourceRow } from '../../input/types.js';
import type { BoundMapping } from '../../mapping/compile-mapping.js';
import { quote } from '../../quote.js';
import type { Issue } from '../../report/rejection.js';
import type { InvalidRow } from './types.js';

export function invalid(row: SourceRow, issues: Issue[]): InvalidRow {
  return {
    ok: false,
    duplicate: false,
    rejection: { file: row.source.file, line: row.line, stage: 'invalid', issues, row },
  };
}

/** A row whose conversionId was already `where` (on an earlier valid row, or summed with it). */
export function duplicateOf(row: SourceRow, bound: BoundMapping, id: string, where: string): InvalidRow {
  return {
    ...invalid(row, [
      {
        column: bound.fields.conversionId.column,
        value: id,
        reason: 'duplicate',
        message: `conversionId ${quote(id)} is already ${where}`,
      },
    ]),
    duplicate: true,
  };
}

/** A row without a conversionId whose record an earlier file of the run had as often (its key is its content). */
export function identicalTo(row: SourceRow): InvalidRow {
  return {
    ...invalid(row, [
      {
        column: '(row)',
        value: '',
        reason: 'duplicate',
        message:
          'the same conversion as a row of an earlier file of this run (no conversionId: a record without one is known by its content)',
      },
    ]),
    duplicate: true,
  };
}

// The user's JS transform (config `transform`) as one step of the row path: it sees the mapped fields
// plus `$row` (the source columns) and returns the fields to validate, null to drop the row, or an error.
import type { SourceRow } from '../../input/types.js';
import { type Candidate, carryDeductions } from '../../record/validate.js';
import { invalid } from './outcome.js';
import type { InvalidRow, SkippedRow } from './types.js';

/** The transform step: the candidate to parse, or what the row became instead (dropped, or the transform failed). */
export function transformStep(
  transform: (row: Record<string, unknown>) => unknown,
  candidate: Candidate,
  row: SourceRow,
): { candidate: Candidate } | SkippedRow | InvalidRow {
  const result = applyTransform(transform, candidate, row);
  if (result === null) return { skipped: 'transform returned null', row };
  if ('error' in result) {
    return invalid(row, [
      { column: '(transform)', value: '', reason: 'transform failed', message: result.error },
    ]);
  }
  result.candidate = carryDeductions(candidate, result.candidate);
  return result;
}

/** The user's transform gets the mapped fields plus `$row` (source columns); null/false drops the row. */
function applyTransform(
  transform: (row: Record<string, unknown>) => unknown,
  candidate: Candidate,
  row: SourceRow,
): { candidate: Candidate } | { error: string } | null {
  const input: Record<string, unknown> = { ...candidate, $row: sourceObject(row) };
  let output: unknown;
  try {
    output = transform(input);
  } catch (error) {
    return { error: `transform threw: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (output === null || output === false) return null;
  if (output === undefined) output = input;
  if (typeof output !== 'object') return { error: 'transform must return an object, null or nothing' };
  const { $row: _ignored, ...fields } = output as Record<string, unknown>;
  return { candidate: fields as Candidate };
}

function sourceObject(row: SourceRow): Record<string, unknown> {
  if (row.kind === 'json') return row.value;
  if (row.kind !== 'csv') return {};
  const out: Record<string, unknown> = {};
  (row.source.header ?? []).forEach((name, i) => {
    out[name] = row.cells[i];
  });
  return out;
}

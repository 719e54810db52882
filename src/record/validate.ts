// Turns one mapped row into a valid wire record or the list of what is wrong with it: the per-field checks
// of checks/table.ts run in order over one reused draft, then settle into the record. Pure but for the
// per-file warnings: the caller passes the bound mapping and the run's defaults.
import type { SourceRow } from '../input/types.js';
import { type Candidate, readCandidate } from './checks/candidate.js';
import { resolveFileRules, type ValidateOptions } from './checks/file-rules.js';
import { newRowDraft, resetRowDraft } from './checks/row-draft.js';
import { settleRow, type ValidateResult } from './checks/settle.js';
import { rowChecksFor } from './checks/table.js';
import type { MappingSource } from './field-source.js';

export { type Candidate, carryDeductions } from './checks/candidate.js';
export { DEFAULT_EARLIEST_MS, type ValidateOptions } from './checks/file-rules.js';
export type { ValidateResult } from './checks/settle.js';

export interface Validator {
  /** Reads the row's mapped values (constants and defaults applied). */
  candidate(row: SourceRow): Candidate;
  check(candidate: Candidate): ValidateResult;
  /** What this file's rows showed that deserves one warning (offsets that contradict the configured zone); then reset. */
  drainWarnings(): string[];
}

/** The validator of one file: its rules and its table of checks are resolved here, once. */
export function createValidator(bound: MappingSource, options: ValidateOptions): Validator {
  const rules = resolveFileRules(bound, options);
  const checks = rowChecksFor(bound);
  // One draft for the file: check() runs to its end before the next row (no await inside).
  const draft = newRowDraft();
  return {
    candidate: (row) => readCandidate(bound, options.currency, row),
    check(candidate) {
      resetRowDraft(draft);
      for (const step of checks) step(draft, candidate, rules);
      return settleRow(draft, candidate, rules);
    },
    drainWarnings: () => rules.warnings.drain(),
  };
}

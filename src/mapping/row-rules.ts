// A preset's (or the user's) row rules bound to one file: skip and keep rules as one test giving the
// reason, sumBy's key, and the `{column | path, in | matches}` matcher they and refunded.ifAbsent share.
import type { KeepRule } from '../config/schema.js';
import { ConfigError } from '../errors.js';
import type { SourceInfo, SourceRow } from '../input/types.js';
import { maskEmail } from '../report/rejection.js';
import type { BoundMapping } from './bound-mapping.js';
import type { MergedMapping } from './merge-mapping.js';
import { ruleSource, sourceGetter } from './source-getter.js';

export function bindSumKey(
  merged: MergedMapping,
  source: SourceInfo,
  index: Map<string, number>,
): BoundMapping['sumKey'] {
  if (merged.sumBy === undefined) return undefined;
  const names = merged.sumBy.map((entry) =>
    typeof entry === 'string' ? entry : (entry.column ?? entry.path!),
  );
  const found = merged.sumBy.map((entry) => {
    const alternatives = typeof entry === 'string' ? [entry] : ruleSource(entry, source);
    const getter = sourceGetter(alternatives, source, index, 'first');
    if (!getter || typeof entry === 'string') return getter && { ...getter, when: undefined };
    // A key used only on the rows `when` accepts; a file without the `when` column never uses it.
    const when = ruleMatcher(entry.when, source, index);
    return when ? { ...getter, when } : undefined;
  });
  const getters = found.filter((g) => g !== undefined);
  // Every key column the user named must be there: a missing Reference Txn ID would leave each refund
  // apart from its payment.
  const missing = names.filter((_, i) => found[i] === undefined);
  if (merged.ruleOrigin.sumBy === 'user' && missing.length > 0 && source.format === 'csv') {
    missingRuleColumn('mapping.sumBy', { column: missing[0] }, source);
  }
  if (getters.length === 0) {
    throw new ConfigError(
      `mapping.sumBy: ${names.map((c) => `"${c}"`).join(' or ')} is not in ${source.file}`,
      { hint: `the header has: ${(source.header ?? []).map((h) => `"${h}"`).join(', ')}` },
    );
  }
  return (row) => {
    for (const getter of getters) {
      if (getter.when && !getter.when.accepts(getter.when.text(row))) continue;
      const text = cellText(getter.get(row));
      if (text !== '') return text;
    }
    return undefined;
  };
}

/**
 * A keep-style rule (`{column | path, in | matches}`): the column's getter and whether a row's text is
 * accepted (`in`: trimmed, any case; `matches`: the regular expression); undefined when the file lacks it.
 * Used by keep rules, sumBy's `when` and refunded's `ifAbsent`.
 */
export function ruleMatcher(
  rule: KeepRule,
  source: SourceInfo,
  index: Map<string, number>,
): { name: string; text: (row: SourceRow) => string; accepts: (text: string) => boolean } | undefined {
  const getter = sourceGetter(ruleSource(rule, source), source, index, 'first');
  if (!getter) return undefined;
  const values = rule.in ? new Set(rule.in.map((v) => v.trim().toLowerCase())) : undefined;
  const pattern = rule.matches === undefined ? undefined : new RegExp(rule.matches, 'iu');
  return {
    name: getter.name,
    text: (row) => cellText(getter.get(row)),
    accepts: (text) => (values ? values.has(text.toLowerCase()) : pattern!.test(text)),
  };
}

export function cellText(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value).trim()
    : '';
}

/**
 * Skip rules (value in the list: skipped) and keep rules (value not in the list, or not matching: skipped)
 * as one test giving the reason, `<column>: <value>`. A rule on a column the file lacks does not apply.
 */
export function bindRowRules(
  merged: MergedMapping,
  source: SourceInfo,
  index: Map<string, number>,
): BoundMapping['skipReason'] {
  const tests: Array<(row: SourceRow) => string | undefined> = [];
  const reason = (name: string, text: string) => `${name}: ${text === '' ? '(empty)' : text}`;
  // Reasons are summary keys: a keep rule on an open-ended column (ids, e-mails) must not make one per
  // row, nor print an address. Past this many values a rule's reasons share one key.
  const maxReasons = 20;
  for (const rule of merged.skip) {
    const getter = sourceGetter(ruleSource(rule, source), source, index, 'first');
    if (!getter) {
      if (merged.ruleOrigin.skip === 'user') missingRuleColumn('mapping.skip', rule, source);
      continue;
    }
    const values = new Set(rule.in.map((v) => v.trim().toLowerCase()));
    tests.push((row) => {
      const text = cellText(getter.get(row));
      return values.has(text.toLowerCase()) ? reason(getter.name, text) : undefined;
    });
  }
  for (const rule of merged.keep) {
    const matcher = ruleMatcher(rule, source, index);
    if (!matcher) {
      if (merged.ruleOrigin.keep === 'user') missingRuleColumn('mapping.keep', rule, source);
      continue;
    }
    const seen = new Set<string>();
    tests.push((row) => {
      const text = matcher.text(row);
      if (matcher.accepts(text)) return undefined;
      if (text === '') return reason(matcher.name, text);
      if (rule.matches !== undefined) return `${matcher.name}: not matching ${rule.matches}`;
      if (!seen.has(text)) {
        if (seen.size >= maxReasons) return `${matcher.name}: other values`;
        seen.add(text);
      }
      return reason(matcher.name, text.includes('@') ? maskEmail(text) : text);
    });
  }
  if (tests.length === 0) return undefined;
  return (row) => {
    for (const test of tests) {
      const why = test(row);
      if (why !== undefined) return why;
    }
    return undefined;
  };
}

/**
 * A rule's column (CSV) that the user named but the file lacks: a config error, since the rule would
 * silently not apply (every row kept, no refund taken off). JSON lines have no header to check against.
 */
export function missingRuleColumn(
  key: string,
  rule: { column?: string | undefined; path?: string | undefined },
  source: SourceInfo,
): void {
  if (source.format !== 'csv') return;
  throw new ConfigError(
    `${key}: column "${rule.column ?? rule.path}" is not in the header of ${source.file}`,
    {
      hint: `the header has: ${(source.header ?? []).map((h) => `"${h}"`).join(', ')}`,
    },
  );
}

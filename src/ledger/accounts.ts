// Targets carried over from ledgers before schema 4 (migrations.ts v4), where a target was a URL plus a
// key: the pure decisions and messages shared by both backends. A URL with several keys that each have
// deliveries cannot be resolved by revimport (one account with a rotated key, or several accounts?), so a
// push to it stops before sending and `revimport ledger assign` lets the user say.

import { ConfigError } from '../errors.js';
import { firstControl } from '../quote.js';
import { targetLabel } from './target.js';
import type { AccountRow } from './types.js';

/** The push stops (exit 2) listing the URL's unresolved targets, and says how to resolve them. */
export function unresolvedTargetsError(baseUrl: string, rows: readonly AccountRow[]): ConfigError {
  const unresolved = rows.filter((row) => row.baseUrl === baseUrl && row.account === null);
  const lines = unresolved.map((row) => `  key ${row.keyFingerprint}: ${describeTarget(row)}`);
  const fingerprints = unresolved.map((row) => row.keyFingerprint).join(' ');
  return new ConfigError(
    `the ledger holds deliveries to ${baseUrl} under ${unresolved.length} different API keys, from before ` +
      `revimport kept one history per account; it cannot tell a rotated key from separate accounts:\n${lines.join('\n')}`,
    {
      hint:
        `If they are one account (a key that was rotated): revimport ledger assign ${baseUrl} ${fingerprints}\n` +
        `If they are separate accounts on one URL: revimport ledger assign ${baseUrl} <key> --account <name> for ` +
        'each, then set `account` (config, --account or REVIMPORT_ACCOUNT) in each push. Nothing was sent.',
    },
  );
}

/**
 * What the first push to a URL with unresolved targets may decide alone: targets without deliveries (a key
 * refused, or only tried) join the URL's one account, or the one target that has deliveries becomes it.
 * Undefined when the user must say (several unresolved targets with deliveries, or several accounts).
 */
export function automaticAssignment(
  rows: readonly AccountRow[],
  baseUrl: string,
): { fingerprints: string[]; account: string } | undefined {
  const ofUrl = rows.filter((row) => row.baseUrl === baseUrl);
  const unresolved = ofUrl.filter((row) => row.account === null);
  const accounts = ofUrl.filter((row) => row.account !== null);
  const delivering = unresolved.filter((row) => row.delivered > 0).length;
  const fingerprints = unresolved.map((row) => row.keyFingerprint!);
  if (unresolved.length === 0 || accounts.length > 1) return undefined;
  if (delivering === 0) return { fingerprints, account: accounts[0]?.account ?? '' };
  if (delivering === 1 && accounts.length === 0) return { fingerprints, account: '' };
  return undefined;
}

/** `12 delivered, 3 outstanding, last used 2026-11-02` */
export function describeTarget(row: AccountRow): string {
  const last =
    row.lastUsed === null || row.lastUsed === 0 ? 'never used' : `last used ${isoDay(row.lastUsed)}`;
  return `${row.delivered} delivered, ${row.outstanding} outstanding, ${last}`;
}

/** One line of `revimport ledger accounts`. */
export function accountLine(row: AccountRow): string {
  const who =
    row.account === null
      ? `${row.baseUrl} (unresolved: key ${row.keyFingerprint})`
      : targetLabel({ baseUrl: row.baseUrl, account: row.account });
  return `${who}: ${describeTarget(row)}`;
}

/**
 * Which of the targets being assigned keeps its id: the account's existing target if there is one,
 * else the one with most deliveries (fewest records to move).
 */
export function survivorOf(chosen: readonly AccountRow[], existing: AccountRow | undefined): AccountRow {
  if (existing) return existing;
  return chosen.reduce((best, row) => (row.delivered > best.delivered ? row : best));
}

/** The unresolved targets of `baseUrl` named by `fingerprints`; a ConfigError for any that is not one. */
export function chosenTargets(
  rows: readonly AccountRow[],
  baseUrl: string,
  fingerprints: readonly string[],
): AccountRow[] {
  const unresolved = rows.filter((row) => row.baseUrl === baseUrl && row.account === null);
  const missing = fingerprints.filter((fp) => !unresolved.some((row) => row.keyFingerprint === fp));
  if (fingerprints.length === 0 || missing.length > 0) {
    const known = unresolved.map((row) => row.keyFingerprint).join(', ') || 'none';
    throw new ConfigError(
      missing.length > 0
        ? `no unresolved target of ${baseUrl} with key ${missing.join(', ')} (unresolved keys: ${known})`
        : `name at least one key of ${baseUrl} to assign (unresolved keys: ${known})`,
      { hint: 'revimport ledger accounts lists the targets and their keys.' },
    );
  }
  return unresolved.filter((row) => fingerprints.includes(row.keyFingerprint!));
}

/** An account name as a setting: printable, no surrounding spaces, at most 100 characters. */
export function checkAccountName(name: string): string | undefined {
  if (name !== name.trim()) return 'must not start or end with spaces';
  if (name.length > 100) return 'must be at most 100 characters';
  if (firstControl(name) >= 0) return 'must not hold control characters';
  return undefined;
}

function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

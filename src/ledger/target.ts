// The scope of ledger entries: one CRM account. A target is the account's base URL plus an account name
// ('' unless one URL serves several accounts), never the key: a rotated key continues the same target
// (issue 19). The key is kept only as a fingerprint, per run, so the ledger never holds the secret and
// `history` shows which key each run used.

import { hash } from 'node:crypto';

/** Where records are delivered. Two keys of one account are one target. */
export interface Target {
  /** The base URL normalized (scheme and host lower-cased, default port dropped), without trailing slashes. */
  readonly baseUrl: string;
  /** '' for the URL's one account; a name where one URL serves several accounts (`account` setting). */
  readonly account: string;
  /** First 16 hex chars of SHA-256(apiKey): names the key used, without revealing it. Not part of the identity. */
  readonly keyFingerprint: string;
}

/** `HTTP://Host:443/` and `https://host` spell one target: otherwise a re-run would resend everything. */
export function targetOf(baseUrl: string, apiKey: string, account = ''): Target {
  return {
    baseUrl: normalizeUrl(baseUrl).replace(/\/+$/, ''),
    account,
    keyFingerprint: keyFingerprint(apiKey),
  };
}

export function keyFingerprint(apiKey: string): string {
  return hash('sha256', apiKey, 'hex').slice(0, 16);
}

/** The target as a person reads it: `https://crm.example` or `https://crm.example (account eu)`. */
export function targetLabel(target: Pick<Target, 'baseUrl' | 'account'>): string {
  return target.account === '' ? target.baseUrl : `${target.baseUrl} (account ${target.account})`;
}

function normalizeUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

// The scope of ledger entries: one CRM endpoint and one API key. The key is reduced to a
// fingerprint so the ledger file never holds the secret.

import { hash } from 'node:crypto';

/** Where records are delivered. Two keys on the same URL are separate targets (separate accounts). */
export interface Target {
  /** The base URL normalized (scheme and host lower-cased, default port dropped), without trailing slashes. */
  readonly baseUrl: string;
  /** First 16 hex chars of SHA-256(apiKey): identifies the key without revealing it. */
  readonly keyFingerprint: string;
}

/** `HTTP://Host:443/` and `https://host` spell one target: otherwise a re-run would resend everything. */
export function targetOf(baseUrl: string, apiKey: string): Target {
  return {
    baseUrl: normalizeUrl(baseUrl).replace(/\/+$/, ''),
    keyFingerprint: hash('sha256', apiKey, 'hex').slice(0, 16),
  };
}

function normalizeUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

// Content-derived Idempotency-Key: the same body (every retry, or a crash-resent batch with the same
// records in the same order) always carries the same key, so a server that honours keys stores it once.
import { createHash } from 'node:crypto';

/** Hex SHA-256 of the exact request body: its bytes, or a string as UTF-8 (the same key for the same body). */
export function idempotencyKey(body: string | Uint8Array): string {
  const hash = createHash('sha256');
  if (typeof body === 'string') hash.update(body, 'utf8');
  else hash.update(body);
  return hash.digest('hex');
}

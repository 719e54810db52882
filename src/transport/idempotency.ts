// Content-derived Idempotency-Key: the same body (every retry, or a crash-resent batch with the same
// records in the same order) always carries the same key, so a server that honours keys stores it once.
import { createHash } from 'node:crypto';

/** Hex SHA-256 of the exact request body. */
export function idempotencyKey(body: string): string {
  return createHash('sha256').update(body, 'utf8').digest('hex');
}

// A span digest for the ledger's tests, which store and compare digests and never make one from records:
// 32 hex characters that differ for other keys, contents or order (the real one: SpanContent, delivered-spans.ts).
import { createHash } from 'node:crypto';

export function spanDigest(records: readonly { key: string; contentHash: string }[]): string {
  return createHash('sha256').update(JSON.stringify(records)).digest('hex').slice(0, 32);
}

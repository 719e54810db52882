// How the deliverer reports the fate of records: counters plus the caller's hooks, each item exactly
// once. A hook that throws (a failed ledger write) is handed to `onHookError`, which stops the run.
import type { DeliveryHooks, DeliveryStats } from './deliver-types.js';
import { maskKey } from './mask-key.js';
import { type RecordBytes, recordJson } from './record-json.js';

/** One record, serialized once when pushed: its JSON's bytes in a chunk shared with others (record-json.ts). */
export interface Part<T> extends RecordBytes {
  item: T;
}

/** One distinct body to deliver. */
export interface Job<T> {
  parts: Part<T>[];
  /** A half of a body that got 413: its success sets the batch size for the rest of the run. */
  fromTooLarge: boolean;
  /**
   * Part of a body refused with a non-JSON answer after a lone record of it got through: the content
   * matters, so it is bisected instead of probed again (send-body.ts probeOne).
   */
  probed?: boolean;
}

export const emptyStats = (): DeliveryStats => ({
  batches: 0,
  requests: 0,
  retries: 0,
  splits: 0,
  delivered: 0,
  rejected: 0,
  failed: 0,
  abandoned: 0,
});

export type Outcomes<T> = ReturnType<typeof createOutcomes<T>>;

export function createOutcomes<T>(
  hooks: DeliveryHooks<T>,
  stats: DeliveryStats,
  apiKey: string,
  onHookError: (error: Error) => void,
) {
  const itemsOf = (parts: Part<T>[]): T[] => parts.map((part) => part.item);
  // A server may echo what it was sent; its words end up in rejects files and logs.
  const redact = (text: string) => maskKey(text, apiKey);

  function call(hook: () => void): void {
    try {
      hook();
    } catch (error) {
      onHookError(error instanceof Error ? error : new Error(String(error)));
    }
  }

  return {
    call,
    /** Calls beforeSend; a promise it returns is handed back, its rejection stopping the run like a throw. */
    announce(parts: Part<T>[], key: string, body: Uint8Array): Promise<void> | undefined {
      let written: Promise<void> | undefined;
      call(() => {
        written =
          hooks.beforeSend?.(itemsOf(parts), key, (index) => recordJson(parts[index]!), body) ?? undefined;
      });
      return written?.then(undefined, (error: unknown) => {
        onHookError(error instanceof Error ? error : new Error(String(error)));
      });
    },
    delivered(parts: Part<T>[], status: number, key: string): void {
      stats.delivered += parts.length;
      call(() => hooks.onDelivered?.(itemsOf(parts), { status, idempotencyKey: key }));
    },
    rejected(parts: Part<T>[], status: number, message: string): void {
      stats.rejected += parts.length;
      call(() => hooks.onRejected?.(itemsOf(parts), { status, message: redact(message) }));
    },
    failed(parts: Part<T>[], reason: string): void {
      stats.failed += parts.length;
      call(() => hooks.onFailed?.(itemsOf(parts), { reason }));
    },
    abandoned(parts: Part<T>[]): void {
      if (parts.length === 0) return;
      stats.abandoned += parts.length;
      call(() => hooks.onAbandoned?.(itemsOf(parts)));
    },
  };
}

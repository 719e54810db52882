// A worker thread of worker-ledger.ts: its own connection to the ledger file, running the calls a run sends
// it one after another, in the order they were sent, and answering each with its result or error.
import { parentPort, workerData } from 'node:worker_threads';
import { collectGarbage } from '../collect-garbage.js';
import { fillHashes } from './journal-draft.js';
import { type JournalSlot, slotParts } from './journal-slots.js';
import { type Lease, leaseGuard, renewalEveryMs, renewOnTimer } from './lease.js';
import { openLedger, writerCacheKiB } from './ledger.js';

/** A call from the main thread: a method of Ledger (`close` ends the worker) and its arguments. */
export interface WorkerCall {
  readonly id: number;
  readonly method: string;
  readonly args: unknown[];
}

const port = parentPort!;
const { path, reader, lease } = workerData as { path: string; reader?: boolean; lease?: Lease };
// A reader (lookups) opens without the lock: no migration, no merge; the writer and the run own those. The
// writer checks the run lock's lease before each write (a memory read; a file only when renewals stalled).
const ledger = openLedger(path, {
  withoutLock: reader === true,
  ...(lease && !reader ? { guard: leaseGuard(lease) } : {}),
  ...(reader ? {} : { cacheKiB: writerCacheKiB }),
});
const methods = ledger as unknown as Record<string, (...args: unknown[]) => unknown>;
// The writer renews the run lock's lease between its calls, as the main thread does (lock.ts handOver): while
// a merge keeps this thread, the main thread renews; while the main thread is busy, this one does.
if (lease && !reader) renewOnTimer(lease, renewalEveryMs(lease));

port.on('message', (call: WorkerCall) => {
  if (call.method === 'close') {
    // The port closes whatever the close did, or the thread would keep the process alive; the answer goes out
    // first. A failed close (the final merge: a full disk, a lost lock) answered after the port closed was
    // dropped, and the run reported "its worker thread ended (exit code 0)" instead of the cause.
    try {
      answer(call.id, () => ledger.close());
    } finally {
      port.close();
    }
    return;
  }
  if (call.method === 'journalSlot') {
    // A journal row in a buffer moved here (journal-slots.ts): its drafted hashes taken (journal-draft.ts), written,
    // then moved back to be used again.
    const [targetId, runId, idempotencyKey, size, slot] = call.args as [
      number,
      number,
      string,
      number,
      JournalSlot,
    ];
    const { body, keys, draft } = slotParts(slot);
    const write = () => {
      if (draft) fillHashes(keys, draft.content, draft.table);
      return {
        id: ledger.journalPacked(targetId, runId, idempotencyKey, size, keys, body),
        buffer: slot.buffer,
      };
    };
    answer(call.id, write, [slot.buffer]);
    return;
  }
  answer(call.id, () => methods[call.method]!.apply(ledger, call.args));
  collectAfterMerge();
});

/** Posts what `run` returned (moving `transfer` with it), or the error it threw. */
function answer(id: number, run: () => unknown, transfer?: ArrayBuffer[]): void {
  let result: unknown;
  try {
    result = run();
  } catch (error) {
    const { name, message, stack } = error instanceof Error ? error : new Error(String(error));
    // The code (SQLITE_FULL...) tells a full disk from a bug on the other side (storage-error.ts).
    const code = (error as { code?: unknown }).code;
    port.postMessage({ id, error: { name, message, stack, ...(typeof code === 'string' ? { code } : {}) } });
    return;
  }
  port.postMessage({ id, result }, transfer);
}

let mergesCollected = 0;

/**
 * A full collection once the answer is out, when the call merged (not at `close`: the thread ends then): a merge
 * leaves the key filter's newest segment and the pages it was read from unreachable (2-4 MiB each at 2-5M keys),
 * and this thread's small heap allocates too little after it for V8 to collect them soon: the writer's ArrayBuffers
 * stood at 11-15 MiB through the second half of a 5M-row push (issue 23).
 */
function collectAfterMerge(): void {
  if (ledger.merges === mergesCollected) return;
  mergesCollected = ledger.merges;
  collectGarbage();
}

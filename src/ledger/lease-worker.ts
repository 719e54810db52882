// The thread renewing a held lock's lease (lease.ts) every `everyMs`, whatever the main thread is busy with (a
// merge of a million records keeps it for seconds), until the lock is released or found lost.
import { workerData } from 'node:worker_threads';
import { type Lease, renewLease, waitForStop } from './lease.js';

const { lease, everyMs } = workerData as { lease: Lease; everyMs: number };

while (!waitForStop(lease, everyMs)) {
  try {
    if (renewLease(lease) === 'lost') break;
  } catch {
    // A write that failed (a full disk, an I/O error) is tried again at the next tick. If the lease lapses
    // meanwhile, the guard before the next ledger write renews it itself or stops the run.
  }
}

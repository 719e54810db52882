// The row thread (issue 23): reads the run's files, checks every row and, for a push, hashes and serialises
// each valid record, handing the main thread packed batches (batch-codec.ts) while it keeps the ledger and
// the network. The same steps as on the main thread (check-files.ts); only where the outcomes go differs.
import { parentPort, workerData } from 'node:worker_threads';
import { recordIdentity } from '../../ledger/record-key.js';
import { recordDay } from '../../record/local-day.js';
import { checkFiles } from '../check-files.js';
import { headerMatcher } from '../checked-rows.js';
import { settleDateOrders } from '../date-order.js';
import { createRunChecker, openRunLookup } from '../run-checker.js';
import { runReader } from '../run-reader.js';
import { BatchWriter, type TakenOutcome } from './batch-codec.js';
import type { RowThreadData, ToMain, ToRows } from './messages.js';
import { sendError } from './thread-error.js';

/** Outcomes per batch. */
const BATCH_OUTCOMES = 512;
/** Batches posted and not yet taken by the main thread: bounds what waits in memory (~2,000 rows). */
const BATCHES_AHEAD = 4;

const port = parentPort!;
const data = workerData as RowThreadData;
const stop = new AbortController();
let ahead = 0;
let room: (() => void) | undefined;

port.on('message', (message: ToRows) => {
  if (message.type === 'stop') stop.abort();
  if (message.type === 'taken') {
    ahead--;
    room?.();
    room = undefined;
  }
});

const writer = new BatchWriter();
const summary = { rowsRead: 0, folded: 0 };
const counts = () => ({ rowsRead: summary.rowsRead, folded: summary.folded });

/** Posts the batch so far; waits while BATCHES_AHEAD are not taken yet. */
async function post(): Promise<void> {
  if (writer.empty) return;
  const batch = writer.take();
  port.postMessage({ type: 'batch', batch } satisfies ToMain, [
    batch.ends.buffer as ArrayBuffer,
    batch.nums.buffer as ArrayBuffer,
  ]);
  ahead++;
  while (ahead >= BATCHES_AHEAD && !stop.signal.aborted)
    await new Promise<void>((resolve) => (room = resolve));
}

async function run(): Promise<void> {
  const { settings, files, wallNow, wire } = data;
  const signal = stop.signal;
  const warn = (message: string) => writer.warn(message, false);
  const hooks = {
    onWarning: (message: string) => writer.warn(message, true),
    onBytesRead: (bytes: number) => writer.bytes(bytes),
    onFileStart: (file: string) => writer.fileStart(file),
    onFileDone: (file: string, rows: number) => writer.fileDone(file, rows, counts()),
  };
  const lookup = await openRunLookup(settings, signal, warn);
  try {
    const check = createRunChecker(settings, lookup, () => wallNow, {
      warn,
      notePreset: (file, preset) => writer.preset(file, preset),
    });
    const reader = runReader(settings, headerMatcher(settings.mapping), { signal }, hooks);
    const inputs = await settleDateOrders(files, {
      open: reader.open,
      readOnce: reader.readOnce,
      mapping: settings.mapping,
      lookup,
      useFormats: (file, formats) => check.useDateFormats(file, formats),
      warn,
    });
    const take = (outcome: TakenOutcome) => {
      if ('ok' in outcome && outcome.ok) {
        const record = outcome.record;
        outcome.day = recordDay(record.conversionDatetime, record.conversionTimezone);
        if (wire) {
          const { key, contentHash } = recordIdentity(record);
          outcome.wire = { key, contentHash, json: JSON.stringify(record) };
        }
      }
      writer.outcome(outcome, counts());
      return writer.outcomes >= BATCH_OUTCOMES ? post() : undefined;
    };
    await checkFiles(files, {
      inputs,
      reader,
      check,
      take,
      tally: { summary, warn, pendingWrites: [] },
      hooks,
      signal,
    });
    writer.end(counts());
    await post();
  } finally {
    lookup?.close();
  }
}

run().then(
  () => port.postMessage({ type: 'done' } satisfies ToMain),
  (error: unknown) => port.postMessage({ type: 'error', error: sendError(error) } satisfies ToMain),
);

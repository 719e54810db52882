// The row thread (issue 23): reads the run's files, checks every row, computes each valid record's local day
// and, for a push, its content hash and key, handing the main thread packed batches (batch-codec.ts) while it
// keeps the ledger and the network. The same steps as on the main thread (read-files.ts); only where the
// outcomes go differs.
import { parentPort, workerData } from 'node:worker_threads';
import { contentHash } from '../../ledger/record-key.js';
import { recordDay } from '../../record/local-day.js';
import { readAndCheck } from '../read-files.js';
import { BatchWriter, type TakenOutcome } from './batch-codec.js';
import type { RowThreadData, ToMain, ToRows } from './messages.js';
import { sendError } from './thread-error.js';

/** Outcomes per batch. */
const BATCH_OUTCOMES = 512;
/** Batches posted and not yet taken by the main thread: bounds what waits in memory (~2,000 rows). */
const BATCHES_AHEAD = 4;

const port = parentPort!;
const data = workerData as RowThreadData;
let ahead = 0;
let room: (() => void) | undefined;

// A batch taken frees room. A stopped run ends this thread (Worker.terminate): nothing here needs closing
// first, the lookup table's connection is closed with the thread.
port.on('message', (message: ToRows) => {
  if (message.type === 'taken') {
    ahead--;
    room?.();
    room = undefined;
  }
});

const writer = new BatchWriter();
const summary = { rowsRead: 0, folded: 0 };

/** Hands the batch so far to the main thread, its typed arrays transferred. */
function send(): void {
  const batch = writer.take();
  port.postMessage({ type: 'batch', batch } satisfies ToMain, [
    batch.ends.buffer as ArrayBuffer,
    batch.nums.buffer as ArrayBuffer,
  ]);
}

/** Posts the batch so far; waits while BATCHES_AHEAD are not taken yet. */
async function post(): Promise<void> {
  if (writer.empty) return;
  send();
  ahead++;
  while (ahead >= BATCHES_AHEAD) await new Promise<void>((resolve) => (room = resolve));
}

async function run(): Promise<void> {
  const { settings, files, wallNow, wire } = data;
  const hooks = {
    onWarning: (message: string) => writer.warn(message, true),
    onBytesRead: (bytes: number) => writer.bytes(bytes),
    onFileStart: (file: string) => writer.fileStart(file),
    onFileDone: (file: string, rows: number) => writer.fileDone(file, rows, summary),
  };
  const tally = {
    summary,
    warn: (message: string) => writer.warn(message, false),
    notePreset: (file: string, preset: string) => writer.preset(file, preset),
    pendingWrites: [],
  };
  const take = (outcome: TakenOutcome) => {
    // The counts as they stand: the writer copies them into the batch at once (no object per row). A CSV row's
    // key is not made here: the main thread makes it again from the id and the hash (batch-codec.ts).
    if ('ok' in outcome && outcome.ok) {
      const record = outcome.record;
      const day = recordDay(record.conversionDatetime, record.conversionTimezone);
      writer.outcome(outcome, summary, day, wire ? (outcome.contentHash ?? contentHash(record)) : undefined);
    } else writer.outcome(outcome, summary);
    return writer.outcomes >= BATCH_OUTCOMES ? post() : undefined;
  };
  // No signal of its own: a stopped run terminates this thread.
  await readAndCheck(
    settings,
    files,
    { wallClock: () => wallNow },
    { take, tally, hooks, signal: undefined, onSums: () => writer.sums() },
  );
  writer.end(summary);
  await post();
}

run().then(
  () => port.postMessage({ type: 'done' } satisfies ToMain),
  (error: unknown) => {
    // The rows taken before the error go first, as on the main thread, whose read loop takes each row before
    // the next one can fail (a later file no preset reads): the last batch's rows went uncounted (review).
    if (!writer.empty) send();
    port.postMessage({ type: 'error', error: sendError(error) } satisfies ToMain);
  },
);

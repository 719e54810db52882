// What the main thread and the row thread say to each other (row-worker.ts, row-thread.ts).
import type { Settings } from '../../config/settings.js';
import type { PackedBatch } from './batch-codec.js';
import type { SentError } from './thread-error.js';

/** The settings the row path reads: plain data, copied to the thread. */
export type RowSettings = Pick<
  Settings,
  | 'mapping'
  | 'lookupPath'
  | 'limits'
  | 'format'
  | 'delimiter'
  | 'encoding'
  | 'transform'
  | 'timezone'
  | 'currency'
  | 'allowNegative'
  | 'refunds'
  | 'earliestMs'
  | 'futureMs'
>;

/** Where a run's rows are read: `on` the row thread, `off` the main thread, `auto` by the inputs (row-thread.ts). */
export type RowThreadMode = 'on' | 'off';

export interface RowThreadData {
  settings: RowSettings;
  files: string[];
  /** The wall clock at the run's start, read on the main thread (tests set it). */
  wallNow: number;
  /** A push: each valid record's key, content hash and JSON computed on the row thread. */
  wire: boolean;
}

/** A batch taken: the row thread may post another (it keeps a few ahead). */
export type ToRows = { type: 'taken' };

export type ToMain =
  | { type: 'batch'; batch: PackedBatch }
  | { type: 'done' }
  | { type: 'error'; error: SentError };

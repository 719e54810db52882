// How a run reads its input files: one set of read options for all of them, the bytes read counted for
// the display, and each file's SourceInfo (its header) kept for the file's end.
import type { Settings } from '../config/settings.js';
import { readRowBatches, readRows } from '../input/read-rows.js';
import type { SourceInfo, SourceRow } from '../input/types.js';
import type { HeaderMatcher } from './checked-rows.js';
import type { PipelineHooks } from './hooks.js';

export interface RunReader {
  /** The run's reading of a file: bytes counted, its SourceInfo kept. */
  open(file: string): AsyncGenerator<SourceRow>;
  /** open, a chunk's rows at a time (the read loop: check-files.ts). */
  openBatches(file: string): AsyncGenerator<SourceRow[]>;
  /** A reading of a file for one pass alone (its day/month order: date-order.ts). */
  readOnce(file: string): AsyncGenerator<SourceRow>;
  /** The SourceInfo of a file opened, once its format is known. */
  source(file: string): SourceInfo | undefined;
}

export function runReader(
  settings: Pick<Settings, 'format' | 'delimiter' | 'encoding' | 'limits'>,
  isHeader: HeaderMatcher,
  io: { stdin?: NodeJS.ReadableStream | undefined; signal?: AbortSignal | undefined },
  hooks: Pick<PipelineHooks, 'onWarning' | 'onBytesRead'>,
): RunReader {
  let bytesRead = 0;
  const onBytes = (bytes: number) => {
    bytesRead += bytes;
    hooks.onBytesRead?.(bytesRead);
  };
  const sources = new Map<string, SourceInfo>();
  const readOptions = {
    format: settings.format,
    delimiter: settings.delimiter,
    encoding: settings.encoding,
    isHeader,
    expectedHeader: isHeader.expected,
    stdin: io.stdin,
    signal: io.signal,
    maxFieldBytes: settings.limits.maxRowBytes,
    maxGzipRatio: settings.limits.maxGzipRatio,
  };
  const counted = (file: string) => ({
    ...readOptions,
    onWarning: hooks.onWarning,
    onSource: (info: SourceInfo) => sources.set(file, info),
    onBytes,
  });
  return {
    open: (file) => readRows(file, counted(file)),
    openBatches: (file) => readRowBatches(file, counted(file)),
    readOnce: (file) => readRows(file, readOptions),
    source: (file) => sources.get(file),
  };
}

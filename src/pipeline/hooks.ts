// Optional callbacks through which the core reports progress. They only drive display: the Summary
// returned by the pipeline is the source of truth.
import type { ConversionRecord } from '../record/fields.js';
import type { Rejection } from '../report/rejection.js';

export interface RequestInfo {
  status?: number;
  error?: string;
  durationMs: number;
  records: number;
  attempt: number;
}

export interface PipelineHooks {
  onFileStart?(file: string): void;
  onFileDone?(file: string, rows: number): void;
  onPreset?(file: string, preset: string): void;
  onRowRead?(rowsRead: number): void;
  /** Bytes read from the input files so far in this run (compressed bytes for gzip), after each chunk. */
  onBytesRead?(bytesRead: number): void;
  onInvalid?(rejection: Rejection): void;
  /** A record ready to send (after summing and the duplicate check), with the file and line it came from. */
  onValid?(record: ConversionRecord, file: string, line: number): void;
  /** Records of this run delivered (not those of earlier runs resent first: onResentDelivered). */
  onDelivered?(count: number): void;
  /** Records of earlier runs resent first and delivered now: not rows of this run. */
  onResentDelivered?(count: number): void;
  onRequest?(info: RequestInfo): void;
  /** `retryAfterMs`: the wait the server asked for (Retry-After), when it named one. */
  onRetry?(info: {
    attempt: number;
    delayMs: number;
    reason: string;
    status?: number;
    retryAfterMs?: number;
  }): void;
  onWarning?(message: string): void;
}

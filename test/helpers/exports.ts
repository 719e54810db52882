// Synthetic exports and configs for the end-to-end tests: N rows with conversionIds "1".."N", a config
// mapping them, and the environment a push needs (receiver, key, temp ledger).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AcceptedRecord } from '../../src/testing/receiver.js';

export const header = 'Order ID,Visitor ID,Amount,Currency,Time';

/** The config every generated export is read with (times carry `Z`; the zone is this default). */
export const exportConfig = {
  timezone: 'Europe/Berlin',
  mapping: {
    fields: {
      conversionId: 'Order ID',
      serviceId: 'Visitor ID',
      conversionValue: 'Amount',
      conversionCurrency: 'Currency',
      conversionDatetime: 'Time',
    },
  },
} as const;

/** One row's cells; ids are 1-based and become the conversionId. */
export function rowCells(id: number, valueFor: (id: number) => string = defaultValue): string[] {
  const time = new Date(Date.UTC(2024, 4, 1) + id * 1000).toISOString();
  return [String(id), `v-${id}`, valueFor(id), 'EUR', time];
}

export const defaultValue = (id: number): string => `${id % 100}.${String(id % 97).padStart(2, '0')}`;

/** What the receiver must hold for a generated row. */
export function expectedRecord(id: number, valueFor: (id: number) => string = defaultValue) {
  return {
    conversionId: String(id),
    serviceId: `v-${id}`,
    conversionValue: Number(valueFor(id)),
    conversionCurrency: 'EUR',
    conversionDatetime: new Date(Date.UTC(2024, 4, 1) + id * 1000).toISOString(),
    conversionTimezone: 'Europe/Berlin',
  };
}

export interface ExportOptions {
  /** First id (default 1). */
  from?: number;
  /** Last id, inclusive. */
  to: number;
  /** Ids whose value is made invalid (negative). */
  invalid?: readonly number[];
  valueFor?: (id: number) => string;
}

/** The CSV text of rows `from..to`, header first (row of id k is on line k - from + 2). */
export function exportCsv(options: ExportOptions): string {
  const bad = new Set(options.invalid ?? []);
  const lines = [header];
  for (let id = options.from ?? 1; id <= options.to; id++) {
    const cells = rowCells(id, options.valueFor);
    if (bad.has(id)) cells[2] = '-5.00';
    lines.push(cells.join(','));
  }
  return `${lines.join('\n')}\n`;
}

export function writeExport(dir: string, name: string, options: ExportOptions): string {
  const file = path.join(dir, name);
  writeFileSync(file, exportCsv(options));
  return file;
}

/** Writes revimport.config.json (plus `extra` keys) into `dir`; returns its path. */
export function writeConfig(dir: string, extra: Record<string, unknown> = {}): string {
  const file = path.join(dir, 'revimport.config.json');
  writeFileSync(file, JSON.stringify({ ...exportConfig, ...extra }, null, 2));
  return file;
}

/** The environment of a push against `url` with `key`, the ledger at `state`. */
export function pushEnv(url: string, key: string, state: string): Record<string, string> {
  return { REVIMPORT_BASE_URL: url, REVIMPORT_API_KEY: key, REVIMPORT_STATE: state };
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** The conversionIds the receiver stored, as numbers, sorted (duplicates kept). */
export function acceptedIds(accepted: readonly AcceptedRecord[]): number[] {
  return accepted.map((a) => Number(a.record.conversionId)).sort((a, b) => a - b);
}

/** Ids stored more than once, with how many copies. */
export function repeats(accepted: readonly AcceptedRecord[]): Map<string, AcceptedRecord[]> {
  const byId = new Map<string, AcceptedRecord[]>();
  for (const a of accepted) {
    const id = String(a.record.conversionId);
    byId.set(id, [...(byId.get(id) ?? []), a]);
  }
  return new Map([...byId].filter(([, copies]) => copies.length > 1));
}

/** The keys every --json summary carries (README, issues 2, 3 and 13). */
export const summaryKeys = [
  'runId',
  'startedAt',
  'finishedAt',
  'version',
  'target',
  'exitCode',
  'ledger',
  'firstRunOnLedger',
  'rowsRead',
  'folded',
  'valid',
  'invalid',
  'knownInvalid',
  'knownRefused',
  'knownReportedIn',
  'skipped',
  'skippedReasons',
  'sent',
  'rejected',
  'duplicates',
  'alreadySent',
  'changed',
  'changedDifference',
  'adjusted',
  'retried',
  'retriedSent',
  'retriedRejected',
  'retriedFailed',
  'retriedPending',
  'failed',
  'pending',
  'notSent',
  'unrecorded',
  'batches',
  'requests',
  'durationMs',
  'totals',
  'errors',
  'presets',
  'warnings',
  'guard',
  'check',
] as const;

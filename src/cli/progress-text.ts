// The progress display's words, pure: the spinner's frame, the share of the input read, the ETA, and the
// periodic line a log gets.

/** The counters a progress line is made of. */
export interface ProgressSnapshot {
  rows: number;
  delivered: number;
  /** Bytes read from the inputs (compressed bytes for gzip). */
  bytesRead: number;
  inputBytes: number | undefined;
  elapsedMs: number;
}

/**
 * The share of the input read (percent, floored) and the seconds left at the rate so far: the share only when
 * the size is known, the ETA only after a second (a rate from one chunk is noise) and while reading goes on.
 */
export function readShare(s: ProgressSnapshot): { percent?: number; etaSeconds?: number } {
  if (!s.inputBytes) return {};
  const percent = Math.min(100, Math.floor((100 * s.bytesRead) / s.inputBytes));
  if (s.bytesRead <= 0 || s.bytesRead >= s.inputBytes || s.elapsedMs < 1000) return { percent };
  const etaSeconds = Math.ceil(((s.elapsedMs / 1000) * (s.inputBytes - s.bytesRead)) / s.bytesRead);
  return { percent, etaSeconds };
}

/** `1 h 5 min`, `3 min 20 s`, `12 s`. */
export function formatEta(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

/** The spinner's tail: `, 45% read, ETA 12 s`; empty when the size is unknown. */
export function readShareText(s: ProgressSnapshot): string {
  const { percent, etaSeconds } = readShare(s);
  if (percent === undefined) return '';
  return `, ${percent}% read${etaSeconds === undefined ? '' : `, ETA ${formatEta(etaSeconds)}`}`;
}

/** The periodic line without a terminal: `progress: 120000 rows read (45%), 80000 delivered, 21000 rows/s, ETA 12 s`. */
export function progressLine(s: ProgressSnapshot): string {
  const { percent, etaSeconds } = readShare(s);
  const rate = Math.round(s.rows / Math.max(s.elapsedMs / 1000, 0.001));
  const share = percent === undefined ? '' : ` (${percent}%)`;
  const eta = etaSeconds === undefined ? '' : `, ETA ${formatEta(etaSeconds)}`;
  return `progress: ${s.rows} rows read${share}, ${s.delivered} delivered, ${rate} rows/s${eta}`;
}

/** What the display counts while a run goes on (kept by the hooks, one object per run). */
export interface ProgressCounts {
  rows: number;
  bytesRead: number;
  delivered: number;
  /** Records of earlier runs resent and delivered: shown apart, they are not rows read by this run. */
  resent: number;
  invalid: number;
  rejected: number;
}

/** The spinner's frame: `120 rows read, 80 delivered, 0 rejected, 2 invalid, 400 rows/s, 45% read, ETA 12 s`. */
export function spinnerText(counts: ProgressCounts, s: ProgressSnapshot): string {
  const seconds = Math.max(s.elapsedMs / 1000, 0.001);
  const earlier = counts.resent > 0 ? `, ${counts.resent} resent from earlier runs` : '';
  return `${counts.rows} rows read, ${counts.delivered} delivered, ${counts.rejected} rejected, ${counts.invalid} invalid${earlier}, ${Math.round(counts.rows / seconds)} rows/s${readShareText(s)}`;
}

// The pipeline hooks behind the progress display: they count what the run reports, redraw the spinner, and
// say what the user must see (a preset chosen, a long wait the server asked for, each request with --verbose).
import { STATUS_CODES } from 'node:http';
import type { PipelineHooks } from '../pipeline/hooks.js';
import type { Display } from './progress-display.js';
import type { ProgressCounts } from './progress-text.js';
import { counted } from './render.js';

export type OutputMode = 'quiet' | 'normal' | 'verbose';

/** A wait the server asks for (Retry-After) longer than this is announced, also without --verbose. */
export const announceWaitAfterMs = 2000;

/** What the hooks drive: the run's counts, the display, and the spinner's redraw from the counts. */
export interface ProgressParts {
  counts: ProgressCounts;
  display: Display;
  update(): void;
}

export function progressHooks(parts: ProgressParts, mode: OutputMode, now: () => number): PipelineHooks {
  const { counts, display, update } = parts;
  const talks = mode !== 'quiet';
  return {
    onFileStart(file) {
      display.show(`reading ${file}`);
    },
    onFileDone(file, count) {
      if (talks && !display.spinning) display.line(`${file}: ${counted(count, 'row')}`);
    },
    onPreset(file, preset) {
      if (talks) display.say(`${file}: preset ${preset}`);
    },
    onRowRead(count) {
      counts.rows = count;
      update();
    },
    onBytesRead(count) {
      counts.bytesRead = count;
    },
    onInvalid(rejection) {
      if (rejection.stage === 'invalid') counts.invalid++;
      // Refused by the server only: a failed body or a row changed since delivered is not a rejection.
      else if (rejection.stage === 'rejected') counts.rejected++;
    },
    onDelivered(count) {
      counts.delivered += count;
      update();
    },
    onResentDelivered(count) {
      counts.resent += count;
      update();
    },
    onRequest(info) {
      if (mode !== 'verbose') return;
      const outcome = info.status === undefined ? (info.error ?? 'error') : String(info.status);
      display.say(
        `POST /api/revenues ${counted(info.records, 'record')}: ${outcome} in ${Math.round(info.durationMs)} ms (attempt ${info.attempt})`,
      );
    },
    onRetry: retryNotes(display, mode, now),
    onWarning(message) {
      if (talks) display.say(`warning: ${message}`);
    },
  };
}

/**
 * What a retry says: each one with --verbose, and a wait the server asked for longer than
 * announceWaitAfterMs also without it. Every worker that got the 429 reports the same wait: one line per
 * wait, not one per request.
 */
function retryNotes(display: Display, mode: OutputMode, now: () => number): PipelineHooks['onRetry'] {
  let announcedUntil = 0;
  return (info) => {
    if (mode === 'verbose')
      display.say(`retry ${info.attempt} in ${Math.round(info.delayMs)} ms: ${info.reason}`);
    const asked = info.retryAfterMs;
    if (mode === 'quiet' || asked === undefined || asked <= announceWaitAfterMs) return;
    const until = now() + asked;
    if (until <= announcedUntil + 1000) return;
    announcedUntil = until;
    const status =
      info.status === undefined ? info.reason : `${info.status} ${STATUS_CODES[info.status] ?? ''}`;
    display.say(`server asked to wait ${Math.ceil(asked / 1000)} s (${status.trim()}); waiting`);
  };
}

// The life of one body: wait for its turn, send it, and act on the answer: deliver, reject, split,
// stop the run, or retry the same bytes (same Idempotency-Key) until its time budget, or the optional
// count, is spent.
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { AuthError, ConfigError, DeliveryError } from '../errors.js';
import { type BackoffOptions, backoffDelay } from './backoff.js';
import { classify, serverMessage } from './classify.js';
import { type PostResponse, postBatch, TransportError } from './client.js';
import type { DeliveryHooks, DeliveryStats } from './deliver-types.js';
import { idempotencyKey } from './idempotency.js';
import type { Job, Outcomes, Part } from './outcomes.js';
import type { Pacing } from './pacing.js';
import { proxyFailure } from './proxy.js';
import { setupError } from './setup-errors.js';

const timeoutCodes = new Set([
  'ETIMEDOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** What sendBody shares with the deliverer that owns the queue. */
export interface BodyContext<T> {
  request: { url: URL; apiKey: string; userAgent: string; timeoutMs: number };
  /** Resends per body at most; Infinity: only the time budget ends the retries. */
  retries: number;
  backoff: BackoffOptions;
  maxRetryAfterMs: number;
  maxRetryTimeMs: number;
  now: () => number;
  random: () => number;
  dispatcher: Dispatcher;
  /** The proxy in use, for messages. */
  proxy: URL | undefined;
  pacing: Pacing;
  stats: DeliveryStats;
  hooks: DeliveryHooks<T>;
  outcomes: Outcomes<T>;
  /** Cancels in-flight requests (end of the abort grace period). */
  cancel: AbortSignal;
  /** Sleep that ends early when the run stops. */
  pause(ms: number): Promise<void>;
  /** True once nothing more may be sent (abort, stop, or budget spent). */
  halted(): boolean;
  /** Settle parts that will not be sent: abandoned, or failed when the budget is spent. */
  settleUnsent(parts: Part<T>[]): void;
  stop(error: Error): void;
  spendBudget(): void;
  split(job: Job<T>, fromTooLarge: boolean): void;
  /** A 413 half got through: later batches use at most this many records. */
  shrinkBatch(size: number): void;
}

export async function sendBody<T>(context: BodyContext<T>, job: Job<T>): Promise<void> {
  const { parts } = job;
  const { outcomes, pacing, stats, hooks } = context;
  const body = `[${parts.map((part) => part.json).join(',')}]`;
  const key = idempotencyKey(body);
  // The body's own clock, as curl's --retry-max-time: a 30% share of 5xx over a long run must not spend a
  // run-wide budget (issue 20); a real outage still ends the run once one body has waited it out.
  let firstFailureAt: number | undefined;
  for (let attempt = 1; ; attempt += 1) {
    for (
      let wait = pacing.delayBeforeStart();
      wait > 0 && !context.halted();
      wait = pacing.delayBeforeStart()
    ) {
      await context.pause(wait);
    }
    if (context.halted()) return context.settleUnsent(parts);
    if (attempt === 1) {
      // A ledger on another thread answers later: the request waits until the batch is durable there.
      const written = outcomes.announce(parts, key);
      if (written) await written;
      if (context.halted()) return context.settleUnsent(parts);
    }

    let response: PostResponse | undefined;
    let reason: string;
    let throttle = false;
    let afterMs: number | undefined;
    stats.requests += 1;
    const started = performance.now();
    try {
      response = await postBatch(context.dispatcher, {
        ...context.request,
        body,
        idempotencyKey: key,
        signal: context.cancel,
      });
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      const info = {
        error: error.code,
        durationMs: performance.now() - started,
        records: parts.length,
        attempt,
      };
      outcomes.call(() => hooks.onRequest?.(info));
      // A certificate this machine refuses or a proxy refusing us: no retry can help (exit 2 at once).
      const setup = setupError(error, context.request.url, context.proxy);
      if (setup) {
        context.stop(setup);
        return outcomes.abandoned(parts);
      }
      reason = (context.proxy && proxyFailure(error.code, context.proxy, context.request.url)) || error.code;
      throttle = timeoutCodes.has(error.code);
    }
    if (response) {
      const { status, durationMs, text } = response;
      outcomes.call(() => hooks.onRequest?.({ status, durationMs, records: parts.length, attempt }));
      // A page may echo the request: the key is masked before any of it is quoted (and cut to a bound).
      const { apiKey } = context.request;
      const outcome = classify(
        status,
        response.headers,
        context.now(),
        apiKey ? text.split(apiKey).join('***') : text,
      );
      // An answer that is not the CRM's must not open the gates to parallel requests either.
      if (!['retry', 'auth', 'endpoint', 'unproven', 'foreign'].includes(outcome.kind)) pacing.answered();
      switch (outcome.kind) {
        case 'delivered':
          pacing.succeeded();
          if (job.fromTooLarge) context.shrinkBatch(parts.length);
          return outcomes.delivered(parts, status, key);
        case 'auth':
          context.stop(
            new AuthError(`the server refused the API key (HTTP ${status}); nothing more was sent`, {
              hint: 'check the key (REVIMPORT_API_KEY or apiKeyFile) and that it may import revenues',
            }),
          );
          return outcomes.abandoned(parts);
        case 'endpoint':
          context.stop(
            new ConfigError(
              `${context.request.url.href} answered ${outcome.message}; nothing more was sent`,
              {
                hint: 'the records not delivered stay pending in the ledger: fix baseUrl and run again',
              },
            ),
          );
          return outcomes.abandoned(parts);
        case 'unproven':
          context.stop(
            notTheCrm(
              context,
              status,
              outcome.answer,
              ': no proof the records were stored, so none is marked delivered',
            ),
          );
          return outcomes.abandoned(parts);
        case 'foreign':
          if (parts.length === 1) {
            context.stop(
              notTheCrm(
                context,
                status,
                outcome.answer,
                ', even to one record sent alone: not the CRM judging the records, so none is marked rejected',
              ),
            );
            return outcomes.abandoned(parts);
          }
          if (job.probed) return context.split(job, false);
          return probeOne(context, job);
        case 'split-rejected':
          // A single record is never split: it is the bad one (explicit base case).
          if (parts.length === 1) return outcomes.rejected(parts, status, serverMessage(status, text));
          return context.split(job, false);
        case 'too-large':
          if (parts.length > 1) return context.split(job, true);
          return outcomes.rejected(parts, status, `record too large for the server (HTTP ${status})`);
        case 'rejected':
          return outcomes.rejected(parts, status, serverMessage(status, text));
        case 'retry':
          reason = `HTTP ${status}`;
          throttle = outcome.throttle;
          afterMs = outcome.afterMs;
      }
    }

    if (context.halted()) return context.settleUnsent(parts);
    if (throttle) pacing.throttled();
    if (attempt > context.retries)
      return outcomes.failed(
        parts,
        `gave up after ${attempt} attempt${attempt === 1 ? '' : 's'}: ${reason!}`,
      );
    let wait = backoffDelay(attempt, context.backoff, context.random);
    const now = context.now();
    if (afterMs !== undefined) {
      const capped = Math.min(afterMs, context.maxRetryAfterMs);
      wait = Math.max(wait, capped);
      pacing.pauseUntil(now + capped);
    }
    firstFailureAt ??= now;
    if (now + wait > firstFailureAt + context.maxRetryTimeMs) {
      // Waiting would outlive the budget: give up on this body and everything after it (exit 4, resume later).
      // This body says why it failed (a refused proxy, a 503); the ones after it were never tried to the end.
      context.spendBudget();
      const seconds = Math.round((now - firstFailureAt) / 1000);
      return outcomes.failed(
        parts,
        `gave up after ${attempt} attempt${attempt === 1 ? '' : 's'} in ${seconds} s, the retry time budget (--max-retry-time): ${reason!}`,
      );
    }
    stats.retries += 1;
    const retryAfterMs = afterMs === undefined ? undefined : Math.min(afterMs, context.maxRetryAfterMs);
    outcomes.call(() =>
      hooks.onRetry?.({ attempt, delayMs: wait, reason, status: response?.status, retryAfterMs }),
    );
    await context.pause(wait);
  }
}

/**
 * A batch refused with a non-JSON answer is usually a firewall or proxy refusing everything: bisecting
 * it sent 3,996 requests for 2,000 records and marked them all rejected (issue #13). One record goes
 * alone first: refused the same way, the run stops (records pending); through, the content matters and
 * the rest is bisected, the run stopping if a single record is refused that way.
 */
async function probeOne<T>(context: BodyContext<T>, job: Job<T>): Promise<void> {
  const [first, ...rest] = job.parts;
  await sendBody(context, { parts: [first!], fromTooLarge: false, probed: true });
  if (context.halted()) return context.settleUnsent(rest);
  context.split({ parts: rest, fromTooLarge: false, probed: true }, false);
}

/** The run stops on an answer that came from something other than the CRM; `why` says what it (dis)proves. */
function notTheCrm<T>(context: BodyContext<T>, status: number, answer: string, why: string): DeliveryError {
  const { url, apiKey } = context.request;
  // A page may echo the request; the key must not reach a message through it.
  const quoted = apiKey ? answer.split(apiKey).join('***') : answer;
  return new DeliveryError(
    `${url.href} answered HTTP ${status} (${quoted}) instead of JSON${why}; nothing more was sent`,
    {
      hint:
        'a login page, proxy or firewall answered instead of the CRM; the records not delivered stay pending ' +
        'in the ledger: once requests reach the CRM, run push again (or revimport retry)',
    },
  );
}

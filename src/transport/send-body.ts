// The delivery state machine of one body: wait for its turn, journal it, send it, classify the answer,
// then settle, split, stop the run, or retry the same bytes (same Idempotency-Key) until its time budget,
// or the optional count, is spent. Each transition is a small function below the machine.
//
//   batch (body-queue.ts: filled by count and bytes, or split off a refused body)
//     │
//     ▼
//   wait ─────────── halted ──────────────> unsent (abandoned; failed once the budget is spent)
//     │ (pacing: in-flight limit, Retry-After pause, rate)          ▲
//     ▼                                                             │
//   journal (first attempt only: beforeSend, durable before sent) ─┘ halted
//     │
//     ▼
//   send ── no answer ──────────────────────────────────────┐ (setup error: stop)
//     │                                                      │
//     ▼                                                      ▼
//   classify ─ delivered ─────> settle                     retry ─ count or budget spent ─> fail
//     │      ─ rejected ──────> reject                       │                   (budget: the run stops)
//     │      ─ 400/422/413 ───> split (one record: reject)   └── backoff ──> wait
//     │      ─ foreign ───────> probe one record / split / stop
//     │      ─ auth, endpoint, unproven ──> stop (abandon)
//     └──────── retry ────────> retry
import { performance } from 'node:perf_hooks';
import { retryWait } from './backoff.js';
import { bodyBytes } from './body-bytes.js';
import type { BodyContext } from './body-context.js';
import { classify, type Outcome, serverMessage } from './classify.js';
import { type PostResponse, postBatch, TransportError } from './client.js';
import { idempotencyKey } from './idempotency.js';
import { maskKey } from './mask-key.js';
import type { Job } from './outcomes.js';
import { proxyFailure } from './proxy.js';
import { setupError } from './setup-errors.js';
import { keyRefused, notTheCrm, notTheCrmBecause, wrongEndpoint } from './stop-errors.js';

export type { BodyContext } from './body-context.js';

const timeoutCodes = new Set([
  'ETIMEDOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** Answers that do not end the one-request probe: not the CRM speaking, or not yet (pacing.ts). */
const keepsProbing = new Set<Outcome['kind']>(['retry', 'auth', 'endpoint', 'unproven', 'foreign']);

/** One distinct body on its way: the same bytes, hence the same key, on every attempt. */
interface Body<T> {
  readonly context: BodyContext<T>;
  readonly job: Job<T>;
  /** The body as sent: encoded once, hashed, journaled and written from these bytes (body-bytes.ts). */
  readonly bytes: Buffer;
  readonly key: string;
  attempt: number;
  /**
   * The body's own clock, as curl's --retry-max-time: a 30% share of 5xx over a long run must not spend a
   * run-wide budget (issue 20); a real outage still ends the run once one body has waited it out.
   */
  firstFailureAt: number | undefined;
}

/** A transient failure (no answer, or an answer asking to try again): what the retry step needs. */
interface Retry {
  reason: string;
  /** Slows the whole run down (429, 503, time-outs). */
  throttle: boolean;
  afterMs: number | undefined;
  status: number | undefined;
}

/** What a transition leaves to do: nothing (settled, split, or the run stopped), or a retry. */
type Next = Retry | undefined;

export async function sendBody<T>(context: BodyContext<T>, job: Job<T>): Promise<void> {
  const bytes = bodyBytes(job.parts);
  const body: Body<T> = {
    context,
    job,
    bytes,
    key: idempotencyKey(bytes),
    attempt: 1,
    firstFailureAt: undefined,
  };
  const { run } = context;
  for (;;) {
    const turn = waitTurn(context);
    if (turn) await turn;
    if (run.halted()) return run.settleUnsent(job.parts);
    if (body.attempt === 1) {
      // A ledger on another thread answers later: the request waits until the batch is durable there.
      const written = context.outcomes.announce(job.parts, body.key, body.bytes);
      if (written) await written;
      if (run.halted()) return run.settleUnsent(job.parts);
    }
    const retry = await send(body);
    if (!retry || !(await retryLater(body, retry))) return;
  }
}

/** wait: undefined when the body may go now, else the wait (cut short when the run halts). */
function waitTurn<T>(context: BodyContext<T>): Promise<void> | undefined {
  const wait = context.pacing.delayBeforeStart();
  return wait > 0 ? waitFor(context, wait) : undefined;
}

async function waitFor<T>(context: BodyContext<T>, first: number): Promise<void> {
  const { pacing, run } = context;
  for (let wait = first; wait > 0 && !run.halted(); wait = pacing.delayBeforeStart()) await run.pause(wait);
}

/** send: one request; its answer (or its absence) picks the next transition. */
async function send<T>(body: Body<T>): Promise<Next> {
  const { context } = body;
  context.stats.requests += 1;
  const started = performance.now();
  let response: PostResponse;
  try {
    response = await postBatch(context.dispatcher, {
      ...context.request,
      body: body.bytes,
      idempotencyKey: body.key,
      signal: context.run.cancel,
    });
  } catch (error) {
    if (!(error instanceof TransportError)) throw error;
    return noAnswer(body, error, performance.now() - started);
  }
  return answered(body, response);
}

/** No answer: a setup no retry can cure stops the run (exit 2 at once); anything else is retried. */
function noAnswer<T>(body: Body<T>, error: TransportError, durationMs: number): Next {
  const { context, job } = body;
  const info = { error: error.code, durationMs, records: job.parts.length, attempt: body.attempt };
  context.outcomes.call(() => context.hooks.onRequest?.(info));
  // A certificate this machine refuses or a proxy refusing us: no retry can help.
  const { url } = context.request;
  const setup = setupError(error, url, context.proxy);
  if (setup) return stopRun(body, setup);
  const reason = (context.proxy && proxyFailure(error.code, context.proxy, url)) || error.code;
  return { reason, throttle: timeoutCodes.has(error.code), afterMs: undefined, status: undefined };
}

/** classify: the machine's table of answers, one transition each. */
function answered<T>(body: Body<T>, response: PostResponse): Next | Promise<Next> {
  const { context, job } = body;
  const { status, text } = response;
  const records = job.parts.length;
  const info = { status, durationMs: response.durationMs, records, attempt: body.attempt };
  context.outcomes.call(() => context.hooks.onRequest?.(info));
  // A page may echo the request: the key is masked before any of it is quoted (and cut to a bound).
  const masked = maskKey(text, context.request.apiKey);
  const outcome = classify(status, response.headers, context.now(), masked);
  // An answer that is not the CRM's must not open the gates to parallel requests either.
  if (!keepsProbing.has(outcome.kind)) context.pacing.answered();
  switch (outcome.kind) {
    case 'delivered':
      return settle(body, status);
    case 'rejected':
      return reject(body, status, serverMessage(status, text));
    case 'split-rejected':
      // A single record is never split: it is the bad one (explicit base case).
      return records === 1 ? reject(body, status, serverMessage(status, text)) : split(body, false);
    case 'too-large':
      return records === 1 ? reject(body, status, tooLarge(status)) : split(body, true);
    case 'foreign':
      return probeOrStop(body, status, outcome.answer);
    case 'auth':
      return stopRun(body, keyRefused(status));
    case 'endpoint':
      return stopRun(body, wrongEndpoint(context.request.url, outcome.message));
    case 'unproven':
      return stopRun(body, notTheCrm(context.request, status, outcome.answer, notTheCrmBecause.unproven));
    case 'retry':
      return { reason: `HTTP ${status}`, throttle: outcome.throttle, afterMs: outcome.afterMs, status };
  }
}

const tooLarge = (status: number) => `record too large for the server (HTTP ${status})`;

/** settle: delivered; a 413 half that got through sets the batch size for the rest of the run. */
function settle<T>(body: Body<T>, status: number): Next {
  const { context, job } = body;
  context.pacing.succeeded();
  if (job.fromTooLarge) context.run.shrinkBatch(job.parts.length);
  context.outcomes.delivered(job.parts, status, body.key);
  return undefined;
}

/** reject: the server refused these records for good (no retry, no split). */
function reject<T>(body: Body<T>, status: number, message: string): Next {
  body.context.outcomes.rejected(body.job.parts, status, message);
  return undefined;
}

/** split: the halves go to the front of the queue, each a new body. */
function split<T>(body: Body<T>, fromTooLarge: boolean): Next {
  body.context.run.split(body.job, fromTooLarge);
  return undefined;
}

/** stop: the run ends (the error says why); this body's records stay pending. */
function stopRun<T>(body: Body<T>, error: Error): Next {
  body.context.run.stop(error);
  body.context.outcomes.abandoned(body.job.parts);
  return undefined;
}

/**
 * A batch refused with a non-JSON answer is usually a firewall or proxy refusing everything: bisecting
 * it sent 3,996 requests for 2,000 records and marked them all rejected (issue #13). One record goes
 * alone first: refused the same way, the run stops (records pending); through, the content matters and
 * the rest is bisected, the run stopping if a single record is refused that way.
 */
function probeOrStop<T>(body: Body<T>, status: number, answer: string): Next | Promise<Next> {
  const { context, job } = body;
  if (job.parts.length === 1) {
    return stopRun(body, notTheCrm(context.request, status, answer, notTheCrmBecause.refusedAlone));
  }
  if (job.probed) return split(body, false);
  return probeOne(context, job);
}

async function probeOne<T>(context: BodyContext<T>, job: Job<T>): Promise<Next> {
  const [first, ...rest] = job.parts;
  await sendBody(context, { parts: [first!], fromTooLarge: false, probed: true });
  if (context.run.halted()) context.run.settleUnsent(rest);
  else context.run.split({ parts: rest, fromTooLarge: false, probed: true }, false);
  return undefined;
}

const attempts = (count: number) => `${count} attempt${count === 1 ? '' : 's'}`;

/** retry: wait and go again (true), or give up on the body (false): the count, or the budget, is spent. */
async function retryLater<T>(body: Body<T>, retry: Retry): Promise<boolean> {
  const { context, attempt } = body;
  const { run, outcomes } = context;
  if (run.halted()) return unsent(body);
  if (retry.throttle) context.pacing.throttled();
  if (attempt > context.retries) return failed(body, `gave up after ${attempts(attempt)}: ${retry.reason}`);
  const { delayMs, retryAfterMs } = retryWait(attempt, retry.afterMs, context, context.random);
  const now = context.now();
  if (retryAfterMs !== undefined) context.pacing.pauseUntil(now + retryAfterMs);
  body.firstFailureAt ??= now;
  if (now + delayMs > body.firstFailureAt + context.maxRetryTimeMs) return outOfBudget(body, now, retry);
  context.stats.retries += 1;
  const info = { attempt, delayMs, reason: retry.reason, status: retry.status, retryAfterMs };
  outcomes.call(() => context.hooks.onRetry?.(info));
  await run.pause(delayMs);
  body.attempt += 1;
  return true;
}

/**
 * Waiting would outlive the budget: give up on this body and everything after it (exit 4, resume later).
 * This body says why it failed (a refused proxy, a 503); the ones after it were never tried to the end.
 */
function outOfBudget<T>(body: Body<T>, now: number, retry: Retry): false {
  body.context.run.spendBudget();
  const seconds = Math.round((now - body.firstFailureAt!) / 1000);
  return failed(
    body,
    `gave up after ${attempts(body.attempt)} in ${seconds} s, the retry time budget (--max-retry-time): ${retry.reason}`,
  );
}

function failed<T>(body: Body<T>, reason: string): false {
  body.context.outcomes.failed(body.job.parts, reason);
  return false;
}

function unsent<T>(body: Body<T>): false {
  body.context.run.settleUnsent(body.job.parts);
  return false;
}

// Shared pacing for all delivery workers: the AIMD in-flight limit (with a one-request probe until the
// server first answers), the run-wide "not before" time a Retry-After sets, and the optional rate cap.

export interface PacingOptions {
  /** In-flight ceiling. */
  concurrency: number;
  /** Request starts per second; undefined = unlimited. */
  ratePerSec: number | undefined;
  now: () => number;
}

export class Pacing {
  #limit: number;
  #probing = true;
  #notBefore = 0;
  #nextStart = 0;
  readonly #options: PacingOptions;

  constructor(options: PacingOptions) {
    this.#options = options;
    this.#limit = options.concurrency;
  }

  /**
   * How many requests may be in flight now. The first request goes alone: a refused key or a wrong
   * URL then costs one request, not `concurrency` of them.
   */
  get limit(): number {
    return this.#probing ? 1 : this.#limit;
  }

  /** The server answered something other than a transient error: the probe is over. */
  answered(): void {
    this.#probing = false;
  }

  /** Additive increase: one more slot per delivered body, up to the ceiling. */
  succeeded(): void {
    this.#probing = false;
    this.#limit = Math.min(this.#options.concurrency, this.#limit + 1);
  }

  /** Multiplicative decrease on 429/503/time-outs. */
  throttled(): void {
    this.#limit = Math.max(1, Math.floor(this.#limit / 2));
  }

  /** Retry-After pauses every worker, not only the one that got it. */
  pauseUntil(time: number): void {
    this.#notBefore = Math.max(this.#notBefore, time);
  }

  /** Milliseconds to wait before the next request may start (0 = go now; the rate slot is taken). */
  delayBeforeStart(): number {
    const now = this.#options.now();
    if (this.#notBefore > now) return this.#notBefore - now;
    const rate = this.#options.ratePerSec;
    if (rate === undefined || rate <= 0) return 0;
    if (this.#nextStart > now) return this.#nextStart - now;
    this.#nextStart = now + 1000 / rate;
    return 0;
  }
}

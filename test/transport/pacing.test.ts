import { describe, expect, it } from 'vitest';
import { Pacing } from '../../src/transport/pacing.js';

function pacing(concurrency: number, ratePerSec?: number) {
  const clock = { now: 1000 };
  return { clock, pacing: new Pacing({ concurrency, ratePerSec, now: () => clock.now }) };
}

describe('Pacing', () => {
  it('probes with one request, then opens to the ceiling', () => {
    const { pacing: p } = pacing(4);
    expect(p.limit).toBe(1);
    p.answered();
    expect(p.limit).toBe(4);
  });

  it('halves on throttling (not below 1) and grows back by one per success up to the ceiling', () => {
    const { pacing: p } = pacing(8);
    p.succeeded();
    const seen: number[] = [p.limit];
    for (const event of ['t', 't', 't', 't', 's', 's', 't', 's', 's', 's', 's', 's', 's', 's', 's']) {
      if (event === 't') p.throttled();
      else p.succeeded();
      seen.push(p.limit);
    }
    expect(seen).toEqual([8, 4, 2, 1, 1, 2, 3, 1, 2, 3, 4, 5, 6, 7, 8, 8]);
  });

  it('holds every start until a Retry-After pause ends', () => {
    const { pacing: p, clock } = pacing(4);
    expect(p.delayBeforeStart()).toBe(0);
    p.pauseUntil(4000);
    p.pauseUntil(2000);
    expect(p.delayBeforeStart()).toBe(3000);
    clock.now = 3999;
    expect(p.delayBeforeStart()).toBe(1);
    clock.now = 4000;
    expect(p.delayBeforeStart()).toBe(0);
  });

  it('spaces request starts by 1/ratePerSec', () => {
    const { pacing: p, clock } = pacing(4, 4);
    expect([p.delayBeforeStart(), p.delayBeforeStart()]).toEqual([0, 250]);
    clock.now += 100;
    expect(p.delayBeforeStart()).toBe(150);
    clock.now += 150;
    expect([p.delayBeforeStart(), p.delayBeforeStart()]).toEqual([0, 250]);
  });
});

import { describe, it, expect } from 'vitest';
import { rateLimitHeaders } from '../../../../src/http/rate-limit/rate-limiter.js';
import { SlidingLogLimiter } from '../../../../src/http/rate-limit/sliding-log-limiter.js';

const workspace = () => new SlidingLogLimiter({ policy: 'workspace', quota: 120, windowSeconds: 60 });

async function consumeMany(limiter: SlidingLogLimiter, key: string, n: number, nowMs: number): Promise<number> {
  let admitted = 0;
  for (let i = 0; i < n; i++) if ((await limiter.consume(key, nowMs)).allowed) admitted++;
  return admitted;
}

describe('SlidingLogLimiter', async () => {
  it('admits exactly the quota in a window and rejects the next with remaining 0 and Retry-After', async () => {
    const limiter = workspace();
    const first = await limiter.consume('ws', 1_000);
    expect(first).toEqual({ allowed: true, limit: 120, remaining: 119, resetSeconds: 60, windowSeconds: 60, policy: 'workspace' });

    for (let i = 1; i < 119; i++) expect((await limiter.consume('ws', 1_000)).allowed).toBe(true);
    const last = await limiter.consume('ws', 1_000);
    expect(last).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 60 });

    const rejected = await limiter.consume('ws', 1_000);
    expect(rejected).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 60 });
    expect(rateLimitHeaders(rejected)['Retry-After']).toBe('60');

    // Oldest admission (1.0 s) leaves at 61.0 s: 30.5 s away, rounded up.
    const later = await limiter.consume('ws', 30_500);
    expect(later).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 31 });
    expect(rateLimitHeaders(later)['Retry-After']).toBe('31');
  });

  it('frees slots one by one as the window rolls', async () => {
    const limiter = workspace();
    for (let i = 0; i < 120; i++) expect((await limiter.consume('ws', i * 500)).allowed).toBe(true);

    expect(await limiter.consume('ws', 59_999)).toMatchObject({ allowed: false, resetSeconds: 1 });
    expect(await limiter.consume('ws', 60_000)).toMatchObject({ allowed: true, remaining: 0 });
    expect(await limiter.consume('ws', 60_000)).toMatchObject({ allowed: false, resetSeconds: 1 });
    expect(await limiter.consume('ws', 60_499)).toMatchObject({ allowed: false, resetSeconds: 1 });
    expect(await consumeMany(limiter, 'ws', 5, 60_500)).toBe(1);
    expect(await consumeMany(limiter, 'ws', 5, 62_000)).toBe(3);
  });

  it('does not allow a fixed-window burst across a boundary', async () => {
    const limiter = workspace();
    expect(await consumeMany(limiter, 'ws', 120, 59_900)).toBe(120);
    expect(await consumeMany(limiter, 'ws', 120, 60_100)).toBe(0);
    expect(await limiter.peek('ws', 60_100)).toMatchObject({ allowed: false, resetSeconds: 60 });
    expect(await consumeMany(limiter, 'ws', 121, 119_900)).toBe(120);
  });

  it('admits across a boundary only the requests whose slots have freed', async () => {
    const limiter = workspace();
    expect(await consumeMany(limiter, 'ws', 60, 0)).toBe(60);
    expect(await consumeMany(limiter, 'ws', 60, 59_900)).toBe(60);
    expect(await consumeMany(limiter, 'ws', 120, 60_100)).toBe(60);
  });

  it('treats the window as (now - window, now]: an admission leaves exactly window ms later', async () => {
    const limiter = workspace();
    await limiter.consume('ws', 0);
    await consumeMany(limiter, 'ws', 119, 30_000);
    expect(await limiter.consume('ws', 59_999)).toMatchObject({ allowed: false, resetSeconds: 1 });
    expect(await limiter.consume('ws', 60_000)).toMatchObject({ allowed: true, remaining: 0, resetSeconds: 30 });
    expect(await limiter.consume('ws', 60_000)).toMatchObject({ allowed: false, resetSeconds: 30 });
  });

  it('keeps keys independent', async () => {
    const limiter = workspace();
    await consumeMany(limiter, 'a', 120, 0);
    expect((await limiter.consume('a', 0)).allowed).toBe(false);
    expect(await limiter.consume('b', 0)).toMatchObject({ allowed: true, remaining: 119 });
  });

  it('peek neither counts nor stores anything', async () => {
    const limiter = workspace();
    expect(await limiter.peek('ws', 0)).toEqual({ allowed: true, limit: 120, remaining: 120, resetSeconds: 0, windowSeconds: 60, policy: 'workspace' });
    expect(limiter.size).toBe(0);

    await limiter.consume('ws', 0);
    for (let i = 0; i < 500; i++) await limiter.peek('ws', 10_000);
    expect(await limiter.peek('ws', 10_000)).toMatchObject({ allowed: true, remaining: 119, resetSeconds: 50 });
    expect(await limiter.consume('ws', 10_000)).toMatchObject({ remaining: 118 });
    expect(await limiter.peek('ws', 60_000)).toMatchObject({ remaining: 119, resetSeconds: 10 });
    expect(await limiter.peek('ws', 70_000)).toMatchObject({ allowed: true, remaining: 120, resetSeconds: 0 });
  });

  it('produces the exact header strings', async () => {
    const limiter = workspace();
    expect(rateLimitHeaders(await limiter.consume('ws', 0))).toEqual({
      'RateLimit-Policy': '"workspace";q=120;w=60',
      RateLimit: '"workspace";r=119;t=60',
    });

    const clients = new SlidingLogLimiter({ policy: 'client', quota: 30, windowSeconds: 60 });
    await consumeMany(clients, '203.0.113.7', 30, 0);
    expect(rateLimitHeaders(await clients.consume('203.0.113.7', 15_200))).toEqual({
      'RateLimit-Policy': '"client";q=30;w=60',
      RateLimit: '"client";r=0;t=45',
      'Retry-After': '45',
    });
  });

  it('honours a raised quota and a different window', async () => {
    const limiter = new SlidingLogLimiter({ policy: 'workspace', quota: 10_000, windowSeconds: 10 });
    expect(await consumeMany(limiter, 'ws', 10_001, 0)).toBe(10_000);
    expect(rateLimitHeaders(await limiter.consume('ws', 0))).toMatchObject({ 'RateLimit-Policy': '"workspace";q=10000;w=10', 'Retry-After': '10' });
    expect(await consumeMany(limiter, 'ws', 10_001, 10_000)).toBe(10_000);
  });

  it('evicts idle keys so memory stays bounded', async () => {
    const limiter = workspace();
    for (let i = 0; i < 100_000; i++) await limiter.consume(`ws-${i}`, 0);
    expect(limiter.size).toBe(100_000);

    // Still inside the window: nothing may be forgotten.
    await consumeMany(limiter, 'hot', 10, 59_999);
    expect(limiter.size).toBe(100_001);

    // Ordinary traffic drains the idle keys a few per call...
    await limiter.consume('hot', 60_000);
    expect(limiter.size).toBeLessThan(100_001);
    for (let i = 0; i < 2_000; i++) await limiter.consume('hot', 60_001);
    expect(limiter.size).toBe(1);

    // ...and sweep() drops them all at once.
    await limiter.consume('other', 60_001);
    limiter.sweep(200_000);
    expect(limiter.size).toBe(0);
  });

  it('rejects invalid construction arguments', async () => {
    const make = (quota: number, windowSeconds: number, policy = 'workspace') => () =>
      new SlidingLogLimiter({ policy, quota, windowSeconds });
    expect(make(0, 60)).toThrow(RangeError);
    expect(make(-1, 60)).toThrow(RangeError);
    expect(make(1.5, 60)).toThrow(RangeError);
    expect(make(Number.NaN, 60)).toThrow(RangeError);
    expect(make(120, 0)).toThrow(RangeError);
    expect(make(120, -60)).toThrow(RangeError);
    expect(make(120, Number.POSITIVE_INFINITY)).toThrow(RangeError);
    expect(make(120, 60, '')).toThrow(RangeError);
    expect(make(120, 60, 'a"b')).toThrow(RangeError);
    expect(make(1, 1)).not.toThrow();
  });

  it('does not let a clock stepping backwards reopen the window', async () => {
    const limiter = workspace();
    await consumeMany(limiter, 'ws', 120, 100_000);
    expect(await limiter.consume('ws', 0)).toMatchObject({ allowed: false, resetSeconds: 60 });
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { erfc, FISHER_BELOW, significanceOf, twoProportionPValue } from '../../../src/analytics/significance.js';
import { agreesWithReference, REFERENCE_FISHER_BELOW, referencePValue } from '../../support/significance-reference.js';

const counts = (hits: number, total: number) => ({ hits, total });

// Values computed outside this repository with SciPy 1.17.1 on CPython: Fisher's exact test as
// scipy.stats.fisher_exact([[x1, n1 - x1], [x2, n2 - x2]], alternative='two-sided').pvalue; the
// z-test as 2 * scipy.stats.norm.sf(abs(z)) with z from the pooled formula of the contract.
const SCIPY: Array<{ x1: number; n1: number; x2: number; n2: number; p: number; method: 'fisher' | 'z' }> = [
  { x1: 3, n1: 4, x2: 0, n2: 4, p: 0.14285714285714288, method: 'fisher' },
  { x1: 4, n1: 4, x2: 0, n2: 4, p: 0.028571428571428567, method: 'fisher' },
  { x1: 12, n1: 20, x2: 4, n2: 20, p: 0.0224774273717544, method: 'fisher' },
  { x1: 0, n1: 10, x2: 0, n2: 10, p: 1, method: 'fisher' },
  { x1: 3, n1: 7, x2: 3, n2: 7, p: 1, method: 'fisher' },
  { x1: 7, n1: 30, x2: 15, n2: 30, p: 0.05960158017389561, method: 'fisher' },
  { x1: 60, n1: 500, x2: 40, n2: 499, p: 0.04476150274501574, method: 'fisher' },
  { x1: 49, n1: 499, x2: 30, n2: 500, p: 0.026252190176361895, method: 'fisher' },
  { x1: 130, n1: 500, x2: 100, n2: 500, p: 0.02417721548630171, method: 'z' },
  { x1: 60, n1: 500, x2: 40, n2: 500, p: 0.03501498101966254, method: 'z' },
  { x1: 300, n1: 600, x2: 240, n2: 600, p: 0.0004985148935752067, method: 'z' },
  { x1: 1000, n1: 4000, x2: 1100, n2: 4000, p: 0.011052727177953487, method: 'z' },
  { x1: 5, n1: 1200, x2: 0, n2: 800, p: 0.06754530092225038, method: 'z' },
  { x1: 10, n1: 500, x2: 10, n2: 500, p: 1, method: 'z' },
  { x1: 500, n1: 500, x2: 500, n2: 500, p: 1, method: 'z' },
];

describe('the significance of a rate change', () => {
  it('matches p-values computed independently with SciPy, by Fisher below 1000 snapshots and by the z-test from 1000 on', () => {
    expect(FISHER_BELOW).toBe(REFERENCE_FISHER_BELOW);
    for (const { x1, n1, x2, n2, p, method } of SCIPY) {
      expect(n1 + n2 < FISHER_BELOW ? 'fisher' : 'z').toBe(method);
      expect(Math.abs(twoProportionPValue(counts(x1, n1), counts(x2, n2))! - p), `${x1}/${n1} vs ${x2}/${n2}`).toBeLessThan(1e-13);
    }
  });

  it('rounds the p-value half away from zero to 4 decimals and compares the unrounded one with alpha', () => {
    // p = 2/70 = 0.0285714…
    expect(significanceOf(counts(4, 4), counts(0, 4), 0.05)).toEqual({ p_value: 0.0286, significant: true });
    expect(significanceOf(counts(4, 4), counts(0, 4), 0.0286)).toEqual({ p_value: 0.0286, significant: true });
    expect(significanceOf(counts(4, 4), counts(0, 4), 0.0285)).toEqual({ p_value: 0.0286, significant: false });
    // p = 10/70 = 0.142857…
    expect(significanceOf(counts(3, 4), counts(0, 4), 0.05)).toEqual({ p_value: 0.1429, significant: false });
    // p = 1 exactly is never below alpha.
    expect(significanceOf(counts(0, 5), counts(0, 9), 0.999)).toEqual({ p_value: 1, significant: false });
  });

  it('is null when either period has no snapshot, as the delta is', () => {
    expect(significanceOf(counts(0, 0), counts(2, 3), 0.05)).toBeNull();
    expect(significanceOf(counts(2, 3), counts(0, 0), 0.05)).toBeNull();
    expect(significanceOf(counts(0, 0), counts(0, 0), 0.05)).toBeNull();
  });

  it('erfc matches the C library (Python math.erfc) to 1e-15', () => {
    const libm: Array<[number, number]> = [
      [0, 1], [0.1, 0.8875370839817152], [0.5, 0.4795001221869535], [1, 0.15729920705028513],
      [1.2, 0.08968602177036465], [1.3, 0.06599205505934755], [2, 0.004677734981047265],
      [3, 2.2090496998585438e-5], [5, 1.5374597944280351e-12],
    ];
    for (const [x, expected] of libm) expect(Math.abs(erfc(x) - expected), `erfc(${x})`).toBeLessThan(1e-15);
  });

  it('agrees with a plain reference (exact Fisher, integrated normal tail) on random counts and levels', () => {
    const period = fc.oneof(
      { weight: 3, arbitrary: fc.integer({ min: 1, max: 60 }) },
      { weight: 2, arbitrary: fc.integer({ min: 1, max: 700 }) },
      { weight: 2, arbitrary: fc.integer({ min: 400, max: 5000 }) },
    ).chain((total) => fc.record({
      total: fc.constant(total),
      // Rates near 0 and 1 as often as in between: where the tests differ most.
      hits: fc.oneof(fc.integer({ min: 0, max: total }), fc.integer({ min: 0, max: Math.min(total, 3) }), fc.integer({ min: Math.max(0, total - 3), max: total })),
    }));
    const alpha = fc.oneof(fc.constantFrom(0.05, 0.01, 0.1), fc.double({ min: 1e-6, max: 0.999999, noNaN: true }));
    fc.assert(
      fc.property(period, period, alpha, (current, previous, level) => {
        const p = referencePValue(current.hits, current.total, previous.hits, previous.total);
        const unrounded = twoProportionPValue(current, previous);
        expect(Math.abs(unrounded! - p!)).toBeLessThan(1e-10);
        expect(agreesWithReference(significanceOf(current, previous, level), p, level)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});

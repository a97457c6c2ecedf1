import { describe, expect, it } from 'vitest';
import { rate, rateDelta } from '../../../src/analytics/rates.js';

describe('rate', () => {
  it('when there are no observations, is null', () => {
    expect(rate(0, 0)).toBeNull();
  });

  it('rounds half away from zero at exactly five in the fifth decimal', () => {
    expect(rate(1, 20_000)).toBe(0.0001); // 0.00005
    expect(rate(3, 20_000)).toBe(0.0002); // 0.00015, which binary floats hold as 0.000149999…
    expect(rate(1, 40_000)).toBe(0); // 0.000025
    expect(rate(5, 8)).toBe(0.625);
    expect(rate(12_345, 100_000)).toBe(0.1235); // 0.12345
  });

  it('rounds thirds to the nearest 4-decimal value', () => {
    expect(rate(1, 3)).toBe(0.3333);
    expect(rate(2, 3)).toBe(0.6667);
    expect(rate(3, 3)).toBe(1);
    expect(rate(0, 7)).toBe(0);
  });

  it('stays exact for counts beyond 2^53 / 20000', () => {
    expect(rate(2 ** 40 + 1, 2 ** 41)).toBe(0.5);
    expect(rate(1, 3 * 10 ** 12)).toBe(0);
  });
});

describe('rateDelta', () => {
  it('when either side has no observations, is null', () => {
    expect(rateDelta(1, 2, 0, 0)).toBeNull();
    expect(rateDelta(0, 0, 1, 2)).toBeNull();
  });

  it('is computed from the unrounded rates, then rounded', () => {
    // 2/3 − 1/3 = 1/3, whereas 0.6667 − 0.3333 = 0.3334
    expect(rateDelta(2, 3, 1, 3)).toBe(0.3333);
    // 1/3 − 1/6 = 0.1666…
    expect(rateDelta(1, 3, 1, 6)).toBe(0.1667);
  });

  it('rounds a negative half away from zero', () => {
    // 0 − 1/20000 = −0.00005
    expect(rateDelta(0, 1, 1, 20_000)).toBe(-0.0001);
    // 1/2 − 10001/20000 = −0.00005
    expect(rateDelta(1, 2, 10_001, 20_000)).toBe(-0.0001);
    // 10001/20000 − 1/2 = +0.00005
    expect(rateDelta(10_001, 20_000, 1, 2)).toBe(0.0001);
  });

  it('never answers negative zero', () => {
    expect(Object.is(rateDelta(1, 40_000, 2, 40_000), -0)).toBe(false);
    expect(rateDelta(1, 40_000, 2, 40_000)).toBe(0);
  });

  it('stays exact when the cross products exceed 2^53', () => {
    // (10⁶+1)/(2·10⁶) − 1/2 = 1/(2·10⁶) = 0.0000005 → 0
    expect(rateDelta(1_000_001, 2_000_000, 3_000_000, 6_000_000)).toBe(0);
    // 600060/1200000 − 1/2 = exactly +0.00005
    expect(rateDelta(600_060, 1_200_000, 3_000_000, 6_000_000)).toBe(0.0001);
    // 50005000/10⁸ − 5·10⁷/10⁸ = exactly +0.00005, with a denominator of 10¹⁶ > 2^53
    expect(rateDelta(50_005_000, 100_000_000, 50_000_000, 100_000_000)).toBe(0.0001);
    expect(rateDelta(50_000_000, 100_000_000, 50_005_000, 100_000_000)).toBe(-0.0001);
    expect(rateDelta(50_004_999, 100_000_000, 50_000_000, 100_000_000)).toBe(0);
  });
});

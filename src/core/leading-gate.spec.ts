import { describe, expect, it } from 'vitest';
import { LIMITS } from '../contract';
import { leadingGate } from './leading-gate';

describe('leadingGate', () => {
  it('lets the first click of each second through and drops the rest', () => {
    let now = 0;
    const gate = leadingGate(LIMITS.submitThrottleMs, () => now);
    expect(gate()).toBe(true);
    now = 400;
    expect(gate()).toBe(false);
    now = 999;
    expect(gate()).toBe(false);
    now = 1000;
    expect(gate()).toBe(true);
    now = 1500;
    expect(gate()).toBe(false);
  });
});

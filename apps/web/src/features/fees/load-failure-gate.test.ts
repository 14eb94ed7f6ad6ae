import { describe, expect, it } from 'vitest';
import { createLoadFailureGate, LOAD_FAILURE_SUPPRESS_MS } from './load-failure-gate';

describe('load-failure toasts (spec: accounts §8)', () => {
  it('show once while open, stay suppressed for 5 s after closing, then may show again', () => {
    let t = 1_000;
    const gate = createLoadFailureGate(() => t);
    expect(gate.tryOpen('global-settings')).toBe(true);
    expect(gate.tryOpen('global-settings')).toBe(false);
    // Another message is independent.
    expect(gate.tryOpen('global-surcharge')).toBe(true);
    t += 3_000;
    gate.closed('global-settings');
    t += LOAD_FAILURE_SUPPRESS_MS - 1;
    expect(gate.tryOpen('global-settings')).toBe(false);
    t += 1;
    expect(gate.tryOpen('global-settings')).toBe(true);
  });
});

// spec: accounts-admin-fees §8 Load failures: each shows once, then is suppressed for 5 seconds
// after closing. Pure bookkeeping, so the rule is testable without a browser.
export const LOAD_FAILURE_SUPPRESS_MS = 5000;

export function createLoadFailureGate(now: () => number = Date.now) {
  const open = new Set<string>();
  const suppressedUntil = new Map<string, number>();
  return {
    /** Whether a toast with this id may show now (and, if so, it counts as shown). */
    tryOpen(id: string): boolean {
      if (open.has(id) || (suppressedUntil.get(id) ?? 0) > now()) return false;
      open.add(id);
      return true;
    },
    closed(id: string) {
      open.delete(id);
      suppressedUntil.set(id, now() + LOAD_FAILURE_SUPPRESS_MS);
    },
  };
}

// A node's life as the load balancer sees it (issue 26): serving, then draining from the moment a
// SIGTERM arrives until the process exits. /api/health answers 503 "draining" as soon as draining
// starts, so that a proxy's health check takes the node out before it stops listening; a readiness
// route reads the same flag. One object per app (tests run several apps in one process).

export type Lifecycle = {
  /** True from the first shutdown signal on: the node finishes what it has and takes nothing new. */
  readonly draining: boolean;
  /** When draining started (ms since the epoch), or null. */
  readonly drainingSince: number | null;
  startDraining(): void;
};

export function createLifecycle(): Lifecycle {
  let since: number | null = null;
  return {
    get draining() {
      return since !== null;
    },
    get drainingSince() {
      return since;
    },
    startDraining() {
      since ??= Date.now();
    },
  };
}

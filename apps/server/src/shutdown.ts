import type { App } from './app.js';
import type { Database } from './db/client.js';

// Graceful shutdown (issue 26, docs/deploy.md "SIGTERM"). On SIGTERM (or SIGINT) the node:
//  1. starts draining: /api/health answers 503 "draining", so the load balancer stops sending;
//  2. waits SHUTDOWN_DELAY_MS (0 by default) still serving, for a balancer that only learns from
//     its health checks;
//  3. stops listening (new connections are refused) and stops claiming jobs, at once;
//  4. finishes every request in flight (the checkout's batchers are flushed by the requests that
//     wait on them); a request that arrives on an open kept-alive connection is still served, and
//     each connection is closed as soon as it is idle;
//  5. gives the jobs it is running a few seconds, then hands the rest back to the queue (another
//     node takes them at once; handlers are safe to run twice);
//  6. closes the SMTP transport and the database pool, and exits 0.
// All within SHUTDOWN_TIMEOUT_MS: past it, it logs what was still open and exits 1. A second
// signal exits 1 at once (a person pressing Ctrl-C twice).

/** The most the running jobs are waited for before they are handed back. */
const JOBS_GRACE_MS = 5_000;

export function installGracefulShutdown(app: App, database: Database, exit: (code: number) => never = process.exit) {
  const { config, lifecycle, jobs, mailer, log } = app.deps;
  const { timeoutMs, delayMs } = config.shutdown;
  let started = false;

  async function shutdown(signal: string) {
    const at = Date.now();
    let step = 'draining';
    const done: Record<string, number> = {};
    const reached = (next: string) => {
      done[step] = Date.now() - at;
      step = next;
    };
    lifecycle.startDraining();
    log.info({ signal, timeoutMs, delayMs }, 'shutting down: draining');
    const deadline = setTimeout(() => {
      log.error({ signal, timeoutMs, step, done }, 'shutdown did not finish in time: exiting anyway');
      exit(1);
    }, timeoutMs);
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
    // The jobs get at most a quarter of what is left (and 5 s), so that handing them back and
    // closing the pool still fit in the bound.
    const jobsGraceMs = Math.max(0, Math.min(JOBS_GRACE_MS, (timeoutMs - (Date.now() - at)) / 4));
    reached('requests');
    const jobsStopped = jobs.stop({ handBackAfterMs: jobsGraceMs });
    // server.close() closes the connections idle at that moment only: one that was busy then
    // (a proxy's kept-alive connection) would stay open, idle, until its keep-alive timeout (72 s)
    // and hold the close. Each is closed as soon as its last response is sent; a proxy retries a
    // request that meets such a closing connection (no node read it).
    const reaper = setInterval(() => app.server.closeIdleConnections(), 50);
    await app.close().finally(() => clearInterval(reaper));
    reached('jobs');
    const handedBack = await jobsStopped;
    reached('database');
    mailer.close();
    await database.close();
    reached('exit');
    clearTimeout(deadline);
    log.info({ signal, ms: Date.now() - at, handedBack, done }, 'shut down');
    exit(0);
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (started) {
        log.warn({ signal }, 'second signal during shutdown: exiting now');
        exit(1);
      }
      started = true;
      shutdown(signal).catch((err) => {
        log.error({ err }, 'shutdown failed');
        exit(1);
      });
    });
  }
}

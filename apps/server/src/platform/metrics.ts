import { createHash, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Counter, Histogram } from 'prom-client';
import type { Database, Db, PoolStats } from '../db/client.js';
import { routeOf } from './request-context.js';

// Issue 26: what an operator watches (docs/operations.md "Metrics" lists every series). Counting is
// in memory on the request's way out (a label lookup and an add); what needs the database (jobs,
// mail and webhook outboxes) is read only when Prometheus scrapes, at most once per CACHE_MS and
// given QUERY_TIMEOUT_MS, so a scrape (or many) cannot load the database. Without METRICS_PORT or
// METRICS_TOKEN nothing is collected and nothing is served (docs/decisions.md "Issue 26.1").

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Issue 26: this route takes tickets (a hold): its 201s count as holds, its refusals by code. */
    countsHolds?: boolean;
  }
}

export const DB_GAUGES_CACHE_MS = 5_000;
export const DB_GAUGES_TIMEOUT_MS = 2_000;
/** The route label of a request no route matched (404s, the web app's pages). */
export const UNMATCHED_ROUTE = '(unmatched)';

export type MetricsOptions = {
  /** Serve on this port (its own HTTP server, on `host`); the public port then has no /metrics. */
  port?: number;
  host?: string;
  /** A bearer token: /metrics on the public port when no port is set, and on the metrics port too when one is. */
  token?: string;
  /** How long a read of the database gauges is kept (DB_GAUGES_CACHE_MS; tests set 0). */
  cacheMs?: number;
};

export type Metrics = {
  readonly enabled: boolean;
  /** A request answered (route: the route's pattern, never the raw URL). */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** A hold taken (a 201 from a route that counts holds). */
  observeHold(route: string): void;
  /** A refusal by a route that counts holds: its domain code, or its generic code. */
  observeRefusal(req: FastifyRequest, code: string): void;
  /** A job ran (platform/jobs.ts). */
  observeJob(kind: string, outcome: 'done' | 'retry' | 'failed', seconds: number): void;
  /** A gauge read when Prometheus scrapes, from memory (issue 26 reads4: the orders running and waiting for their turn). */
  gauge(name: string, help: string, read: () => number): void;
  /** What the scrape reads from the database and the pool; called once by buildApp. */
  attach(source: { db: Db; database: Database; jobKinds: () => string[] }): void;
  /** The exposition text (refreshes the database gauges when they are older than CACHE_MS). */
  render(): Promise<{ contentType: string; body: string }>;
  /** True when the Authorization header carries the token (always true when no token is set). */
  authorized(header: string | undefined): boolean;
  /** Where /metrics is served: its own port, the public port behind the token, or nowhere. */
  readonly servedOn: 'port' | 'public' | 'none';
  /** Starts the metrics port's server (when one is configured); answers its bound port. */
  listen(): Promise<number | undefined>;
  /** The metrics port's bound port once listening (METRICS_PORT=0 picks a free one). */
  port(): number | undefined;
  close(): Promise<void>;
};

const noop = () => {};
const DISABLED: Metrics = {
  enabled: false,
  servedOn: 'none',
  observeRequest: noop,
  observeHold: noop,
  observeRefusal: noop,
  observeJob: noop,
  gauge: noop,
  attach: noop,
  render: async () => ({ contentType: 'text/plain', body: '' }),
  authorized: () => false,
  listen: async () => undefined,
  port: () => undefined,
  close: async () => {},
};

const digest = (s: string) => createHash('sha256').update(s).digest();

/** The metrics when configured (prom-client is loaded then, so a start without them pays nothing), else a no-op. */
export async function createMetrics(opts: MetricsOptions): Promise<Metrics> {
  if (opts.port === undefined && !opts.token) return DISABLED;
  const { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } = await import('prom-client');
  const registry = new Registry();
  // Event-loop delay (nodejs_eventloop_lag_*), heap and resident memory, CPU, handles, GC.
  collectDefaultMetrics({ register: registry });

  const requests = new Histogram({
    name: 'marquee_http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern and status; its _count is the request rate.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const holds = new Counter({
    name: 'marquee_holds_total',
    help: 'Holds taken (tickets held for a checkout: PLACE ORDER, the checkout hold, app orders), by route.',
    labelNames: ['route'] as const,
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'marquee_hold_refusals_total',
    help: 'Holds refused, by route and reason (the domain code, e.g. CART_CONFLICT, or the generic code).',
    labelNames: ['route', 'reason'] as const,
    registers: [registry],
  });
  const jobRuns = new Histogram({
    name: 'marquee_job_run_duration_seconds',
    help: 'Jobs run by this node, by kind and outcome (done, retry, failed: out of attempts).',
    labelNames: ['kind', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60],
    registers: [registry],
  });

  // The request counters' children, by label values: one Map lookup instead of prom-client's label hashing.
  const requestChildren = new Map<string, ReturnType<Histogram<'method' | 'route' | 'status_code'>['labels']>>();
  const holdChildren = new Map<string, ReturnType<Counter<'route'>['labels']>>();

  let source: { db: Db; database: Database; jobKinds: () => string[] } | undefined;

  const pool = (name: string, help: string, read: (s: PoolStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const stats = source?.database.poolStats();
        if (stats) this.set(read(stats));
      },
    });
  pool('marquee_db_pool_size', 'Connections the pool may open (PGlite: 1).', (s) => s.max);
  pool('marquee_db_pool_in_use', 'Connections running a query or transaction now.', (s) => s.inUse);
  pool('marquee_db_pool_idle', 'Open connections waiting for work.', (s) => s.idle);
  pool('marquee_db_pool_waiting', 'Queries waiting for a connection (PGlite: for the one connection).', (s) => s.waiting);

  const jobsWaiting = new Gauge({ name: 'marquee_jobs_waiting', help: 'Jobs due and not claimed, by kind.', labelNames: ['kind'] as const, registers: [registry] });
  const jobsRunning = new Gauge({ name: 'marquee_jobs_running', help: 'Jobs claimed by a worker (any node) now, by kind.', labelNames: ['kind'] as const, registers: [registry] });
  const jobsOldest = new Gauge({
    name: 'marquee_jobs_oldest_waiting_seconds',
    help: 'How long the oldest due, unclaimed job of each kind has been due (0: none waiting).',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const mailQueued = new Gauge({ name: 'marquee_mail_outbox_queued', help: 'Messages written and not yet delivered (or kept) by the mail job.', registers: [registry] });
  const mailOldest = new Gauge({ name: 'marquee_mail_outbox_oldest_seconds', help: 'Age of the oldest queued message (0: none).', registers: [registry] });
  const webhooksPending = new Gauge({ name: 'marquee_webhook_deliveries_pending', help: 'Webhook deliveries not yet succeeded nor given up (retries scheduled included).', registers: [registry] });
  const webhooksOldest = new Gauge({ name: 'marquee_webhook_deliveries_oldest_due_seconds', help: 'How long the oldest pending delivery has been due (0: none due).', registers: [registry] });
  const dbUp = new Gauge({ name: 'marquee_metrics_database_up', help: '1 when the last scrape read the database gauges in time, 0 when it failed or timed out.', registers: [registry] });
  const dbReadSeconds = new Gauge({ name: 'marquee_metrics_database_read_seconds', help: 'How long the last read of the database gauges took.', registers: [registry] });

  let readAt = -Infinity;
  let reading: Promise<void> | undefined;

  async function readDatabase(db: Db) {
    const started = performance.now();
    // statement_timeout: the server stops the read too, not only our wait for it.
    const rows = await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local statement_timeout = ${DB_GAUGES_TIMEOUT_MS}`));
      const jobs = (await tx.execute(sql`
        select name,
          count(*) filter (where locked_until is null or locked_until < now())::int as waiting,
          count(*) filter (where locked_until >= now())::int as running,
          coalesce(extract(epoch from now() - min(run_at) filter (where locked_until is null or locked_until < now())), 0)::float8 as oldest
        from jobs where done_at is null and failed_at is null and run_at <= now()
        group by name`)) as unknown as { rows: Array<{ name: string; waiting: number; running: number; oldest: number }> };
      const outboxes = (await tx.execute(sql`
        select (select count(*) from outbox where status = 'queued')::int as mail,
          coalesce((select extract(epoch from now() - min(created_at)) from outbox where status = 'queued'), 0)::float8 as mail_oldest,
          (select count(*) from webhook_deliveries where status = 'pending')::int as webhooks,
          coalesce((select extract(epoch from now() - min(next_attempt_at)) from webhook_deliveries where status = 'pending' and next_attempt_at <= now()), 0)::float8 as webhooks_oldest`)) as unknown as {
        rows: Array<{ mail: number; mail_oldest: number; webhooks: number; webhooks_oldest: number }>;
      };
      return { jobs: jobs.rows, outboxes: outboxes.rows[0]! };
    });
    jobsWaiting.reset();
    jobsRunning.reset();
    jobsOldest.reset();
    // Every registered kind has its series, 0 when none is waiting (an alert needs the series to exist).
    for (const kind of source?.jobKinds() ?? []) {
      jobsWaiting.set({ kind }, 0);
      jobsRunning.set({ kind }, 0);
      jobsOldest.set({ kind }, 0);
    }
    for (const j of rows.jobs) {
      jobsWaiting.set({ kind: j.name }, Number(j.waiting));
      jobsRunning.set({ kind: j.name }, Number(j.running));
      jobsOldest.set({ kind: j.name }, Math.max(0, Number(j.oldest)));
    }
    mailQueued.set(Number(rows.outboxes.mail));
    mailOldest.set(Math.max(0, Number(rows.outboxes.mail_oldest)));
    webhooksPending.set(Number(rows.outboxes.webhooks));
    webhooksOldest.set(Math.max(0, Number(rows.outboxes.webhooks_oldest)));
    dbReadSeconds.set((performance.now() - started) / 1000);
  }

  /** Scrapes share one read; a read is kept CACHE_MS; a failed or slow one leaves the last values and says so. */
  function refresh(): Promise<void> {
    if (!source) return Promise.resolve();
    if (performance.now() - readAt < (opts.cacheMs ?? DB_GAUGES_CACHE_MS)) return Promise.resolve();
    if (reading) return reading;
    const db = source.db;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('metrics database read timed out')), DB_GAUGES_TIMEOUT_MS);
    });
    reading = Promise.race([readDatabase(db), timeout])
      .then(
        () => dbUp.set(1),
        () => dbUp.set(0),
      )
      .finally(() => {
        clearTimeout(timer);
        readAt = performance.now();
        reading = undefined;
      });
    return reading;
  }

  const token = opts.token ? digest(opts.token) : undefined;
  let server: http.Server | undefined;

  const metrics: Metrics = {
    enabled: true,
    servedOn: opts.port !== undefined ? 'port' : 'public',
    gauge(name, help, read) {
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read());
        },
      });
    },
    observeRequest(method, route, status, seconds) {
      const key = `${method} ${status} ${route}`;
      let child = requestChildren.get(key);
      if (!child) requestChildren.set(key, (child = requests.labels(method, route, String(status))));
      child.observe(seconds);
    },
    observeHold(route) {
      let child = holdChildren.get(route);
      if (!child) holdChildren.set(route, (child = holds.labels(route)));
      child.inc();
    },
    observeRefusal(req, code) {
      const matched = routeOf(req);
      if (matched.config?.countsHolds) refusals.inc({ route: matched.url ?? UNMATCHED_ROUTE, reason: code });
    },
    observeJob(kind, outcome, seconds) {
      jobRuns.observe({ kind, outcome }, seconds);
    },
    attach(s) {
      source = s;
    },
    async render() {
      await refresh();
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
    authorized(header) {
      if (!token) return true;
      const m = /^Bearer (.+)$/i.exec(header ?? '');
      // Both sides hashed first: equal lengths for timingSafeEqual, and nothing learnt from the time taken.
      return !!m && timingSafeEqual(digest(m[1]!.trim()), token);
    },
    port: () => (server?.address() as { port: number } | null | undefined)?.port,
    async listen() {
      if (opts.port === undefined || server) return metrics.port();
      server = http.createServer((req, res) => {
        const path = (req.url ?? '').split('?')[0];
        if (req.method !== 'GET' || path !== '/metrics') {
          res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: metrics are at /metrics\n');
          return;
        }
        if (!metrics.authorized(req.headers.authorization)) {
          res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('A metrics token is required\n');
          return;
        }
        metrics.render().then(
          ({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body),
          () => res.writeHead(500, { 'content-type': 'text/plain' }).end('Metrics failed\n'),
        );
      });
      const s = server;
      await new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.listen(opts.port, opts.host ?? '127.0.0.1', () => resolve());
      });
      return (s.address() as { port: number }).port;
    },
    async close() {
      const s = server;
      server = undefined;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };

  return metrics;
}

/**
 * Times every request the router handled (the public fast path counts its own answers) by its
 * route pattern, and counts the holds; installed by buildApp when metrics are on.
 */
export function installRequestMetrics(app: FastifyInstance, metrics: Metrics) {
  if (!metrics.enabled) return;
  app.addHook('onResponse', (req: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const matched = routeOf(req);
    const route = matched.url ?? UNMATCHED_ROUTE;
    const status = reply.statusCode;
    metrics.observeRequest(req.method, route, status, reply.elapsedTime / 1000);
    if (status === 201 && matched.config?.countsHolds) metrics.observeHold(route);
    done();
  });
}

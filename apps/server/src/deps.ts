import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import type { FailureLimiter } from './platform/failure-limiter.js';
import type { Jobs } from './platform/jobs.js';
import type { Lifecycle } from './platform/lifecycle.js';
import type { Mailer } from './platform/mail.js';
import type { Metrics } from './platform/metrics.js';
import type { PaymentGateway } from './platform/payments/gateway.js';
import type { Storage } from './platform/storage.js';

/** What modules are given: built once in app.ts, never read from globals. */
export type Deps = {
  config: Config;
  database: Database;
  db: Db;
  jobs: Jobs;
  mailer: Mailer;
  payments: PaymentGateway;
  storage: Storage;
  log: FastifyBaseLogger;
  /** Wrong discount codes per client address, shared by every route that checks a code. */
  discountCodeAttempts: FailureLimiter;
  /** Issue 26: Prometheus metrics (a no-op when neither METRICS_PORT nor METRICS_TOKEN is set). */
  metrics: Metrics;

  /** Serving or draining (SIGTERM): /api/health and readiness report it. */
  lifecycle: Lifecycle;
};

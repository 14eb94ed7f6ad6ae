import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const ZEnv = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  BASE_DOMAIN: z.string().default('localhost'),
  PUBLIC_SCHEME: z.enum(['http', 'https']).default('http'),
  /** Port shown in public links; defaults to PORT. Set to '' behind a proxy on 80/443. */
  PUBLIC_PORT: z.string().optional(),
  SECRET: z.string().min(32).optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Marquee <no-reply@marquee.localhost>'),
  ADMIN_EMAIL: z.string().default('admin@marquee.test'),
  ADMIN_PASSWORD: z.string().default('Marquee-Admin-1'),
  SEED_DEMO: z.enum(['true', 'false']).default('true'),
  SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).default(12 * 60),
  SESSION_MAX_HOURS: z.coerce.number().int().min(1).default(14 * 24),
  RATE_LIMIT_AUTH_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  /** Wrong discount codes one address may try in 10 minutes before every code from it is refused. */
  RATE_LIMIT_CODES_PER_10_MINUTES: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_ORDERS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  /** PLACE ORDER and checkout holds past their first checks at once on a node; the others wait their turn (platform/in-flight.ts); 0: no limit. */
  ORDERS_IN_FLIGHT: z.coerce.number().int().min(0).default(128),
  RATE_LIMIT_WAITLIST_JOINS_PER_10_MINUTES: z.coerce.number().int().min(1).default(10),
  /** Invites one person may send in 10 minutes; a tenant may send three times as many. */
  RATE_LIMIT_INVITES_PER_10_MINUTES: z.coerce.number().int().min(1).default(20),
  /** Requests per API key per minute (issue 25), on each app node. */
  RATE_LIMIT_API_KEY_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Which proxies may set X-Forwarded-For: true, false, a hop count, or addresses/subnets ('loopback,10.0.0.0/8'). */
  TRUST_PROXY: z.string().default('loopback'),
  JOBS_POLL_MS: z.coerce.number().int().min(0).default(1000),
  /** Worker threads that build the ticket PDFs (issue 26); 0 builds them on the main thread. */
  PDF_WORKERS: z.coerce.number().int().min(0).max(16).default(1),
  /** This node's name, the same across its restarts (e.g. the host name when one process runs per host). */
  JOBS_NODE_ID: z.string().min(1).max(200).optional(),
  HOLD_MINUTES: z.coerce.number().int().min(1).default(15),
  /** How long report and payout export files (and their rows) are kept before a periodic job removes them. */
  EXPORT_RETENTION_HOURS: z.coerce.number().int().min(1).max(24 * 366).default(24),
  PAYMENT_DRIVER: z.enum(['test', 'stripe']).default('test'),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_API_BASE: z.string().optional(),
  /** Days from payment until the test gateway's balance is available; a fraction (0.0005 = 43 s) lets the browser test watch the wait. */
  PAYOUT_DELAY_DAYS: z.coerce.number().min(0).max(90).default(2),
  /** The test gateway's card fee: basis points (290 = 2.9%) plus flat cents. */
  TEST_GATEWAY_FEE_BASIS_POINTS: z.coerce.number().int().min(0).max(10_000).default(290),
  TEST_GATEWAY_FEE_FLAT_CENTS: z.coerce.number().int().min(0).max(100_000).default(30),
  WEB_DIST: z.string().optional(),
  /** How long (ms) a node serves its in-process snapshot of a public event before re-reading it; 0 reads every time. */
  PUBLIC_SNAPSHOT_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  /** Where files live: local disk under DATA_DIR (default) or an S3-compatible bucket. */
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  /** For S3-compatible servers (MinIO, R2, …); unset for AWS. */
  S3_ENDPOINT: z.string().optional(),
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('false'),
  S3_PREFIX: z.string().default(''),
  /** Unset: the AWS SDK's default chain (environment, profile, instance role). */
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Outgoing webhooks may reach private, loopback and link-local addresses: tests and local receivers only, never in production. */
  WEBHOOKS_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  /** How long (ms) a webhook receiver has to answer. */
  WEBHOOKS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Issue 26: serve Prometheus metrics on this port (its own server on METRICS_HOST); the public port then has none. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** The metrics port's address: loopback unless set (0.0.0.0 in a container that Prometheus scrapes from outside). */
  METRICS_HOST: z.string().default('127.0.0.1'),
  /** A bearer token for /metrics: on the public port when METRICS_PORT is unset, and on the metrics port too when it is set. */
  METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
  /** Issue 26: traces go to this OTLP endpoint (OpenTelemetry's own OTEL_* variables apply); unset, tracing is not even loaded. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().optional(),

  /** SIGTERM: how long (ms) the node may take to finish its requests and hand back its jobs before it exits non-zero anyway. */
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  /** SIGTERM: how long (ms) the node keeps serving while /api/health answers 503 "draining", so that a load balancer stops sending before it stops listening. */
  SHUTDOWN_DELAY_MS: z.coerce.number().int().min(0).max(600_000).default(0),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Issue 28, wallet passes (docs/wallet.md). Apple Wallet: all of the pass type id, the team id, the
  // signer certificate and key and Apple's WWDR certificate, or none; each PEM is a file path or the PEM text.
  APPLE_WALLET_PASS_TYPE_ID: z.string().optional(),
  APPLE_WALLET_TEAM_ID: z.string().optional(),
  APPLE_WALLET_SIGNER_CERT: z.string().optional(),
  APPLE_WALLET_SIGNER_KEY: z.string().optional(),
  APPLE_WALLET_SIGNER_KEY_PASSPHRASE: z.string().optional(),
  APPLE_WALLET_WWDR_CERT: z.string().optional(),
  /** APNs, for pass updates (https://api.push.apple.com); unset: the pushes are logged, not sent. */
  APPLE_WALLET_APNS_URL: z.url().optional(),
  /** Google Wallet: the issuer id and the service account's JSON key (a file path or the JSON text), both or neither. */
  GOOGLE_WALLET_ISSUER_ID: z.string().optional(),
  GOOGLE_WALLET_SERVICE_ACCOUNT_KEY: z.string().optional(),
});

/** Every environment variable the server reads (the compose file's check: apps/server/src/ops/container.test.ts). */
export const CONFIG_ENV_KEYS: readonly string[] = Object.keys(ZEnv.shape);

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  baseDomain: string;
  publicScheme: 'http' | 'https';
  publicPort: string;
  secret: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  adminEmail: string;
  adminPassword: string;
  seedDemo: boolean;
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  rateLimitAuthPerMinute: number;
  rateLimitCodesPer10Minutes: number;
  rateLimitOrdersPerMinute: number;
  /** PLACE ORDER and checkout holds running at once on this node (0: no limit; platform/in-flight.ts). */
  ordersInFlight: number;
  /** Waiting-list joins per client address (issue 24). */
  rateLimitWaitlistJoinsPer10Minutes: number;
  rateLimitInvitesPer10Minutes: number;
  rateLimitApiKeyPerMinute: number;
  /** Fastify's trustProxy: all, none, a list of addresses/subnets, or the nearest n hops. */
  trustProxy: boolean | string[] | ((address: string, hop: number) => boolean);
  jobsPollMs: number;
  pdfWorkers: number;
  jobsNodeId: string | undefined;
  holdMinutes: number;
  /** Hours a report or payout export is kept (file and row) before the sweep job removes it. */
  exportRetentionHours: number;
  paymentDriver: 'test' | 'stripe';
  /** Days after a test payment until its balance is available for payout (Stripe says it itself). */
  payoutDelayDays: number;
  testGatewayFee: { basisPoints: number; flat: number };
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  stripeApiBase: string | undefined;
  webDist: string;
  publicSnapshotMs: number;
  logLevel: string;
  /** Issue 26 (docs/operations.md "Metrics"): nothing is collected or served unless a port or a token is set. */
  metrics: { port?: number; host: string; token?: string; cacheMs?: number };
  /** The OTLP endpoint traces go to; undefined: no tracing. */
  otelEndpoint: string | undefined;

  /** Graceful shutdown on SIGTERM (issue 26): the bound on the whole drain, and the wait before it stops listening. */
  shutdown: { timeoutMs: number; delayMs: number };
  webhooks: { allowPrivate: boolean; timeoutMs: number };
  /** Issue 28: wallet passes; null where the operator configured none (no button shows). */
  wallet: { apple: AppleWalletConfig | null; google: GoogleWalletConfig | null };
  storage:
    | { driver: 'local' }
    | { driver: 's3'; bucket: string; region: string; endpoint?: string; forcePathStyle: boolean; prefix: string; credentials?: { accessKeyId: string; secretAccessKey: string } };
};

export type AppleWalletConfig = { passTypeId: string; teamId: string; signerCert: string; signerKey: string; signerKeyPassphrase?: string; wwdr: string; apnsUrl?: string | null };
export type GoogleWalletConfig = { issuerId: string; clientEmail: string; privateKey: string };

/** A PEM (or JSON) given inline, or the path of the file holding it. */
function textOrFile(name: string, value: string): string {
  const v = value.trim();
  if (v.startsWith('-----BEGIN') || v.startsWith('{')) return v;
  try {
    return readFileSync(path.resolve(v), 'utf8');
  } catch {
    throw new Error(`${name}: cannot read the file ${v}`);
  }
}

function walletOf(e: z.output<typeof ZEnv>): Config['wallet'] {
  const appleVars = {
    APPLE_WALLET_PASS_TYPE_ID: e.APPLE_WALLET_PASS_TYPE_ID,
    APPLE_WALLET_TEAM_ID: e.APPLE_WALLET_TEAM_ID,
    APPLE_WALLET_SIGNER_CERT: e.APPLE_WALLET_SIGNER_CERT,
    APPLE_WALLET_SIGNER_KEY: e.APPLE_WALLET_SIGNER_KEY,
    APPLE_WALLET_WWDR_CERT: e.APPLE_WALLET_WWDR_CERT,
  };
  const googleVars = { GOOGLE_WALLET_ISSUER_ID: e.GOOGLE_WALLET_ISSUER_ID, GOOGLE_WALLET_SERVICE_ACCOUNT_KEY: e.GOOGLE_WALLET_SERVICE_ACCOUNT_KEY };
  // Half a configuration is a mistake to tell at start, not a button that fails when pressed.
  const allOrNone = (vars: Record<string, string | undefined>) => {
    const missing = Object.entries(vars).filter(([, v]) => !v).map(([k]) => k);
    if (missing.length > 0 && missing.length < Object.keys(vars).length) throw new Error(`Wallet passes: also set ${missing.join(', ')} (or none of them)`);
    return missing.length === 0;
  };
  const apple = allOrNone(appleVars)
    ? {
        passTypeId: e.APPLE_WALLET_PASS_TYPE_ID!,
        teamId: e.APPLE_WALLET_TEAM_ID!,
        signerCert: textOrFile('APPLE_WALLET_SIGNER_CERT', e.APPLE_WALLET_SIGNER_CERT!),
        signerKey: textOrFile('APPLE_WALLET_SIGNER_KEY', e.APPLE_WALLET_SIGNER_KEY!),
        signerKeyPassphrase: e.APPLE_WALLET_SIGNER_KEY_PASSPHRASE || undefined,
        wwdr: textOrFile('APPLE_WALLET_WWDR_CERT', e.APPLE_WALLET_WWDR_CERT!),
        apnsUrl: e.APPLE_WALLET_APNS_URL || null,
      }
    : null;
  let google: GoogleWalletConfig | null = null;
  if (allOrNone(googleVars)) {
    let key: { client_email?: unknown; private_key?: unknown };
    try {
      key = JSON.parse(textOrFile('GOOGLE_WALLET_SERVICE_ACCOUNT_KEY', e.GOOGLE_WALLET_SERVICE_ACCOUNT_KEY!));
    } catch (err) {
      throw new Error(`GOOGLE_WALLET_SERVICE_ACCOUNT_KEY: not a service account's JSON key (${(err as Error).message})`);
    }
    if (typeof key.client_email !== 'string' || typeof key.private_key !== 'string') {
      throw new Error('GOOGLE_WALLET_SERVICE_ACCOUNT_KEY: the JSON key has no client_email or private_key');
    }
    google = { issuerId: e.GOOGLE_WALLET_ISSUER_ID!, clientEmail: key.client_email, privateKey: key.private_key };
  }
  return { apple, google };
}

/** The secret signs file URLs and webhooks; it is generated once per data directory when not given. */
function loadSecret(dataDir: string, given: string | undefined): string {
  if (given) return given;
  const file = path.join(dataDir, 'secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

// Trusting every X-Forwarded-For would let any client pick its own address and walk past the
// per-address rate limits; by default only a proxy on this machine is believed.
function parseTrustProxy(value: string): Config['trustProxy'] {
  const v = value.trim().toLowerCase();
  if (v === 'true') return true;
  if (v === 'false' || v === '') return false;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    return (_address, hop) => hop < hops;
  }
  return v.split(',').map((s) => s.trim()).filter(Boolean);
}

function storageOf(e: z.output<typeof ZEnv>): Config['storage'] {
  if (e.STORAGE_DRIVER === 'local') return { driver: 'local' };
  if (!e.S3_BUCKET) throw new Error('STORAGE_DRIVER=s3 needs S3_BUCKET');
  const credentials = e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY } : undefined;
  return {
    driver: 's3',
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT || undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
    prefix: e.S3_PREFIX,
    credentials,
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const e = ZEnv.parse(env);
  const dataDir = path.resolve(overrides.dataDir ?? e.DATA_DIR);
  const port = overrides.port ?? e.PORT;
  return {
    port,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL || undefined,
    baseDomain: e.BASE_DOMAIN,
    publicScheme: e.PUBLIC_SCHEME,
    publicPort: e.PUBLIC_PORT ?? String(port),
    secret: overrides.secret ?? loadSecret(dataDir, e.SECRET),
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    adminEmail: e.ADMIN_EMAIL.toLowerCase(),
    adminPassword: e.ADMIN_PASSWORD,
    seedDemo: e.SEED_DEMO === 'true',
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionMaxHours: e.SESSION_MAX_HOURS,
    rateLimitAuthPerMinute: e.RATE_LIMIT_AUTH_PER_MINUTE,
    rateLimitCodesPer10Minutes: e.RATE_LIMIT_CODES_PER_10_MINUTES,
    rateLimitApiKeyPerMinute: e.RATE_LIMIT_API_KEY_PER_MINUTE,
    rateLimitOrdersPerMinute: e.RATE_LIMIT_ORDERS_PER_MINUTE,
    ordersInFlight: e.ORDERS_IN_FLIGHT,
    rateLimitWaitlistJoinsPer10Minutes: e.RATE_LIMIT_WAITLIST_JOINS_PER_10_MINUTES,
    rateLimitInvitesPer10Minutes: e.RATE_LIMIT_INVITES_PER_10_MINUTES,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    jobsPollMs: e.JOBS_POLL_MS,
    pdfWorkers: e.PDF_WORKERS,
    jobsNodeId: e.JOBS_NODE_ID,
    holdMinutes: e.HOLD_MINUTES,
    exportRetentionHours: e.EXPORT_RETENTION_HOURS,
    paymentDriver: e.PAYMENT_DRIVER,
    payoutDelayDays: e.PAYOUT_DELAY_DAYS,
    testGatewayFee: { basisPoints: e.TEST_GATEWAY_FEE_BASIS_POINTS, flat: e.TEST_GATEWAY_FEE_FLAT_CENTS },
    stripeSecretKey: e.STRIPE_SECRET_KEY,
    stripeWebhookSecret: e.STRIPE_WEBHOOK_SECRET,
    stripeApiBase: e.STRIPE_API_BASE,
    webDist: path.resolve(e.WEB_DIST ?? new URL('../../web/dist', import.meta.url).pathname),
    publicSnapshotMs: e.PUBLIC_SNAPSHOT_MS,
    logLevel: e.LOG_LEVEL,
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN || undefined },
    otelEndpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,

    shutdown: { timeoutMs: e.SHUTDOWN_TIMEOUT_MS, delayMs: e.SHUTDOWN_DELAY_MS },
    webhooks: { allowPrivate: e.WEBHOOKS_ALLOW_PRIVATE === 'true', timeoutMs: e.WEBHOOKS_TIMEOUT_MS },
    storage: storageOf(e),
    wallet: walletOf(e),
    ...overrides,
  };
}

/** Public origin of the platform console, or of a tenant's host when a slug is given. */
export function publicOrigin(config: Config, tenantSlug?: string): string {
  const host = tenantSlug ? `${tenantSlug}.${config.baseDomain}` : config.baseDomain;
  const port = config.publicPort && !['80', '443'].includes(config.publicPort) ? `:${config.publicPort}` : '';
  return `${config.publicScheme}://${host}${port}`;
}

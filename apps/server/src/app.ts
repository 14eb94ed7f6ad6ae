import { existsSync } from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import { M } from '@marquee/core';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { addSecurityHeaders } from './platform/security-headers.js';
import type { Config } from './config.js';
import type { Database } from './db/client.js';
import type { Deps } from './deps.js';
import { registerAccountRoutes } from './modules/accounts/routes.js';
import { registerFileRoutes } from './modules/files/routes.js';
import { registerHealthRoutes } from './modules/health/routes.js';
import { registerApiKeyRoutes } from './modules/api-keys/routes.js';
import { registerAuditRoutes } from './modules/audit/routes.js';
import { registerEmbedRoutes } from './modules/embed/routes.js';
import { registerOutboxRoutes } from './modules/outbox/routes.js';
import { registerPaymentRoutes } from './modules/payments/routes.js';
import { registerBuyerRoutes } from './modules/fulfilment/buyer-routes.js';
import { registerFulfilmentRoutes } from './modules/fulfilment/routes.js';
import { registerOrderAdminRoutes } from './modules/order-admin/routes.js';
import { registerMailoutRoutes } from './modules/mailout/routes.js';
import { registerSiteRoutes } from './modules/site/routes.js';
import { registerTenantCreationRoutes } from './modules/tenant-creation/routes.js';
import { registerTenantRoutes } from './modules/tenants/routes.js';
import { registerPlatformUserRoutes } from './modules/platform-users/routes.js';
import { registerStaffRoutes } from './modules/staff/routes.js';
import { registerPolicyRoutes } from './modules/policies/routes.js';
import { registerFeeRoutes } from './modules/fees/routes.js';
import { registerPaymentSettingsRoutes } from './modules/payment-settings/routes.js';
import { registerPlatformDashboardRoutes } from './modules/platform-dashboard/routes.js';
import { registerEventRoutes } from './modules/events/routes.js';
import { registerTicketTypeRoutes } from './modules/ticket-types/routes.js';
import { registerQuestionRoutes } from './modules/questions/routes.js';
import { registerDiscountRoutes } from './modules/discounts/routes.js';
import { registerCheckoutRoutes } from './modules/checkout/routes.js';
import { registerOrderRoutes } from './modules/orders/routes.js';
import { registerPublicSiteRoutes } from './modules/public-site/routes.js';
import { registerCharityRoutes } from './modules/charities/routes.js';
import { registerPayoutRoutes } from './modules/payouts/routes.js';
import { registerCashDrawerRoutes } from './modules/cash-drawers/routes.js';
import { registerReportRoutes } from './modules/reports/routes.js';
import { registerCheckinRoutes } from './modules/checkin/routes.js';
import { registerBoxOfficeRoutes } from './modules/box-office/routes.js';
import { registerSeatingRoutes } from './modules/seating/routes.js';
import { registerSeriesRoutes } from './modules/series/routes.js';
import { registerWaitingRoomRoutes } from './modules/waiting-room/routes.js';
import { registerTransferRoutes } from './modules/transfers/routes.js';

import { registerWaitlistRoutes } from './modules/waitlist/routes.js';
import { registerTemplateRoutes } from './modules/templates/routes.js';
import { registerPageBuilderRoutes } from './modules/page-builder/routes.js';
import { registerEventPageRoutes } from './modules/event-pages/routes.js';
import { registerWebhookRoutes } from './modules/webhooks/routes.js';
import { installPublicFastPath } from './modules/public-site/fast-path.js';
import { AppError, DomainError, RetryLaterError } from './platform/errors.js';
import { findInvalidText, hasInvalidText } from './platform/validate.js';
import { registerGuard } from './platform/auth/guard.js';
import { scopeOf } from './platform/auth/scopes.js';
import { createJobs } from './platform/jobs.js';
import { createMetrics, installRequestMetrics } from './platform/metrics.js';
import { installTenantLogs, requestIdOf, tenantIdOf } from './platform/request-context.js';
import type { Tracing } from './platform/tracing.js';
import { createLifecycle } from './platform/lifecycle.js';
import { createFailureLimiter } from './platform/failure-limiter.js';
import { createMailer } from './platform/mail.js';
import { createPaymentGateway } from './platform/payments/index.js';
import { createLocalStorage } from './platform/storage.js';
import { createS3Storage } from './platform/storage-s3.js';

export type App = FastifyInstance & { deps: Deps };

/**
 * One access line per request, when it is answered, instead of Fastify's two ('incoming request'
 * and 'request completed'): in a rush each line is a synchronous write (docs/decisions.md "Rush:
 * one log line per request"). Errors are logged as Fastify logs them.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) return super.requestCompleted(error, request, reply);
    reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime, tenantId: tenantIdOf(request) }, 'request completed');
  }
}

/**
 * Builds the whole server around an open database. Listening and job workers are the caller's;
 * `tracing` (platform/tracing.ts) when the process started OpenTelemetry; `logStream` (tests) takes the log lines.
 */
export async function buildApp(config: Config, database: Database, opts: { tracing?: Tracing; logStream?: { write(line: string): void } } = {}): Promise<App> {
  const app = Fastify({
    // Every schema is zod: Fastify's own compilers (ajv, fast-json-stringify) would only cost their
    // loading at every start (bench/README.md "Start").
    // (The factories are typed for ajv schemas; ours take zod ones, as setValidatorCompiler below.)
    schemaController: { compilersFactory: { buildValidator: (() => validatorCompiler) as never, buildSerializer: (() => serializerCompiler) as never } },
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel, ...(opts.logStream ? { stream: opts.logStream } : {}) },
    logController: new OneLinePerRequest(),
    trustProxy: config.trustProxy,
    // Issue 26: one id per request in the logs, the trace and the answer's X-Request-Id (a proxy's own, when it sends one).
    genReqId: requestIdOf,
    bodyLimit: 1024 * 1024,
    // Longer than any id we take (an e-mail is at most 254 characters), so the routes' own schemas decide.
    routerOptions: { maxParamLength: 300 },
    // A graceful shutdown (SIGTERM, shutdown.ts) serves every request that reaches it, also one on
    // a kept-alive connection after close began (answered with Connection: close), instead of
    // Fastify's default 503: the proxy's health check already stopped sending new work here.
    return503OnClosing: false,
    // The router's own refusals (a path segment past that length, bad percent-encoding) answer in our error shape too.
    // (Before any hook: the request id, which the hooks set on every other answer, is set here.)
    frameworkErrors: (err, req, reply) => {
      const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
      void (reply as FastifyReply).header('x-request-id', req.id).status(tooLong ? 414 : 400).send({ error: { code: 'BAD_REQUEST', message: tooLong ? M.addressTooLong : M.addressInvalid } });
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const metrics = await createMetrics(config.metrics);
  const jobs = createJobs(database.db, app.log, config.jobsPollMs, { nodeId: config.jobsNodeId, onRun: metrics.enabled ? metrics.observeJob : undefined });
  metrics.attach({ db: database.db, database, jobKinds: jobs.kinds });
  const storage =
    config.storage.driver === 's3'
      ? createS3Storage({ ...config.storage, secret: config.secret, publicBase: '' })
      : createLocalStorage({ root: path.join(config.dataDir, 'files'), secret: config.secret, publicBase: '' });
  const mailer = createMailer({ db: database.db, jobs, storage, log: app.log, smtpUrl: config.smtpUrl, from: config.mailFrom });
  // The pooled SMTP connections stay open between mails: closed with the app.
  app.addHook('onClose', async () => mailer.close?.());
  const payments = createPaymentGateway({ config, db: database.db, jobs });
  const discountCodeAttempts = createFailureLimiter({ max: config.rateLimitCodesPer10Minutes, windowMs: 10 * 60_000 });
  const deps: Deps = { config, database, db: database.db, jobs, mailer, payments, storage, log: app.log, discountCodeAttempts, metrics, lifecycle: createLifecycle() };
  app.decorate('deps', deps);

  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    if (metrics.enabled) metrics.observeRefusal(req, err instanceof DomainError ? err.domainCode : err instanceof AppError ? err.code : refusalCodeOf(err));
    if (err instanceof DomainError) {
      if (err.retryAfterSeconds !== undefined) reply.header('retry-after', err.retryAfterSeconds);
      const error = { code: err.code, message: err.message, fields: err.fields, domainCode: err.domainCode };
      return reply.status(err.status).send({ error, ...err.payload });
    }
    if (err instanceof AppError) {
      if (err instanceof RetryLaterError) reply.header('retry-after', err.retryAfterSeconds);
      return reply.status(err.status).send({ error: { code: err.code, message: err.message, fields: err.fields } });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const fields: Record<string, string> = {};
      for (const v of err.validation) {
        const key = v.instancePath.replace(/^\//, '').replace(/\//g, '.') || String(v.params?.missingProperty ?? '_');
        fields[key] ??= v.message ?? M.invalidValue;
      }
      const message = err.validation[0]?.message ?? M.inputValidationError;
      return reply.status(400).send({ error: { code: 'VALIDATION', message, fields } });
    }
    const status = err.statusCode ?? 500;
    if (status === 429) return reply.status(429).send({ error: { code: 'RATE_LIMITED', message: M.tooManyRequests } });
    if (status >= 400 && status < 500) {
      const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST';
      return reply.status(status).send({ error: { code, message: err.message } });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' } });
  });

  // PostgreSQL text cannot hold U+0000, nor any text a lone surrogate: a path, query or JSON value
  // carrying one is bad input, refused before any handler reads or writes with it (it would
  // otherwise fail as a 500 or be stored mangled).
  // (A synchronous hook, and the path worked out only for a value that has such text: issue 23 perreq.)
  app.addHook('preValidation', (req, _reply, done) => {
    const { params, query, body } = req;
    if (!hasInvalidText(params) && !hasInvalidText(query) && !hasInvalidText(body)) return done();
    const field = findInvalidText(params) ?? findInvalidText(query) ?? findInvalidText(body) ?? '_';
    done(new AppError('VALIDATION', M.invalidValue, { [field]: M.invalidValue }));
  });

  app.setNotFoundHandler((req, reply) => {
    // /api and below only: /api-keys is the console's page (issue 25).
    if (/^\/api(?:[/?]|$)/.test(req.url) || req.method !== 'GET' || !existsSync(path.join(config.webDist, 'index.html'))) {
      return reply.status(404).send({ error: { code: 'NOT_FOUND', message: M.notFound } });
    }
    // The web app is a single page: every non-API path serves index.html and the router decides.
    return sendAppDocument(reply, config.webDist);
  });

  await app.register(cookie);
  addSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // 'wasm-unsafe-eval': the check-in page's QR reader (zxing-wasm) compiles WebAssembly; it allows no eval of JavaScript.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        connectSrc: ["'self'"],
        formAction: ["'self'", 'https://checkout.stripe.com'],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: config.publicScheme === 'https',
    // HSTS follows PUBLIC_SCHEME above; behind a TLS-terminating proxy that TRUST_PROXY believes,
    // an https request gets it too even when PUBLIC_SCHEME was left at http.
  }, { hstsWhenHttps: config.publicScheme !== 'https' });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => ({ statusCode: 429, error: { code: 'RATE_LIMITED', message: M.tooManyRequests } }),
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Marquee API', version: '1.0.0', description: 'Multi-tenant event ticketing.' },
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'mq_session', description: 'The console’s session cookie; writes also need the X-CSRF-Token header.' },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'mq_<prefix>_<secret>',
            description: 'An API key (docs/api.md): `Authorization: Bearer mq_…`. Each operation a key may call names its scope in `x-scope`; no CSRF token.',
          },
        },
      },
    },
    transform: (args) => withKeyScope(jsonSchemaTransform(args), args.route.method, args.url),
  });

  // Issue 26: before the guard, so that its refusals have a span too (their X-Request-Id is set with
  // the security headers, the first onRequest hook).
  opts.tracing?.install(app);
  registerGuard(app, {
    db: database.db,
    baseDomain: config.baseDomain,
    session: { idleMinutes: config.sessionIdleMinutes, maxHours: config.sessionMaxHours },
    apiKeyPerMinute: config.rateLimitApiKeyPerMinute,
  });
  // After the guard: the tenant it found goes into the request's log lines (no child logger when logging is off).
  if (config.logLevel !== 'silent') installTenantLogs(app);
  installRequestMetrics(app, metrics);
  // The metrics port (when configured) opens when the app is ready and closes with it.
  app.addHook('onReady', async () => {
    await metrics.listen();
  });
  app.addHook('onClose', async () => {
    await metrics.close();
    // The spans still buffered are sent before the process goes.
    await opts.tracing?.shutdown();
  });

  registerHealthRoutes(app, deps);
  registerFileRoutes(app, deps);
  registerOutboxRoutes(app, deps);
  registerWebhookRoutes(app, deps);
  registerPaymentRoutes(app, deps);
  registerFulfilmentRoutes(app, deps);
  registerBuyerRoutes(app, deps);
  registerTransferRoutes(app, deps);
  registerOrderAdminRoutes(app, deps);
  registerMailoutRoutes(app, deps);
  registerSiteRoutes(app, deps);
  registerTenantCreationRoutes(app, deps);
  registerPlatformUserRoutes(app, deps);
  registerStaffRoutes(app, deps);
  registerPolicyRoutes(app, deps);
  registerFeeRoutes(app, deps);
  registerPaymentSettingsRoutes(app, deps);
  registerPlatformDashboardRoutes(app, deps);
  registerTicketTypeRoutes(app, deps);
  registerQuestionRoutes(app, deps);
  registerDiscountRoutes(app, deps);
  registerCheckoutRoutes(app, deps);
  registerOrderRoutes(app, deps);
  registerPublicSiteRoutes(app, deps);
  registerCharityRoutes(app, deps);
  registerCashDrawerRoutes(app, deps);
  registerPayoutRoutes(app, deps);
  registerReportRoutes(app, deps);
  registerCheckinRoutes(app, deps);
  registerBoxOfficeRoutes(app, deps);
  registerSeatingRoutes(app, deps);
  registerSeriesRoutes(app, deps);
  registerWaitingRoomRoutes(app, deps);
  registerWaitlistRoutes(app, deps);
  registerTemplateRoutes(app, deps);
  registerPageBuilderRoutes(app, deps);
  registerApiKeyRoutes(app, deps);
  registerAuditRoutes(app, deps);
  registerEmbedRoutes(app, deps);
  // The modules whose routes take a file (a profile picture, a tenant's logo, an event's cover and
  // seat map) in a context of their own with @fastify/multipart (issue 23 perreq): the plugin adds an
  // onRequest hook (a 'close' listener on every answer) and an onResponse hook (its temporary files,
  // which we never write: uploads are read as streams, platform/multipart.ts) to every request of the
  // context it is registered in, so it is registered where the uploads are. Elsewhere a multipart
  // body is refused as any other unsupported type (415). Loaded at the next await, after every hook
  // above: the context gets them all (the guard, the headers, metrics, the snapshots' expiry).
  void app.register(async (uploads) => {
    await uploads.register(multipart, { limits: { fileSize: 25 * 1024 * 1024, files: 1, fields: 10 } });
    registerAccountRoutes(uploads, deps);
    registerTenantRoutes(uploads, deps);
    registerEventRoutes(uploads, deps);
  });

  if (existsSync(config.webDist)) {
    // Built files are named by their content hash; .br/.gz beside them are written by the build (vite.config.ts).
    // Vite's files are named by their content (assets/*-hash.js): a browser keeps them for a year.
    // index.html, the one name that changes, is sent with maxAge 0 below and by the not-found handler.
    // assets/ is one wildcard route (a route per built file cost about 0.2 s of every start);
    // the few files beside index.html keep a route each, so that they win over the event pages' routes.
    const builtFiles = { preCompressed: true, maxAge: '365d', immutable: true, index: false } as const;
    await app.register(fastifyStatic, { ...builtFiles, root: path.join(config.webDist, 'assets'), prefix: '/assets/', wildcard: true });
    await app.register(fastifyStatic, {
      ...builtFiles,
      root: config.webDist,
      wildcard: false,
      decorateReply: false,
      globIgnore: ['assets/**', '**/*.br', '**/*.gz', 'index.html'],
    });
    app.get('/', { config: {} }, (_req, reply) => sendAppDocument(reply, config.webDist));
  }
  registerEventPageRoutes(app, deps);

  await app.ready();
  // Repeated public GETs of an event (issue 13) are answered before routing: modules/public-site/fast-path.ts.
  installPublicFastPath(app, deps);
  return app as unknown as App;
}

/** The generic code the error handler answers a framework error with (for the hold refusals' reason). */
function refusalCodeOf(err: FastifyError): string {
  if (hasZodFastifySchemaValidationErrors(err)) return 'VALIDATION';
  const status = err.statusCode ?? 500;
  return status === 429 ? 'RATE_LIMITED' : status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : status === 404 ? 'NOT_FOUND' : status < 500 ? 'BAD_REQUEST' : 'INTERNAL';
}

/** Issue 25: the OpenAPI document names each operation's API key scope (platform/auth/scopes.ts) and its security. */
function withKeyScope<T extends { schema: object; url: string }>(out: T, method: string | string[], url: string): T {
  if (!url.startsWith('/api')) return out;
  const scope = scopeOf(Array.isArray(method) ? method[0]! : method, url);
  const schema = out.schema as Record<string, unknown>;
  const note = scope ? `API key scope: \`${scope}\`.` : 'Not for API keys.';
  const security = scope ? [{ session: [] }, { apiKey: [] }] : [{ session: [] }];
  return { ...out, schema: { ...schema, security, 'x-scope': scope, description: schema.description ? `${String(schema.description)}\n\n${note}` : note } };
}

/**
 * index.html names the current build's hashed files, so a browser must ask again every time (a year's
 * immutable cache kept visitors on the old build's deleted files after an upgrade). @fastify/static
 * ignores maxAge 0 given per call and keeps the plugin's year, so the header is written here.
 */
function sendAppDocument(reply: FastifyReply, webDist: string) {
  return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html', webDist, { cacheControl: false });
}

import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

// Issue 26: every request has an id that the logs, the trace and the answer (X-Request-Id) share,
// and once the guard knows it, the tenant it was for.

const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/**
 * Fastify's genReqId: a proxy's (or a client's) X-Request-Id when it is a plain token of at most
 * 128 characters, so that one id follows the request from the proxy's log to ours; a UUID otherwise.
 */
export function requestIdOf(raw: IncomingMessage): string {
  const given = raw.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

/** The tenant a request acts in, once the guard has run: the console's tenant, or the host's. */
export function tenantIdOf(req: FastifyRequest): string | undefined {
  return req.tenantCtx?.tenantId ?? req.siteCtx?.tenant.id ?? req.ctx?.hostTenant?.id ?? undefined;
}

/**
 * The matched route's pattern and config: the guard's copy, read once a request (Fastify's
 * `req.routeOptions` builds a new object at every read), or Fastify's when the guard did not run.
 */
export function routeOf(req: FastifyRequest): { url: string | undefined; config: FastifyContextConfig | undefined } {
  return req.ctx?.route ?? req.routeOptions;
}

/** Replaces the request's logger (and its reply's: Fastify gives each its own reference). */
export function setRequestLog(req: FastifyRequest, reply: FastifyReply, bindings: Record<string, string>) {
  const log = req.log.child(bindings);
  req.log = log;
  reply.log = log;
}

/** Registered after the guard: the request's log lines carry its tenant once the guard knows it. */
export function installTenantLogs(app: FastifyInstance) {
  app.addHook('preHandler', (req, reply, done) => {
    const tenantId = tenantIdOf(req);
    if (tenantId) setRequestLog(req, reply, { tenantId });
    done();
  });
}

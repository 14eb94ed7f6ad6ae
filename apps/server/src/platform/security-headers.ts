import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's headers for the given options, worked out once. They depend on the options alone (no
 * nonces), so computing them per request, as @fastify/helmet does, only cost time on every answer.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let done = false;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  if (!done) throw new Error('helmet did not finish synchronously');
  return headers;
}

/**
 * Every answer carries the security headers and its request's id (X-Request-Id, issue 26); a route
 * may still set its own (the pay page's CSP). `hstsWhenHttps`: Strict-Transport-Security also on a
 * request that arrived over https (behind a TLS-terminating proxy that TRUST_PROXY believes) when
 * the helmet options left it off (PUBLIC_SCHEME http).
 *
 * One synchronous onRequest hook for all of it (issue 23 perreq): every request paid a hook each
 * (an async one for the https check, an onSend one for the id), and a hook is a few µs of the
 * server's one thread on every request. Headers set in onRequest stay on every answer Fastify sends,
 * refusals by the guard and the error handler's included (it only replaces content-type and -length).
 */
export function addSecurityHeaders(app: FastifyInstance, options: HelmetOptions, opts: { hstsWhenHttps?: boolean } = {}): void {
  const headers = securityHeaders(options);
  const names = Object.keys(headers);
  const values = names.map((n) => headers[n]!);
  const hstsWhenHttps = opts.hstsWhenHttps === true && !('strict-transport-security' in headers);
  app.addHook('onRequest', (req, reply, next) => {
    for (let i = 0; i < names.length; i++) reply.header(names[i]!, values[i]);
    reply.header('x-request-id', req.id);
    if (hstsWhenHttps && req.protocol === 'https') reply.header('strict-transport-security', HSTS);
    next();
  });
}

/** The Strict-Transport-Security an https request gets behind a proxy (PUBLIC_SCHEME left at http). */
export const HSTS = 'max-age=31536000; includeSubDomains';

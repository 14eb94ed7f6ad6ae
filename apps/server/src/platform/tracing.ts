import type { Span } from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { setRequestLog, tenantIdOf } from './request-context.js';

// Issue 26: traces are optional and off by default. With OTEL_EXPORTER_OTLP_ENDPOINT set, the
// OpenTelemetry SDK is loaded (only then: a start without it imports none of it) and configured
// by OpenTelemetry's own variables (OTEL_EXPORTER_OTLP_PROTOCOL, OTEL_SERVICE_NAME, ...). Each
// request routed by Fastify gets a server span named by its route pattern, continuing the caller's
// trace (traceparent), with the request id and the tenant as attributes; its log lines carry the
// trace id. docs/decisions.md "Issue 26.2" says why the span is made here rather than by the
// module-patching instrumentations.

export type Tracing = {
  /** Adds the request spans to an app (buildApp calls it). */
  install(app: FastifyInstance): void;
  /** Sends the spans ended so far (tests; a shutdown flushes too). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
};

export const REQUEST_ID_ATTRIBUTE = 'marquee.request_id';
export const TENANT_ID_ATTRIBUTE = 'marquee.tenant_id';

/** Starts the SDK when an endpoint is given; undefined (and nothing loaded) otherwise. */
export async function startTracing(opts: { endpoint: string | undefined; serviceName?: string }): Promise<Tracing | undefined> {
  if (!opts.endpoint) return undefined;
  const [{ NodeSDK }, api] = await Promise.all([import('@opentelemetry/sdk-node'), import('@opentelemetry/api')]);
  // The endpoint is read from the environment by the SDK, as the rest of OTEL_*; a caller that
  // names one (tests) sets it there first.
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = opts.endpoint;
  const sdk = new NodeSDK({
    serviceName: opts.serviceName ?? process.env.OTEL_SERVICE_NAME ?? 'marquee',
    // Traces only: metrics are Prometheus's (platform/metrics.ts), logs are pino's.
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  const tracer = api.trace.getTracer('marquee-server');
  const spans = new WeakMap<FastifyRequest, Span>();

  return {
    install(app) {
      app.addHook('onRequest', (req, reply, done) => {
        const parent = api.propagation.extract(api.ROOT_CONTEXT, req.headers);
        const route = req.routeOptions.url;
        const span = tracer.startSpan(
          route ? `${req.method} ${route}` : req.method,
          {
            kind: api.SpanKind.SERVER,
            attributes: {
              'http.request.method': req.method,
              ...(route ? { 'http.route': route } : {}),
              'url.path': req.url.split('?')[0]!,
              'server.address': req.hostname,
              [REQUEST_ID_ATTRIBUTE]: req.id,
            },
          },
          parent,
        );
        spans.set(req, span);
        setRequestLog(req, reply, { traceId: span.spanContext().traceId });
        done();
      });
      app.addHook('onResponse', (req, reply, done) => {
        const span = spans.get(req);
        if (span) {
          const tenantId = tenantIdOf(req);
          if (tenantId) span.setAttribute(TENANT_ID_ATTRIBUTE, tenantId);
          span.setAttribute('http.response.status_code', reply.statusCode);
          if (reply.statusCode >= 500) span.setStatus({ code: api.SpanStatusCode.ERROR });
          span.end();
          spans.delete(req);
        }
        done();
      });
    },
    async flush() {
      const provider = api.trace.getTracerProvider() as { getDelegate?: () => { forceFlush?: () => Promise<void> } };
      await provider.getDelegate?.().forceFlush?.();
    },
    shutdown: () => sdk.shutdown(),
  };
}

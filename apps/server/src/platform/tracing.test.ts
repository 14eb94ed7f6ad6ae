import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenTenantWithAdmin, startServer, type GivenTenant, type Client, type TestServer } from '../../test/harness.js';
import { REQUEST_ID_ATTRIBUTE, startTracing, TENANT_ID_ATTRIBUTE, type Tracing } from './tracing.js';

// Issue 26.2: with OTEL_EXPORTER_OTLP_ENDPOINT set, each request's span reaches an OTLP/HTTP
// receiver (here a tiny one taking JSON) with the request id and the tenant; the logs carry them too.

type OtlpValue = { stringValue?: string; intValue?: string | number };
type OtlpSpan = { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes: Array<{ key: string; value: OtlpValue }> };

let receiver: http.Server;
const spans: OtlpSpan[] = [];
const logLines: Array<Record<string, unknown>> = [];
let tracing: Tracing;
let server: TestServer;
let tenant: GivenTenant;
let admin: Client;

const attr = (span: OtlpSpan, key: string) => {
  const v = span.attributes.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue !== undefined ? Number(v.intValue) : undefined);
};

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const doc = JSON.parse(body) as { resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }> };
        for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  process.env.OTEL_EXPORTER_OTLP_PROTOCOL = 'http/json';
  tracing = (await startTracing({ endpoint: `http://127.0.0.1:${(receiver.address() as { port: number }).port}`, serviceName: 'marquee-test' }))!;
  server = await startServer({ logLevel: 'info' }, { tracing, logStream: { write: (line) => void logLines.push(JSON.parse(line)) } });
  ({ tenant, admin } = await givenTenantWithAdmin(server));
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('traces (OTEL_EXPORTER_OTLP_ENDPOINT set)', () => {
  it('is off without an endpoint: nothing is started', async () => {
    expect(await startTracing({ endpoint: undefined })).toBeUndefined();
  });

  it('sends a server span per request, named by its route, with the request id and the tenant; the log line carries both and the trace id', async () => {
    const res = await admin.get(`/api/tenants/${tenant.id}/events`, { 'x-request-id': 'trace-test-1' });
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('trace-test-1');
    await tracing.flush();
    const span = spans.find((s) => attr(s, REQUEST_ID_ATTRIBUTE) === 'trace-test-1');
    expect(span, 'the span reached the receiver').toBeDefined();
    expect(span!.name).toBe('GET /api/tenants/:tenantId/events');
    expect(span!.kind).toBe(2); // SERVER
    expect(attr(span!, TENANT_ID_ATTRIBUTE)).toBe(tenant.id);
    expect(attr(span!, 'http.route')).toBe('/api/tenants/:tenantId/events');
    expect(attr(span!, 'http.response.status_code')).toBe(200);

    const line = logLines.find((l) => l.reqId === 'trace-test-1' && l.msg === 'request completed');
    expect(line).toMatchObject({ reqId: 'trace-test-1', tenantId: tenant.id, traceId: span!.traceId });
  });

  it("continues the caller's trace (traceparent)", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = '00f067aa0ba902b7';
    const res = await server.client(tenant.url).get('/api/site/context', { traceparent: `00-${traceId}-${parent}-01`, 'x-request-id': 'trace-test-2' });
    expect(res.status).toBe(200);
    await tracing.flush();
    const span = spans.find((s) => attr(s, REQUEST_ID_ATTRIBUTE) === 'trace-test-2');
    expect(span).toMatchObject({ traceId, parentSpanId: parent });
    // On a tenant's host the tenant is the host's.
    expect(attr(span!, TENANT_ID_ATTRIBUTE)).toBe(tenant.id);
  });
});

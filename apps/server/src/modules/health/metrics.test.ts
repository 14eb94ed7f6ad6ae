import http from 'node:http';
import { M } from '@marquee/core';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../db/schema/index.js';
import {
  checkoutPayload,
  givenEventOnSale,
  givenTenantWithSettings,
  notFoundError,
  startServer,
  type GivenEventOnSale,
  type GivenTenant,
  type TestServer,
} from '../../../test/harness.js';

// Issue 26.1: Prometheus metrics, through HTTP, during a small sale made through the real routes.

const TOKEN = 'metrics-token-0123456789abcdef';
const ORDERS_ROUTE = '/api/p/tenants/:tenantId/events/:eventId/orders';

/** One sample's value: `name{labels}` as written, or the sum over every label set when `labels` is omitted. */
function sample(text: string, name: string, labels?: Record<string, string>): number | undefined {
  let found: number | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (labels && !Object.entries(labels).every(([k, v]) => have[k] === v)) continue;
    found = (found ?? 0) + Number(m[4]);
  }
  return found;
}

function get(port: number, path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers }, (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      })
      .on('error', reject);
  });
}

describe('/metrics behind METRICS_TOKEN on the public port', () => {
  let server: TestServer;
  let tenant: GivenTenant;
  let event: GivenEventOnSale;
  const auth = { authorization: `Bearer ${TOKEN}` };
  const scrape = async () => {
    const res = await server.client().get('/metrics', auth);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.body as string;
  };

  beforeAll(async () => {
    server = await startServer({ metrics: { host: '127.0.0.1', token: TOKEN, cacheMs: 0 } });
    tenant = await givenTenantWithSettings(server);
    event = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'General Admission', price: 4500, quantity: 4 }] });
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses a scrape without the token, or with a wrong one, as 401 (and bad header values too)', async () => {
    for (const headers of <Array<Record<string, string>>>[{}, { authorization: 'Bearer wrong-token-wrong-token' }, { authorization: TOKEN }, { authorization: `Basic ${TOKEN}` }, { authorization: `Bearer ${'x'.repeat(8000)}` }]) {
      const res = await server.client().get('/metrics', headers);
      expect(res.status, JSON.stringify(headers).slice(0, 60)).toBe(401);
      expect(res.body).toEqual({ error: { code: 'UNAUTHENTICATED', message: M.metricsTokenRequired } });
      expect(res.headers['www-authenticate']).toBe('Bearer');
    }
    // Not an API route: nothing of it is in the API document.
    const doc = await server.client().get('/api/docs/openapi.json');
    expect(Object.keys(doc.body.paths)).not.toContain('/metrics');
  });

  it('answers the documented series during a small sale, with non-zero values where the sale moved them', async () => {
    const site = server.client(tenant.url);
    const ordersPath = `/api/p/tenants/${tenant.id}/events/${event.id}/orders`;
    const payUrls: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await site.post(ordersPath, checkoutPayload([{ ticketTypeId: event.ticketTypeIds[0]!, quantity: 1 }], { email: `buyer${i}@example.test` }));
      expect(res.status).toBe(201);
      payUrls.push(new URL(res.body.message).pathname);
    }
    // One refused: more tickets than are left.
    const refused = await site.post(ordersPath, checkoutPayload([{ ticketTypeId: event.ticketTypeIds[0]!, quantity: 3 }]));
    expect(refused.status).toBe(409);
    const reason = refused.body.error.domainCode as string;
    expect(reason).toBeTruthy();
    // Two buyers pay on the test gateway's page: their fulfilment jobs are now waiting.
    for (const pay of payUrls.slice(0, 2)) {
      const paid = await site.request('POST', pay, Buffer.from(new URLSearchParams({ cardNumber: '4242424242424242' }).toString()), {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(paid.status).toBe(303);
    }
    // Make the oldest waiting job a few seconds old, so that its age is measurably above 0.
    await server.app.deps.db.execute(sql`update jobs set run_at = run_at - interval '5 seconds' where done_at is null and run_at <= now()`);

    const during = await scrape();
    expect(sample(during, 'marquee_holds_total', { route: ORDERS_ROUTE })).toBe(3);
    expect(sample(during, 'marquee_hold_refusals_total', { route: ORDERS_ROUTE, reason })).toBe(1);
    // Per route pattern, never the raw URL (no tenant or event id in any label).
    expect(sample(during, 'marquee_http_request_duration_seconds_count', { method: 'POST', route: ORDERS_ROUTE, status_code: '201' })).toBe(3);
    expect(sample(during, 'marquee_http_request_duration_seconds_count', { method: 'POST', route: ORDERS_ROUTE, status_code: '409' })).toBe(1);
    expect(sample(during, 'marquee_http_request_duration_seconds_sum', { method: 'POST', route: ORDERS_ROUTE, status_code: '201' })).toBeGreaterThan(0);
    expect(during).not.toContain(tenant.id);
    expect(during).not.toContain(event.id);
    expect(sample(during, 'marquee_jobs_waiting')).toBeGreaterThanOrEqual(2);
    expect(Math.max(...during.split('\n').filter((l) => l.startsWith('marquee_jobs_oldest_waiting_seconds{')).map((l) => Number(l.split(' ')[1])))).toBeGreaterThanOrEqual(4);
    // Every registered kind is listed, 0 or not.
    const kinds = server.app.deps.jobs.kinds();
    expect(kinds.length).toBeGreaterThan(3);
    for (const kind of kinds) expect(sample(during, 'marquee_jobs_waiting', { kind }), kind).toBeGreaterThanOrEqual(0);
    expect(sample(during, 'marquee_metrics_database_up')).toBe(1);
    expect(sample(during, 'marquee_db_pool_size')).toBe(server.app.deps.database.kind === 'postgres' ? 10 : 1);
    for (const name of ['marquee_db_pool_in_use', 'marquee_db_pool_idle', 'marquee_db_pool_waiting', 'marquee_webhook_deliveries_pending', 'marquee_webhook_deliveries_oldest_due_seconds']) {
      expect(sample(during, name), name).toBeGreaterThanOrEqual(0);
    }
    // prom-client's default metrics: event-loop delay and memory.
    expect(sample(during, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThan(0);
    expect(sample(during, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(sample(during, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);

    // The jobs run one at a time until a ticket mail is written and waits in the outbox for its own job.
    const queued = async () => Number(((await server.app.deps.db.execute(sql`select count(*)::int as n from outbox where status = 'queued'`)) as unknown as { rows: Array<{ n: number }> }).rows[0]!.n);
    for (let i = 0; i < 20 && (await queued()) === 0; i++) await server.app.deps.jobs.runDue(1);
    expect(await queued()).toBeGreaterThan(0);
    const mailing = await scrape();
    expect(sample(mailing, 'marquee_mail_outbox_queued')).toBe(await queued());
    expect(sample(mailing, 'marquee_mail_outbox_oldest_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(mailing, 'marquee_job_run_duration_seconds_count')).toBeGreaterThan(0);

    await server.app.deps.jobs.drain();
    const after = await scrape();
    expect(sample(after, 'marquee_mail_outbox_queued')).toBe(0);
    expect(sample(after, 'marquee_job_run_duration_seconds_count', { outcome: 'done' })).toBeGreaterThanOrEqual(4);
    // The scrapes themselves are counted under their route.
    expect(sample(after, 'marquee_http_request_duration_seconds_count', { method: 'GET', route: '/metrics', status_code: '200' })).toBeGreaterThanOrEqual(2);
  });

  it('reads the database at most once per cache period, however many scrape', { timeout: 120_000 }, async () => {
    const cached = await startServer({ metrics: { host: '127.0.0.1', token: TOKEN, cacheMs: 60_000 } });
    try {
      const client = cached.client();
      const first = await client.get('/metrics', auth);
      expect(first.status).toBe(200);
      expect(sample(first.body, 'marquee_jobs_waiting', { kind: 'test.metrics-cache' })).toBeUndefined();
      await cached.app.deps.db.insert(jobs).values({ name: 'test.metrics-cache', payload: {}, runAt: new Date(Date.now() - 1000), dedupeKey: randomUUID() });
      const again = await Promise.all(Array.from({ length: 10 }, () => client.get('/metrics', auth)));
      for (const res of again) expect(sample(res.body, 'marquee_jobs_waiting', { kind: 'test.metrics-cache' })).toBeUndefined();
    } finally {
      await cached.close();
    }
  });
});

describe('/metrics and the public fast path', () => {
  it("counts the event reads answered from memory under their route's pattern", { timeout: 120_000 }, async () => {
    const server = await startServer({ publicSnapshotMs: 60_000, metrics: { host: '127.0.0.1', token: TOKEN, cacheMs: 0 } });
    try {
      const tenant = await givenTenantWithSettings(server);
      const event = await givenEventOnSale(server, tenant.id);
      for (let i = 0; i < 3; i++) {
        const res = await server.client(tenant.url).get(`/api/p/events/${event.urlName}`);
        expect(res.status).toBe(200);
        expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      }
      const text = (await server.client().get('/metrics', { authorization: `Bearer ${TOKEN}` })).body as string;
      // The first went through Fastify, the two repeats were answered before routing: all three counted.
      expect(sample(text, 'marquee_http_request_duration_seconds_count', { method: 'GET', route: '/api/p/events/:eventName', status_code: '200' })).toBe(3);
    } finally {
      await server.close();
    }
  });
});

describe('/metrics without configuration', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('is not served at all: 404, with or without a token', async () => {
    expect(server.app.deps.metrics.enabled).toBe(false);
    for (const headers of <Array<Record<string, string>>>[{}, { authorization: `Bearer ${TOKEN}` }]) {
      const res = await server.client().get('/metrics', headers);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFoundError);
    }
  });
});

describe('/metrics on METRICS_PORT', () => {
  it('is served on its own port and not on the public port', { timeout: 120_000 }, async () => {
    const server = await startServer({ metrics: { port: 0, host: '127.0.0.1', cacheMs: 0 } });
    try {
      const port = server.app.deps.metrics.port();
      expect(port).toBeGreaterThan(0);
      expect(port).not.toBe(server.port);
      const pub = await server.client().get('/metrics');
      expect(pub.status).toBe(404);
      expect(pub.body).toEqual(notFoundError);
      // Requests to the public port are what it counts.
      const res = await get(port!, '/metrics');
      expect(res.status).toBe(200);
      expect(sample(res.body, 'marquee_http_request_duration_seconds_count', { method: 'GET', route: '/metrics', status_code: '404' })).toBe(1);
      expect(sample(res.body, 'marquee_metrics_database_up')).toBe(1);
      expect((await get(port!, '/')).status).toBe(404);
      expect((await get(port!, '/api/health')).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('asks for the token there too when one is set, and closes with the app', { timeout: 120_000 }, async () => {
    const server = await startServer({ metrics: { port: 0, host: '127.0.0.1', token: TOKEN } });
    const port = server.app.deps.metrics.port()!;
    try {
      expect((await get(port, '/metrics')).status).toBe(401);
      expect((await get(port, '/metrics', { authorization: 'Bearer not-the-token-at-all' })).status).toBe(401);
      expect((await get(port, '/metrics', { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
      // The token does not open the public port when the metrics have their own.
      expect((await server.client().get('/metrics', { authorization: `Bearer ${TOKEN}` })).status).toBe(404);
    } finally {
      await server.close();
    }
    await expect(get(port, '/metrics')).rejects.toThrow();
  });
});

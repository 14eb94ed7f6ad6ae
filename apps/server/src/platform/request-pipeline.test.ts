import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.js';

// Issue 23 (perreq): what every request pays before and after its handler. Each hook is a few µs of
// the server's one thread on every request (a door scan's whole budget is 0.5 ms), so the pipeline
// keeps only the hooks that do something for the route: one for the security headers, the request
// id and the https HSTS (were three, one of them async and one an onSend hook), the guard's, the
// cookie plugin's, the text check, the snapshots' expiry; @fastify/multipart's two hooks only where
// uploads are.

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.close();
});

/** The hooks Fastify runs for a route, by kind, as its route tree prints them (`printRoutes` with hooks). */
function hooksOf(path: string, method: string): Record<string, number> {
  const tree = server.app.printRoutes({ includeHooks: true, commonPrefix: false, method } as never);
  const lines = tree.split('\n');
  const at = lines.findIndex((l) => l.endsWith(`${path} (${method})`));
  if (at < 0) throw new Error(`no route ${method} ${path} in the tree`);
  const hooks: Record<string, number> = {};
  for (const line of lines.slice(at + 1)) {
    const m = /• \((\w+)\) (\[.*\])$/.exec(line);
    if (!m) break;
    hooks[m[1]!] = (JSON.parse(m[2]!) as unknown[]).length;
  }
  return hooks;
}

describe('the per-request pipeline (issue 23 perreq)', () => {
  it('runs only the hooks a route needs: the door scan and the health check', () => {
    // onRequest: the cookie parser, the headers (security, X-Request-Id, HSTS), the guard. onSend: the
    // cookie plugin's Set-Cookie, the snapshots' expiry. No onResponse while metrics are off.
    const expected = { onRequest: 3, preValidation: 1, preHandler: 1, onSend: 2 };
    expect(hooksOf('/:eventId/checkin/scans', 'POST')).toEqual(expected);
    expect(hooksOf('/api/health', 'GET')).toEqual(expected);
  });

  it('keeps the multipart plugin’s hooks to the routes that take a file', () => {
    const upload = { onRequest: 4, preValidation: 1, preHandler: 1, onSend: 2, onResponse: 1 };
    expect(hooksOf('/:eventId/cover', 'POST')).toEqual(upload);
    expect(hooksOf('/:eventId/seatmap', 'POST')).toEqual(upload);
    expect(hooksOf('/logo', 'POST')).toEqual(upload);
    expect(hooksOf('/picture', 'POST')).toEqual(upload);
  });

  it('still answers X-Request-Id and the security headers on a refusal by the guard and on a bad address', async () => {
    const refused = await server.client().get('/api/tenants/00000000-0000-4000-8000-000000000000/events');
    expect(refused.status).toBe(401);
    expect(refused.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(refused.headers['x-frame-options']).toBe('SAMEORIGIN');
    const badAddress = await server.client().get('/api/p/events/%E0%A4%A');
    expect(badAddress.status).toBe(400);
    expect(badAddress.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

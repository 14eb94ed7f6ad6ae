import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events } from '../../db/schema/index.js';
import { givenTenant, givenUser, startServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { signedIn } from '../../../test/actors.js';

// Issue 15: a draft's attendee page, previewed by the event's staff only.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4a50000000049454e44ae426082', 'hex');

let server: TestServer;
let tenant: GivenTenant;
let draft: { id: string; urlName: string };
let published: { id: string; urlName: string };
const as: Record<string, Client> = {};

beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenant(server);
  const other = await givenTenant(server);
  const admin = await signedIn(server, await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] } }), tenant.url);
  const mk = async (name: string) => {
    const res = await admin.post(`/api/tenants/${tenant.id}/events`, { details: { name, description: '<p>Soon</p>' } });
    expect(res.status).toBe(201);
    return { id: res.body.id as string, urlName: res.body.details.urlName as string };
  };
  draft = await mk('Secret Show');
  published = await mk('Open Show');
  await server.app.deps.db.update(events).set({ status: 'published', publishedAt: new Date() }).where(eq(events.id, published.id));
  const key = `tenants/${tenant.id}/events/${draft.id}/seatmap.png`;
  await server.app.deps.storage.put(key, PNG, 'image/png');
  await server.app.deps.db.update(events).set({ seatmapKey: key }).where(eq(events.id, draft.id));
  as.admin = admin;
  as.staff = await signedIn(server, await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_staff'] } }), tenant.url);
  as.manager = await signedIn(server, await givenUser(server, { event: { tenantId: tenant.id, eventId: draft.id, roles: ['event_manager'] } }), tenant.url);
  as.otherManager = await signedIn(server, await givenUser(server, { event: { tenantId: tenant.id, eventId: published.id, roles: ['event_manager'] } }), tenant.url);
  as.buyer = await signedIn(server, await givenUser(server, {}), tenant.url);
  as.outsider = await signedIn(server, await givenUser(server, { tenant: { id: other.id, roles: ['tenant_admin'] } }), tenant.url);
  as.anonymous = server.client(tenant.url);
});
afterAll(async () => {
  await server.close();
});

describe('draft preview', () => {
  const preview = (c: Client, urlName = draft.urlName) => c.get(`/api/p/events/${urlName}?preview=1`);

  it("the event's staff see the draft with status draft, never cached", async () => {
    for (const who of ['admin', 'staff', 'manager']) {
      const res = await preview(as[who]!);
      expect(res.status, who).toBe(200);
      expect(res.body.details).toMatchObject({ name: 'Secret Show', status: 'draft', description: '<p>Soon</p>', seatMap: `/${draft.urlName}/assets/seatmap.png` });
      expect(res.headers['cache-control']).toContain('no-store');
    }
  });

  it('nobody else learns the draft exists, with or without ?preview', async () => {
    for (const who of ['otherManager', 'buyer', 'outsider', 'anonymous']) {
      expect((await preview(as[who]!)).status, who).toBe(404);
    }
    expect((await as.admin!.get(`/api/p/events/${draft.urlName}`)).status).toBe(404);
  });

  it('a published event answers the same with ?preview=1; a bad preview value is 400', async () => {
    const res = await preview(as.anonymous!, published.urlName);
    expect(res.status).toBe(200);
    expect(res.body.details.status).toBe('published');
    expect((await as.admin!.get(`/api/p/events/${draft.urlName}?preview=yes`)).status).toBe(400);
  });

  it("the draft's seat map shows to its staff and to nobody else", async () => {
    const path = `/${draft.urlName}/assets/seatmap.png`;
    const mine = await as.manager!.get(path);
    expect(mine.status).toBe(200);
    expect(mine.headers['content-type']).toBe('image/png');
    expect(mine.headers['cache-control']).toContain('no-store');
    expect(mine.raw.equals(PNG)).toBe(true);
    expect((await as.admin!.get(path)).status).toBe(200);
    for (const who of ['otherManager', 'buyer', 'outsider', 'anonymous']) expect((await as[who]!.get(path)).status, who).toBe(404);
  });
});

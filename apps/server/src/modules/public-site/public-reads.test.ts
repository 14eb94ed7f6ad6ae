import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { givenEventActors, type EventActors } from '../../../test/actors.js';
import { fastPathCounts } from './fast-path.js';
import { checkoutPayload, givenEventOnSale, givenTenant, givenTenantWithSettings, notFoundError, startServer, type GivenEventOnSale, type GivenTenant, type TestServer } from '../../../test/harness.js';

// Public reads from the per-event snapshot (issue 13 "Public reads"; docs/operations.md). This
// server keeps snapshots for 2 s (long enough for a loaded machine), as production does for PUBLIC_SNAPSHOT_MS (1 s).
let server: TestServer;
let tenant: GivenTenant;
let other: GivenTenant;
let event: GivenEventOnSale;
let second: GivenEventOnSale;
let actors: EventActors;
const MAX_AGE = 2000;

beforeAll(async () => {
  server = await startServer({ publicSnapshotMs: MAX_AGE });
  tenant = await givenTenantWithSettings(server);
  other = await givenTenant(server);
  event = await givenEventOnSale(server, tenant.id, { name: 'Snapshot Fest', ticketTypes: [{ name: 'General', price: 2500, quantity: 50 }] });
  second = await givenEventOnSale(server, tenant.id, { name: 'Second Show', ticketTypes: [{ name: 'Seat', price: 1000, quantity: 20 }] });
  actors = await givenEventActors(server, tenant, event.id, second.id);
});
afterAll(async () => {
  await server.close();
});

const site = () => server.client(tenant.url);
const path = () => `/api/p/events/${event.urlName}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * One slow transaction holds the database for `ms` (PGlite runs one at a time, and a transaction keeps
 * it while Node waits; pg_sleep would stop Node itself, PGlite being in-process). Resolves once the
 * transaction holds it; `done` turns true when it let go, `over` waits for that.
 */
async function holdTheDatabase(ms: number) {
  let holding!: () => void;
  const held = new Promise<void>((r) => (holding = r));
  const slow = { done: false, over: Promise.resolve() };
  slow.over = server.app.deps.db
    .transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      holding();
      await sleep(ms);
    })
    .then(() => {
      slow.done = true;
    });
  await held;
  return slow;
}

describe('public event reads', () => {
  it('answers with a strong ETag and cache headers a CDN can use, and 304 to a matching If-None-Match', async () => {
    const res = await site().get(path());
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.details.name).toBe('Snapshot Fest');
    expect(res.headers.etag).toMatch(/^"[\w-]{22}"$/);
    expect(res.headers['cache-control']).toBe('public, max-age=0, must-revalidate, s-maxage=1, stale-while-revalidate=10');
    const again = await site().get(path(), { 'if-none-match': res.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.raw.length).toBe(0);
    expect(again.headers.etag).toBe(res.headers.etag);
    expect((await site().get(path(), { 'if-none-match': `W/${res.headers.etag}, "other"` })).status).toBe(304);
    expect((await site().get(path(), { 'if-none-match': '"something-else"' })).status).toBe(200);
    // Repeats are answered from memory before routing (fast-path.ts): the same headers, security ones included.
    const repeat = await site().get(path());
    // (Each answer has its own request id, issue 26.)
    const comparable = (h: Record<string, unknown>) => Object.fromEntries(Object.entries(h).filter(([k]) => !['date', 'connection', 'keep-alive', 'x-request-id'].includes(k)));
    expect(repeat.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(repeat.headers['x-request-id']).not.toBe(res.headers['x-request-id']);
    expect(comparable(repeat.headers)).toEqual(comparable(res.headers));
    expect(repeat.headers['content-security-policy']).toBeTruthy();
    expect(repeat.headers['x-content-type-options']).toBe('nosniff');
    expect(repeat.raw.equals(res.raw)).toBe(true);
    // The same name in any case is the same event and the same representation.
    expect((await site().get(path().toUpperCase().replace('/API/P/EVENTS/', '/api/p/events/'))).headers.etag).toBe(res.headers.etag);
  });

  it('serves from memory within its age: a change made behind its back shows within the bound', async () => {
    const before = await site().get(path());
    await server.app.deps.db.execute(sql`update events set venue_name = 'Behind The Back Hall' where id = ${event.id}`);
    const soon = await site().get(path());
    expect(soon.headers.etag).toBe(before.headers.etag);
    await sleep(MAX_AGE + 50);
    // The first read after the bound reads the database again.
    const later = await site().get(path());
    expect(later.body.details.venueName).toBe('Behind The Back Hall');
    expect(later.headers.etag).not.toBe(before.headers.etag);
  });

  it('is rebuilt at once when a ticket type changes through this node, and the old ETag no longer matches', async () => {
    const before = await site().get(path());
    const ticketTypeId = event.ticketTypeIds[0]!;
    const patched = await actors.admin.patch(`/api/tenants/${tenant.id}/events/${event.id}/ticket-types/${ticketTypeId}`, { details: { price: 3100, name: 'General Standing' } });
    expect(patched.status).toBe(200);
    const after = await site().get(path(), { 'if-none-match': before.headers.etag! });
    expect(after.status).toBe(200);
    expect(after.body.ticketTypes[0].details).toMatchObject({ name: 'General Standing', price: 3100 });
  });

  it('moves the remaining counts when an order holds tickets, within the bound (a hold does not rebuild the snapshot)', async () => {
    await sleep(MAX_AGE + 50);
    const before = await site().get(path());
    const remaining = before.body.ticketTypes[0].details.remainingQuantity as number;
    const hold = await site().post(`/api/p/tenants/${tenant.id}/events/${event.id}/orders`, checkoutPayload([{ ticketTypeId: event.ticketTypeIds[0]!, quantity: 2 }]));
    expect(hold.status).toBe(201);
    // During an on-sale every order would otherwise rebuild the event's snapshot: the counts may lag by the bound.
    expect((await site().get(path())).headers.etag).toBe(before.headers.etag);
    await sleep(MAX_AGE + 50);
    const after = await site().get(path());
    expect(after.body.ticketTypes[0].details.remainingQuantity).toBe(remaining - 2);
  });

  it("expires only the changed event: a hold or a ticket-type edit on one event does not rebuild another's snapshot", async () => {
    const secondPath = `/api/p/events/${second.urlName}`;
    await sleep(MAX_AGE + 50);
    const before = await site().get(secondPath);
    expect(before.body.details.name).toBe('Second Show');
    // Changed behind the snapshot's back: only a rebuild would show it.
    await server.app.deps.db.execute(sql`update events set venue_name = 'Rebuilt Hall' where id = ${second.id}`);
    const hold = await site().post(`/api/p/tenants/${tenant.id}/events/${event.id}/orders`, checkoutPayload([{ ticketTypeId: event.ticketTypeIds[0]!, quantity: 1 }]));
    expect(hold.status).toBe(201);
    const edit = await actors.admin.patch(`/api/tenants/${tenant.id}/events/${event.id}/ticket-types/${event.ticketTypeIds[0]!}`, { details: { name: 'General Admission' } });
    expect(edit.status).toBe(200);
    // The edited event shows its change at once; the other one is still served from memory.
    expect((await site().get(path())).body.ticketTypes[0].details.name).toBe('General Admission');
    const untouched = await site().get(secondPath);
    expect(untouched.headers.etag).toBe(before.headers.etag);
    expect(untouched.body.details.venueName).not.toBe('Rebuilt Hall');
    // A change to the second event itself rebuilds it at once.
    const secondEdit = await actors.admin.patch(`/api/tenants/${tenant.id}/events/${second.id}/ticket-types/${second.ticketTypeIds[0]!}`, { details: { price: 1200 } });
    expect(secondEdit.status).toBe(200);
    const rebuilt = await site().get(secondPath);
    expect(rebuilt.body.details.venueName).toBe('Rebuilt Hall');
    expect(rebuilt.body.ticketTypes[0].details.price).toBe(1200);
  });

  it("a change for the whole tenant (its fee settings) expires each of its events, and no other tenant's", async () => {
    const theirs = await givenEventOnSale(server, other.id, { name: 'Their Show' });
    const theirPath = `/api/p/events/${theirs.urlName}`;
    await sleep(MAX_AGE + 50);
    const mine = await site().get(path());
    const their = await server.client(other.url).get(theirPath);
    expect(their.status).toBe(200);
    await server.app.deps.db.execute(sql`update events set venue_name = 'Tenant Wide Hall' where id in (${event.id}, ${theirs.id})`);
    // The platform sets the tenant's fee settings (spec accounts §7).
    const { ownerId: _o, defaultSurchargeRule: _d, ...settings } = (await actors.platformManager.get(`/api/tenants/${tenant.id}/setting`)).body;
    const put = await actors.platformManager.put(`/api/tenants/${tenant.id}/setting`, { ...settings, platformFee: 1 });
    expect(put.status).toBe(200);
    const after = await site().get(path());
    expect(after.body.details.venueName).toBe('Tenant Wide Hall');
    expect(after.headers.etag).not.toBe(mine.headers.etag);
    expect((await server.client(other.url).get(theirPath)).headers.etag).toBe(their.headers.etag);
  });

  it('says 404 for an unknown name, a draft, and another tenant\'s event, and keeps saying it from memory', async () => {
    expect((await site().get('/api/p/events/no-such-event')).body).toEqual(notFoundError);
    expect((await site().get('/api/p/events/no-such-event')).status).toBe(404);
    expect((await server.client(other.url).get(path())).status).toBe(404);
  });

  it('keeps answering from memory while the database is slow', async () => {
    await site().get(path());
    // One slow transaction holds the database for 4 s (PGlite runs one at a time, and a transaction
    // keeps it while Node waits; pg_sleep would stop Node itself, PGlite being in-process): reads
    // already in memory do not wait for it, all of them are answered while it still runs (an order of
    // events, not a time bound, so a loaded machine cannot fail it; a read that waited comes after).
    const slow = await holdTheDatabase(4000);
    const reads = await Promise.all(Array.from({ length: 20 }, () => site().get(path())));
    const answeredWhileSlow = !slow.done;
    await slow.over;
    expect(reads.every((r) => r.status === 200)).toBe(true);
    expect(answeredWhileSlow).toBe(true);
  });

  it('shows a sold-out at once: the hold that takes what the snapshot shows as left rebuilds it (issue 26 reads)', async () => {
    // A server whose snapshots live a minute, so that only the hold itself can make the page show it.
    const longLived = await startServer({ publicSnapshotMs: 60_000 });
    try {
      const org = await givenTenantWithSettings(longLived);
      const small = await givenEventOnSale(longLived, org.id, { name: 'Tiny Room', ticketTypes: [{ name: 'Seat', price: 1500, quantity: 3 }] });
      const smallPath = `/api/p/events/${small.urlName}`;
      const read = () => longLived.client(org.url).get(smallPath);
      const before = await read();
      expect(before.body.ticketTypes[0].details.remainingQuantity).toBe(3);
      const hold = (quantity: number) =>
        longLived.client(org.url).post(`/api/p/tenants/${org.id}/events/${small.id}/orders`, checkoutPayload([{ ticketTypeId: small.ticketTypeIds[0]!, quantity }]));
      // One of three: the counts may lag by the snapshot's age (the same answer, from memory).
      expect((await hold(1)).status).toBe(201);
      expect((await read()).headers.etag).toBe(before.headers.etag);
      // The last two: the very next read says none are left (before, it showed 3 for the snapshot's age).
      expect((await hold(2)).status).toBe(201);
      const after = await read();
      expect(after.headers.etag).not.toBe(before.headers.etag);
      expect(after.body.ticketTypes[0].details.remainingQuantity).toBe(0);
      expect(after.body.settings.remainingCapacity).toBe(0);
      // A refused hold changes nothing; another tenant's host does not find the event.
      expect((await hold(1)).status).toBe(409);
      expect((await read()).headers.etag).toBe(after.headers.etag);
      const stranger = await givenTenant(longLived);
      expect((await longLived.client(stranger.url).get(smallPath)).status).toBe(404);
    } finally {
      await longLived.close();
    }
  });

  it('keeps answering from memory past the age while the re-read waits for the database: one request at a time goes the full way', async () => {
    await sleep(MAX_AGE + 50);
    const fresh = await site().get(path());
    await sleep(MAX_AGE + 50);
    // The database is held (as in the test above) while the answer is past its age: the first read
    // goes the full way and waits for the re-read; the others are answered from memory meanwhile.
    const slow = await holdTheDatabase(4000);
    const counts = { ...fastPathCounts(server.app.deps) };
    const first = site().get(path());
    const others = await Promise.all(Array.from({ length: 20 }, () => site().get(path()).then((r) => ({ r, whileSlow: !slow.done }))));
    const after = { ...fastPathCounts(server.app.deps) };
    await slow.over;
    const rereadAnswer = await first;
    expect(others.every(({ r }) => r.status === 200)).toBe(true);
    // Before issue 26 (reads), every one of them went the full way once the age ran out (routing,
    // hooks, the host's tenant looked up again), and waited for the database with the first.
    const fromMemory = others.filter(({ r, whileSlow }) => whileSlow && r.headers.etag === fresh.headers.etag);
    expect(fromMemory.length).toBeGreaterThanOrEqual(15);
    expect(after.hits - counts.hits).toBeGreaterThanOrEqual(15);
    expect(after.passed - counts.passed).toBeLessThanOrEqual(5);
    expect(rereadAnswer.status).toBe(200);
  });
});

import { M } from '@marquee/core';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkoutPayload,
  givenEventOnSale,
  givenTenantWithSettings,
  givenUser,
  notFoundError,
  startServer,
  type Client,
  type GivenEventOnSale,
  type GivenTenant,
  type TestServer,
} from '../../../test/harness.js';
import { parseCsv } from '../../../test/fixtures/sales.js';
import { givenPaidOrder } from '../../../test/fixtures/paid-orders.js';
import { runOutHold } from '../../../test/fixtures/run-out-hold.js';
import { eventSeats, orders, outbox, seatHolds, ticketTypes, waitlistEntries } from '../../db/schema/index.js';
import { expireSeatHold } from '../seating/seat-hold-jobs.js';

let server: TestServer;
let tenant: GivenTenant;
let other: GivenTenant;
let organiser: Client;
let otherOrganiser: Client;

beforeAll(async () => {
  server = await startServer();
  tenant = await givenTenantWithSettings(server);
  other = await givenTenantWithSettings(server);
  const u = await givenUser(server, { tenant: { id: tenant.id, roles: ['tenant_admin'] } });
  organiser = server.client(tenant.url);
  await organiser.login(u.email);
  const o = await givenUser(server, { tenant: { id: other.id, roles: ['tenant_admin'] } });
  otherOrganiser = server.client(other.url);
  await otherOrganiser.login(o.email);
});
afterAll(async () => {
  await server.close();
});

const db = () => server.app.deps.db;
const joinPath = (e: { id: string }, tenantId = tenant.id) => `/api/p/tenants/${tenantId}/events/${e.id}/waitlist`;
const claimPath = (e: { id: string }) => `/api/p/tenants/${tenant.id}/events/${e.id}/waitlist/claim`;
const listPath = (e: { id: string }, tenantId = tenant.id) => `/api/tenants/${tenantId}/events/${e.id}/waitlist`;
const ordersPath = (e: { id: string }) => `/api/p/tenants/${tenant.id}/events/${e.id}/orders`;

const remaining = async (id: string) => (await db().select({ r: ticketTypes.remaining }).from(ticketTypes).where(eq(ticketTypes.id, id)))[0]!.r;
const entriesOf = (eventId: string) => db().select().from(waitlistEntries).where(eq(waitlistEntries.eventId, eventId));
const offerMails = async (to: string) => (await db().select().from(outbox).where(eq(outbox.to, to))).filter((m) => m.subject.startsWith('Tickets are available'));

/** A sold-out event: one ticket type of `quantity`, each ticket held by a buyer's PLACE ORDER (their drafts). */
async function soldOut(quantity = 2, opts: { maxPerOrder?: number } = {}) {
  const event = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'General Admission', price: 4500, quantity, maxPerOrder: opts.maxPerOrder }] });
  const holds: string[] = [];
  for (let i = 0; i < quantity; i++) {
    const res = await server.client(tenant.url).post(ordersPath(event), checkoutPayload([{ ticketTypeId: event.ticketTypeIds[0]!, quantity: 1 }], { email: `buyer${i}@example.test` }));
    expect(res.status).toBe(201);
    holds.push(res.body.orderUID);
  }
  expect(await remaining(event.ticketTypeIds[0]!)).toBe(0);
  return { event, holds };
}

async function join(event: GivenEventOnSale, email: string, quantity = 1, c = server.client(tenant.url)) {
  return c.post(joinPath(event), { ticketTypeId: event.ticketTypeIds[0], email, quantity });
}

/** The hold runs out now (test/fixtures/run-out-hold.ts). */
const expire = (orderUid: string) => runOutHold(server, orderUid);

function claimLink(text: string) {
  const url = new URL(/(https?:\/\/\S+)/.exec(text)![1]!);
  return { path: url.pathname, entryId: url.searchParams.get('entry')!, token: url.searchParams.get('token')! };
}

describe('joining the waiting list', () => {
  it('joins a sold-out ticket type, once per address, within the per-order maximum', async () => {
    const { event } = await soldOut(1, { maxPerOrder: 4 });
    const first = await join(event, 'Alice@Example.test', 2);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ joined: true, position: 1 });
    expect((await join(event, 'bob@example.test')).body.position).toBe(2);

    const again = await join(event, 'alice@example.test', 1);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'CONFLICT', domainCode: 'WAITLIST_ALREADY_JOINED', message: M.waitlistAlreadyJoined });

    const tooMany = await join(event, 'carol@example.test', 5);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatchObject({ code: 'VALIDATION', fields: { quantity: 'You can join for at most 4 tickets.' } });
    for (const bad of [
      { ticketTypeId: event.ticketTypeIds[0], email: 'not-an-email', quantity: 1 },
      { ticketTypeId: event.ticketTypeIds[0], email: 'd@example.test', quantity: 0 },
      { ticketTypeId: event.ticketTypeIds[0], email: 'd@example.test', quantity: 1.5 },
      { ticketTypeId: 'nope', email: 'd@example.test', quantity: 1 },
      { email: 'd@example.test', quantity: 1 },
    ]) {
      const res = await server.client(tenant.url).post(joinPath(event), bad);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION');
    }
    expect((await entriesOf(event.id)).map((e) => e.email).sort()).toEqual(['alice@example.test', 'bob@example.test']);
  });

  it('is refused while tickets are on sale, when the list is off, and for another event or tenant', async () => {
    const onSale = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'GA', price: 1000, quantity: 5 }] });
    const res = await join(onSale, 'x@example.test');
    expect(res.status).toBe(409);
    expect(res.body.error.domainCode).toBe('WAITLIST_UNAVAILABLE');

    const { event } = await soldOut(1);
    expect((await organiser.put(`${listPath(event)}/settings`, { enabled: false, offerMinutes: 30 })).status).toBe(200);
    expect((await join(event, 'x@example.test')).body.error.domainCode).toBe('WAITLIST_UNAVAILABLE');

    // Another tenant's host, or another event's ticket type: not found, nothing written.
    const elsewhere = await server.client(other.url).post(joinPath(event, other.id), { ticketTypeId: event.ticketTypeIds[0], email: 'x@example.test', quantity: 1 });
    expect(elsewhere.status).toBe(404);
    const wrongType = await server.client(tenant.url).post(joinPath(event), { ticketTypeId: onSale.ticketTypeIds[0], email: 'x@example.test', quantity: 1 });
    expect(wrongType).toMatchObject({ status: 404, body: notFoundError });
    expect(await entriesOf(event.id)).toHaveLength(0);
  });

  it("the ticket menu offers the list only while the organiser keeps it on (the event's public read, which the server-rendered page shows too)", async () => {
    const { event } = await soldOut(1);
    const site = server.client(tenant.url);
    const menu = async () => (await site.get(`/api/p/events/${event.urlName}`)).body.details.waitlist;
    expect(await menu()).toBe(true);
    expect((await organiser.put(`${listPath(event)}/settings`, { enabled: false, offerMinutes: 30 })).status).toBe(200);
    expect(await menu()).toBe(false);
    expect((await organiser.put(`${listPath(event)}/settings`, { enabled: true, offerMinutes: 30 })).status).toBe(200);
    expect(await menu()).toBe(true);
    // A cancelled event offers nothing.
    expect((await organiser.post(`/api/tenants/${tenant.id}/events/${event.id}/cancel`)).status).toBe(200);
    expect(await menu()).toBe(false);
  });

  it('is rate-limited per client address', async () => {
    const limited = await startServer({ rateLimitWaitlistJoinsPer10Minutes: 2 });
    try {
      const t = await givenTenantWithSettings(limited);
      const event = await givenEventOnSale(limited, t.id, { ticketTypes: [{ name: 'GA', price: 1000, quantity: 1, remaining: 0 }] });
      const c = limited.client(t.url);
      const path = `/api/p/tenants/${t.id}/events/${event.id}/waitlist`;
      expect((await c.post(path, { ticketTypeId: event.ticketTypeIds[0], email: 'a@example.test', quantity: 1 })).status).toBe(201);
      expect((await c.post(path, { ticketTypeId: event.ticketTypeIds[0], email: 'b@example.test', quantity: 1 })).status).toBe(201);
      const third = await c.post(path, { ticketTypeId: event.ticketTypeIds[0], email: 'c@example.test', quantity: 1 });
      expect(third.status).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('offers', () => {
  it('a hold that runs out is offered to the first person only, held for them, claimed and paid', async () => {
    const { event, holds } = await soldOut(2);
    const typeId = event.ticketTypeIds[0]!;
    await join(event, 'alice@example.test');
    await join(event, 'bob@example.test');

    await expire(holds[0]!);
    // The ticket is Alice's offer: taken for everyone else.
    expect(await remaining(typeId)).toBe(0);
    const [mail, ...more] = await offerMails('alice@example.test');
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe(`Tickets are available for ${event.name}`);
    expect(await offerMails('bob@example.test')).toHaveLength(0);
    const stranger = await server.client(tenant.url).post(ordersPath(event), checkoutPayload([{ ticketTypeId: typeId, quantity: 1 }], { email: 'stranger@example.test' }));
    expect(stranger.status).toBe(409);
    expect(stranger.body.error.domainCode).toBe('CART_CONFLICT');

    const link = claimLink(mail!.text);
    expect(link.path).toBe(`/${event.urlName}/waitlist/claim`);
    const c = server.client(tenant.url);
    expect(await c.post(claimPath(event), { entryId: link.entryId, token: 'x'.repeat(32) })).toMatchObject({ status: 404, body: notFoundError });
    const claim = await c.post(claimPath(event), { entryId: link.entryId, token: link.token });
    expect(claim.status).toBe(200);
    expect(claim.body).toMatchObject({ email: 'alice@example.test', lines: [{ ticketTypeId: typeId, quantity: 1 }], orderToken: link.token });

    // Someone else placing the offer's hold is refused, and it still holds the ticket.
    const lines = [{ ticketTypeId: typeId, quantity: 1 }];
    const notYours = await c.post(ordersPath(event), { ...checkoutPayload(lines, { email: 'bob@example.test' }), draftOrderUID: claim.body.orderUID });
    expect(notYours.status).toBe(403);
    expect(notYours.body.error).toMatchObject({ domainCode: 'WAITLIST_OFFER_NOT_YOURS', message: M.waitlistOfferNotYours });
    const changed = await c.post(ordersPath(event), { ...checkoutPayload([{ ticketTypeId: typeId, quantity: 2 }], { email: 'alice@example.test' }), draftOrderUID: claim.body.orderUID });
    expect(changed.status).toBe(409);
    expect(await remaining(typeId)).toBe(0);

    const placed = await c.post(ordersPath(event), { ...checkoutPayload(lines, { email: 'Alice@example.test' }), draftOrderUID: claim.body.orderUID });
    expect(placed.status).toBe(201);
    const pay = new URL(placed.body.message);
    const body = new URLSearchParams({ cardNumber: '4242424242424242', expiry: '11/39', cvc: '999' }).toString();
    expect((await c.request('POST', pay.pathname, Buffer.from(body), { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(303);
    await server.app.deps.jobs.drain();
    expect(await remaining(typeId)).toBe(0);

    const list = await organiser.get(listPath(event));
    expect(list.status).toBe(200);
    expect(list.body.entries.map((e: { email: string; state: string; position: number }) => [e.email, e.state, e.position])).toEqual([
      ['alice@example.test', 'claimed', 1],
      ['bob@example.test', 'waiting', 2],
    ]);
    expect(list.body.counts).toEqual({ joined: 2, waiting: 1, offered: 0, bought: 1 });
    const used = await c.post(claimPath(event), { entryId: link.entryId, token: link.token });
    expect(used.status).toBe(409);
    expect(used.body.error.domainCode).toBe('WAITLIST_OFFER_USED');

    // Bob got nothing until another ticket came back; then his offer runs out unclaimed.
    expect(await offerMails('bob@example.test')).toHaveLength(0);
    await expire(holds[1]!);
    const [bobMail] = await offerMails('bob@example.test');
    const bobLink = claimLink(bobMail!.text);
    const bobClaim = await c.post(claimPath(event), { entryId: bobLink.entryId, token: bobLink.token });
    await expire(bobClaim.body.orderUID);
    const late = await c.post(claimPath(event), { entryId: bobLink.entryId, token: bobLink.token });
    expect(late.status).toBe(410);
    expect(late.body.error).toMatchObject({ domainCode: 'WAITLIST_OFFER_EXPIRED', message: M.waitlistOfferExpired });
    expect(await remaining(typeId)).toBe(1);
    expect((await organiser.get(listPath(event))).body.entries.map((e: { state: string }) => e.state)).toEqual(['claimed', 'expired']);
    // Each offer was mailed once.
    expect(await offerMails('alice@example.test')).toHaveLength(1);
    expect(await offerMails('bob@example.test')).toHaveLength(1);
  });

  it('a refund frees tickets for the list; a person asking for more is offered what is free', async () => {
    const paid = await givenPaidOrder(server, tenant.id, { lines: [{ name: 'Balcony', price: 2000, quantity: 2, left: 0 }], rows: true });
    const event = { id: paid.eventId, ticketTypeIds: paid.ticketTypeIds } as GivenEventOnSale;
    expect((await join(event, 'carol@example.test', 3)).status).toBe(201);
    const refund = await organiser.post(`/api/tenants/${tenant.id}/events/${paid.eventId}/orders/${paid.orderUid}/refunds`, { mode: 'full', reason: 'Cannot come' });
    expect(refund.status).toBe(201);
    await server.app.deps.jobs.drain();
    const [entry] = await entriesOf(paid.eventId);
    expect(entry).toMatchObject({ state: 'offered', offeredQuantity: 2 });
    expect(await remaining(paid.ticketTypeIds[0]!)).toBe(0);
    expect(await offerMails('carol@example.test')).toHaveLength(1);
  });

  it('a capacity increase is offered in join order', async () => {
    const { event } = await soldOut(1);
    await join(event, 'first@example.test');
    await join(event, 'second@example.test');
    await join(event, 'third@example.test');
    await db().update(ticketTypes).set({ quantity: 3, remaining: sql`${ticketTypes.remaining} + 2` }).where(eq(ticketTypes.id, event.ticketTypeIds[0]!));
    await server.app.deps.jobs.drain();
    const states = (await organiser.get(listPath(event))).body.entries.map((e: { email: string; state: string }) => `${e.email}:${e.state}`);
    expect(states).toEqual(['first@example.test:offered', 'second@example.test:offered', 'third@example.test:waiting']);
  });
});

describe("the organiser's list", () => {
  it('offers by hand, removes (an offer removed goes to the next person), exports CSV and refuses bad input', async () => {
    const { event, holds } = await soldOut(1);
    await join(event, '=cmd@example.test');
    await join(event, 'next@example.test');
    const list = (await organiser.get(listPath(event))).body;
    const [first, second] = list.entries as Array<{ id: string }>;

    // Nothing free: an offer by hand is refused, nothing written.
    const none = await organiser.post(`${listPath(event)}/entries/${second!.id}/offer`);
    expect(none.status).toBe(409);
    expect(none.body.error.domainCode).toBe('WAITLIST_CANNOT_OFFER');

    // The ticket comes back while the list is off: nobody is offered; the organiser offers it to the second person.
    await organiser.put(`${listPath(event)}/settings`, { enabled: false, offerMinutes: 30 });
    await expire(holds[0]!);
    expect(await remaining(event.ticketTypeIds[0]!)).toBe(1);
    await organiser.put(`${listPath(event)}/settings`, { enabled: true, offerMinutes: 30 });
    // (Turning it on queued a round; the hand offer comes first.)
    const hand = await organiser.post(`${listPath(event)}/entries/${second!.id}/offer`);
    expect(hand.status).toBe(200);
    expect(await offerMails('next@example.test')).toHaveLength(1);
    const offered = (await entriesOf(event.id)).find((e) => e.id === second!.id)!;
    expect(offered.offerExpiresAt!.getTime() - offered.offeredAt!.getTime()).toBe(30 * 60_000);

    // Removing the offered person gives the ticket to the first in line.
    expect((await organiser.delete(`${listPath(event)}/entries/${second!.id}`)).status).toBe(200);
    await server.app.deps.jobs.drain();
    const after = (await organiser.get(listPath(event))).body.entries.map((e: { id: string; state: string }) => e.state);
    expect(after).toEqual(['offered', 'removed']);
    expect((await organiser.delete(`${listPath(event)}/entries/${second!.id}`)).status).toBe(409);

    const csv = await organiser.get(`${listPath(event)}/export`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const rows = parseCsv(csv.raw.toString('utf8').replace(/^\uFEFF/, ''));
    expect(rows.map((r) => [r.Email, r.State])).toEqual([
      ["'=cmd@example.test", 'offered'],
      ['next@example.test', 'removed'],
    ]);
    expect(first).toBeDefined();

    for (const bad of [{ enabled: true, offerMinutes: 1 }, { enabled: true, offerMinutes: 20000 }, { enabled: 'yes', offerMinutes: 30 }, {}]) {
      const res = await organiser.put(`${listPath(event)}/settings`, bad);
      expect(res.status).toBe(400);
    }
  });

  it("another tenant's list and entries are not found, and nothing changes", async () => {
    const { event } = await soldOut(1);
    await join(event, 'mine@example.test');
    const [entry] = await entriesOf(event.id);
    const theirs = listPath(event, other.id);
    for (const res of [
      await otherOrganiser.get(theirs),
      await otherOrganiser.put(`${theirs}/settings`, { enabled: false, offerMinutes: 30 }),
      await otherOrganiser.post(`${theirs}/entries/${entry!.id}/offer`),
      await otherOrganiser.delete(`${theirs}/entries/${entry!.id}`),
      await otherOrganiser.get(`${theirs}/export`),
    ]) {
      expect(res).toMatchObject({ status: 404, body: notFoundError });
    }
    // Our event, an entry id of another event: not found either.
    const elsewhere = await soldOut(1);
    expect((await organiser.delete(`${listPath(elsewhere.event)}/entries/${entry!.id}`)).status).toBe(404);
    expect((await entriesOf(event.id))[0]!.state).toBe('waiting');
  });
});

describe('an offer of a seated ticket type (issue 27)', () => {
  it('holds the best free seats for the claim, which the checkout sends; opened again, the same seats', async () => {
    const event = await givenEventOnSale(server, tenant.id, { ticketTypes: [{ name: 'Stalls', price: 4500, quantity: 2, maxPerOrder: 2 }] });
    const typeId = event.ticketTypeIds[0]!;
    const layout = await organiser.post(`/api/tenants/${tenant.id}/venue-layouts`, { name: 'Two seats', sections: [{ name: 'Stalls', category: 'Stalls', rows: 1, seatsPerRow: 2 }] });
    expect(layout.status).toBe(201);
    expect((await organiser.put(`/api/tenants/${tenant.id}/events/${event.id}/seating`, { layoutId: layout.body.id, categories: [{ category: 'Stalls', ticketTypeId: typeId }] })).status).toBe(200);
    const pub = `/api/p/tenants/${tenant.id}/events/${event.id}`;
    const buyer = server.client(tenant.url);
    const seats = await buyer.post(`${pub}/seat-holds`, { seats: [0, 1] });
    const lines = [{ ticketTypeId: typeId, quantity: 2 }];
    const first = await buyer.post(ordersPath(event), { ...checkoutPayload(lines, { email: 'first@example.test' }), seatHold: { holdId: seats.body.holdId, token: seats.body.token } });
    expect(first.status).toBe(201);
    expect(await remaining(typeId)).toBe(0);
    expect((await join(event, 'seated-fan@example.test', 2)).status).toBe(201);
    // The first buyer's hold and its seats run out; the list's first gets the offer.
    await db().update(seatHolds).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(seatHolds.id, seats.body.holdId));
    expect(await expireSeatHold({ deps: server.app.deps, tenantId: tenant.id, holdId: seats.body.holdId })).toBe(true);
    await expire(first.body.orderUID);
    const [mail] = await offerMails('seated-fan@example.test');
    const link = claimLink(mail!.text);
    const c = server.client(tenant.url);
    const claim = await c.post(claimPath(event), { entryId: link.entryId, token: link.token });
    expect(claim.status).toBe(200);
    expect(claim.body.seatHold.seats.map((s: { label: string }) => s.label)).toEqual(['Stalls · Row A · Seat 1', 'Stalls · Row A · Seat 2']);
    const again = await c.post(claimPath(event), { entryId: link.entryId, token: link.token });
    expect(again.body.seatHold.seats.map((s: { n: number }) => s.n)).toEqual([0, 1]);
    expect((await db().select().from(seatHolds).where(and(eq(seatHolds.eventId, event.id), eq(seatHolds.status, 'live')))).length).toBe(1);
    const seatHold = { holdId: again.body.seatHold.holdId, token: again.body.seatHold.token };
    const placed = await c.post(ordersPath(event), { ...checkoutPayload(lines, { email: 'seated-fan@example.test' }), draftOrderUID: claim.body.orderUID, seatHold });
    expect(placed.status).toBe(201);
    const pay = new URL(placed.body.message);
    const body = new URLSearchParams({ cardNumber: '4242424242424242', expiry: '11/39', cvc: '999' }).toString();
    expect((await c.request('POST', pay.pathname, Buffer.from(body), { 'content-type': 'application/x-www-form-urlencoded' })).status).toBe(303);
    await server.app.deps.jobs.drain();
    const [order] = await db().select().from(orders).where(eq(orders.orderUid, placed.body.orderUID));
    expect((await db().select().from(eventSeats).where(eq(eventSeats.eventId, event.id))).map((s) => s.orderId)).toEqual([order!.id, order!.id]);
  });
});

import { M, SERIES_MAX_DATES } from '@marquee/core';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, eventSeries, outbox, ticketTypes } from '../../db/schema/index.js';
import { givenEventOnSale, givenTenantWithAdmin, startTenantServer, type Client, type GivenTenant, type TestServer } from '../../../test/harness.js';
import { givenSale } from '../../../test/fixtures/sales.js';
import { DEMO_SERIES, seedDemoSeries } from './demo.js';

let server: TestServer;
let tenant: GivenTenant;
let admin: Client;
let other: { tenant: GivenTenant; admin: Client };
const base = () => `/api/tenants/${tenant.id}/series`;
const db = () => server.app.deps.db;

beforeAll(async () => {
  ({ server, tenant, admin } = await startTenantServer());
  other = await givenTenantWithAdmin(server);
});
afterAll(async () => {
  await server.close();
});

const weekly = (over: Record<string, unknown> = {}) => ({
  details: {
    name: 'Harbour walk',
    timeZone: 'America/New_York',
    venueName: 'Pier 4',
    capacity: 20,
    ticketTypes: [
      { name: 'Adult', price: 2500, quantity: 15 },
      { name: 'Child', price: 1000, quantity: 10 },
    ],
    // Tuesdays and Thursdays from Tue 2031-06-03 until Tue 2031-06-10: three dates.
    schedule: { weekly: { startDate: '2031-06-03', weekdays: [2, 4], until: '2031-06-10' }, startTime: '19:00', endTime: '21:00' },
    publish: true,
    ...over,
  },
});

async function written(tenantId: string) {
  const [s] = await db().select({ n: count() }).from(eventSeries).where(eq(eventSeries.tenantId, tenantId));
  const [e] = await db().select({ n: count() }).from(events).where(eq(events.tenantId, tenantId));
  return { series: Number(s!.n), events: Number(e!.n) };
}

describe('series: create', () => {
  it('makes one ordinary event per date of a weekly rule, with the series’ ticket types and capacity copied', async () => {
    const res = await admin.post(base(), weekly());
    expect(res.status).toBe(201);
    const s = res.body;
    expect(s.details.urlName).toBe('harbour-walk');
    expect(s.details.dates.map((d: { urlName: string }) => d.urlName)).toEqual([
      'harbour-walk-2031-06-03-1900',
      'harbour-walk-2031-06-05-1900',
      'harbour-walk-2031-06-10-1900',
    ]);
    // 19:00 New York in June is 23:00 UTC.
    expect(s.details.dates[1].startDateTime).toBe('2031-06-05T23:00:00.000Z');
    expect(s.details.dates[1].endDateTime).toBe('2031-06-06T01:00:00.000Z');
    expect(s.details.dates[1].name).toBe('Harbour walk · Thu, Jun 5, 2031, 7:00 PM');
    expect(s.details.dates.every((d: { status: string; left: number; sold: number }) => d.status === 'published' && d.left === 20 && d.sold === 0)).toBe(true);
    expect(s.details.totals).toEqual({ dates: 3, sold: 0, left: 60, grossSales: 0 });
    // Each date is an event of its own, readable through the ordinary event routes.
    const ev = await admin.get(`/api/tenants/${tenant.id}/events/${s.details.dates[0].eventId}`);
    expect(ev.status).toBe(200);
    expect(ev.body.details).toMatchObject({ capacity: 20, status: 'published', venueName: 'Pier 4', timeZone: 'America/New_York' });
    const types = await db().select().from(ticketTypes).where(eq(ticketTypes.eventId, s.details.dates[2].eventId));
    expect(types.map((t) => [t.name, t.price, t.quantity, t.remaining]).sort()).toEqual([
      ['Adult', 2500, 15, 15],
      ['Child', 1000, 10, 10],
    ]);
    expect(types.every((t) => t.seriesTicketTypeId !== null)).toBe(true);
    const list = await admin.get(base());
    expect(list.body.result.find((r: { id: string }) => r.id === s.id).details).toMatchObject({ name: 'Harbour walk', dates: 3 });
  });

  it('a list of dates with timed-entry slots makes one event per slot, each with the slot capacity', async () => {
    const res = await admin.post(
      base(),
      weekly({ name: 'Museum entry', publish: false, schedule: { dates: ['2031-07-02', '2031-07-01'], startTime: '10:00', endTime: '11:30', slots: { everyMinutes: 30 } } }),
    );
    expect(res.status).toBe(201);
    const dates = res.body.details.dates;
    expect(dates).toHaveLength(6);
    expect(dates.map((d: { urlName: string }) => d.urlName.slice('museum-entry-'.length))).toEqual([
      '2031-07-01-1000',
      '2031-07-01-1030',
      '2031-07-01-1100',
      '2031-07-02-1000',
      '2031-07-02-1030',
      '2031-07-02-1100',
    ]);
    expect(dates[0].endDateTime).toBe('2031-07-01T14:30:00.000Z');
    expect(dates.every((d: { status: string; left: number }) => d.status === 'draft' && d.left === 20)).toBe(true);
  });

  it('a weekly rule with a count stops after that many dates', async () => {
    const res = await admin.post(base(), weekly({ name: 'Count walk', schedule: { weekly: { startDate: '2031-06-02', weekdays: [1], count: 4 }, startTime: '09:00', endTime: '10:00' } }));
    expect(res.status).toBe(201);
    expect(res.body.details.dates.map((d: { urlName: string }) => d.urlName.slice(-15, -5))).toEqual(['2031-06-02', '2031-06-09', '2031-06-16', '2031-06-23']);
  });

  const refusals: Array<[string, Record<string, unknown>, string, string, string]> = [
    ['no dates', { schedule: { dates: [], startTime: '10:00', endTime: '11:00' } }, 'SERIES_NO_DATES', 'details.schedule', M.seriesNoDates],
    [
      'a rule over the maximum',
      { schedule: { weekly: { startDate: '2031-01-01', weekdays: [1, 2, 3, 4, 5, 6, 7], until: '2032-12-31' }, startTime: '10:00', endTime: '11:00' } },
      'SERIES_TOO_MANY_DATES',
      'details.schedule',
      M.seriesTooManyDates,
    ],
    [
      'slots that make too many',
      { schedule: { dates: ['2031-01-01', '2031-01-02'], startTime: '00:00', endTime: '23:59', slots: { everyMinutes: 5 } } },
      'SERIES_TOO_MANY_DATES',
      'details.schedule',
      M.seriesTooManyDates,
    ],
    ['a slot length of 0', { schedule: { dates: ['2031-01-01'], startTime: '10:00', endTime: '11:00', slots: { everyMinutes: 0 } } }, 'SERIES_BAD_TIMES', 'details.schedule.slots.everyMinutes', M.seriesSlotLength],
    ['a slot longer than the day', { schedule: { dates: ['2031-01-01'], startTime: '10:00', endTime: '11:00', slots: { everyMinutes: 90 } } }, 'SERIES_BAD_TIMES', 'details.schedule.slots.everyMinutes', M.seriesSlotLength],
    ['an end before the start', { schedule: { dates: ['2031-01-01'], startTime: '10:00', endTime: '09:00' } }, 'SERIES_BAD_TIMES', 'details.schedule.endTime', M.seriesEndBeforeStart],
    [
      'a rule with both an end date and a count',
      { schedule: { weekly: { startDate: '2031-01-01', weekdays: [1], until: '2031-02-01', count: 3 }, startTime: '10:00', endTime: '11:00' } },
      'SERIES_NO_DATES',
      'details.schedule.weekly.until',
      M.seriesRuleEnd,
    ],
    [
      'a rule ending before it starts',
      { schedule: { weekly: { startDate: '2031-02-01', weekdays: [1], until: '2031-01-01' }, startTime: '10:00', endTime: '11:00' } },
      'SERIES_BAD_TIMES',
      'details.schedule.weekly.until',
      M.seriesEndBeforeStart,
    ],
  ];
  it.each(refusals)('refuses %s with its domain code, writing nothing', async (_label, over, domainCode, field, message) => {
    const before = await written(tenant.id);
    const res = await admin.post(base(), weekly({ name: `Bad ${domainCode}`, ...over }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: { code: 'VALIDATION', message, fields: { [field]: message }, domainCode } });
    expect(await written(tenant.id)).toEqual(before);
  });

  it('refuses malformed dates, times, no ticket types and a taken URL name', async () => {
    const before = await written(tenant.id);
    const bad = await admin.post(base(), weekly({ name: 'Bad', schedule: { dates: ['2031-02-30'], startTime: '25:00', endTime: '11:00' } }));
    expect(bad.status).toBe(400);
    expect(bad.body.error.fields).toMatchObject({ 'details.schedule.dates.0': M.seriesDateInvalid, 'details.schedule.startTime': M.seriesTimeInvalid });
    const noTypes = await admin.post(base(), weekly({ name: 'Bad', ticketTypes: [] }));
    expect(noTypes.body.error.fields).toEqual({ 'details.ticketTypes': M.seriesTicketTypesRequired });
    const taken = await admin.post(base(), weekly({ name: 'Harbour walk' }));
    expect(taken.status).toBe(409);
    expect(taken.body.error.fields).toEqual({ 'details.urlName': M.urlNameTaken });
    expect(await written(tenant.id)).toEqual(before);
  });
});

describe('series: one date at a time', () => {
  let seriesId: string;
  let dates: Array<{ eventId: string; urlName: string; startDateTime: string }>;
  beforeAll(async () => {
    const res = await admin.post(base(), weekly({ name: 'Ferry tour', schedule: { weekly: { startDate: '2031-09-02', weekdays: [2], count: 3 }, startTime: '18:00', endTime: '19:30' } }));
    seriesId = res.body.id;
    dates = res.body.details.dates;
  });

  it('sums each date’s sales into the whole series', async () => {
    await givenSale(server, tenant.id, dates[0]!.eventId, { tickets: [{ price: 2500 }, { price: 2500 }] });
    await givenSale(server, tenant.id, dates[1]!.eventId, { tickets: [{ price: 1000 }] });
    const s = (await admin.get(`${base()}/${seriesId}`)).body;
    expect(s.details.dates.map((d: { sold: number; grossSales: number }) => [d.sold, d.grossSales])).toEqual([
      [2, 5000],
      [1, 1000],
      [0, 0],
    ]);
    expect(s.details.totals).toMatchObject({ dates: 3, sold: 3, grossSales: 6000 });
  });

  it('adds a date with the series’ ticket types, published like the others; the same time twice is refused', async () => {
    const res = await admin.post(`${base()}/${seriesId}/dates`, { details: { date: '2031-09-24', startTime: '18:00', endTime: '19:30' } });
    expect(res.status).toBe(201);
    const added = res.body.details.dates.at(-1);
    expect(added).toMatchObject({ urlName: 'ferry-tour-2031-09-24-1800', status: 'published', left: 20 });
    const again = await admin.post(`${base()}/${seriesId}/dates`, { details: { date: '2031-09-24', startTime: '18:00', endTime: '19:30' } });
    expect(again.status).toBe(409);
    expect(again.body.error.domainCode).toBe('SERIES_DATE_TAKEN');
    const backwards = await admin.post(`${base()}/${seriesId}/dates`, { details: { date: '2031-09-25', startTime: '18:00', endTime: '17:00' } });
    expect(backwards.body.error).toMatchObject({ code: 'VALIDATION', domainCode: 'SERIES_BAD_TIMES', fields: { 'details.endTime': M.seriesEndBeforeStart } });
  });

  it('moves a date and mails only that date’s buyers the new time', async () => {
    const buyer = await givenSale(server, tenant.id, dates[2]!.eventId, { email: 'moved@example.test', tickets: [{ price: 2500 }] });
    await givenSale(server, tenant.id, dates[0]!.eventId, { email: 'stays@example.test' });
    const res = await admin.post(`${base()}/${seriesId}/dates/${dates[2]!.eventId}/move`, { details: { date: '2031-09-17', startTime: '20:00', endTime: '21:00' } });
    expect(res.status).toBe(200);
    const moved = res.body.details.dates.find((d: { eventId: string }) => d.eventId === dates[2]!.eventId);
    expect(moved).toMatchObject({ startDateTime: '2031-09-18T00:00:00.000Z', urlName: dates[2]!.urlName, name: 'Ferry tour · Wed, Sep 17, 2031, 8:00 PM' });
    await server.app.deps.jobs.drain();
    const mails = await db().select().from(outbox).where(eq(outbox.to, 'moved@example.test'));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('New time: Ferry tour · Wed, Sep 17, 2031, 8:00 PM');
    expect(mails[0]!.text).toContain('It was Tuesday, September 16, 2031 at 6:00 PM EDT. It is now Wednesday, September 17, 2031 at 8:00 PM EDT.');
    expect(mails[0]!.text).toContain(buyer.orderUid);
    expect(await db().select().from(outbox).where(eq(outbox.to, 'stays@example.test'))).toHaveLength(0);
  });

  it('cancels one date: only it is cancelled, and only its buyers are told', async () => {
    await givenSale(server, tenant.id, dates[1]!.eventId, { email: 'cancelled@example.test' });
    const res = await admin.post(`${base()}/${seriesId}/dates/${dates[1]!.eventId}/cancel`, { message: 'The ferry is in repair.' });
    expect(res.status).toBe(200);
    expect(res.body.details.dates.map((d: { status: string }) => d.status)).toEqual(['published', 'cancelled', 'published', 'published']);
    await server.app.deps.jobs.drain();
    const notice = await db().select().from(outbox).where(eq(outbox.to, 'cancelled@example.test'));
    expect(notice).toHaveLength(1);
    expect(notice[0]!.text).toContain('The ferry is in repair.');
    expect(await db().select().from(outbox).where(and(eq(outbox.to, 'stays@example.test')))).toHaveLength(0);
    // A cancelled date is not moved.
    const move = await admin.post(`${base()}/${seriesId}/dates/${dates[1]!.eventId}/move`, { details: { date: '2031-09-30', startTime: '18:00', endTime: '19:00' } });
    expect(move.body.error.domainCode).toBe('EVENT_CANCELLED');
  });

  it('another tenant’s series and dates are 404, and so is a date of another series', async () => {
    const theirs = await other.admin.post(`/api/tenants/${other.tenant.id}/series`, weekly({ name: 'Their walk' }));
    expect(theirs.status).toBe(201);
    const theirDate = theirs.body.details.dates[0].eventId;
    const mine = `${base()}/${seriesId}`;
    const notFound = { error: { code: 'NOT_FOUND', message: M.notFound } };
    // Their ids through my tenant.
    for (const res of [
      await admin.get(`${base()}/${theirs.body.id}`),
      await admin.post(`${base()}/${theirs.body.id}/dates`, { details: { date: '2031-10-01', startTime: '18:00', endTime: '19:00' } }),
      await admin.post(`${mine}/dates/${theirDate}/move`, { details: { date: '2031-10-01', startTime: '18:00', endTime: '19:00' } }),
      await admin.post(`${mine}/dates/${theirDate}/cancel`, {}),
      await admin.post(`${base()}/${theirs.body.id}/dates/${theirDate}/cancel`, {}),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body).toEqual(notFound);
    }
    // My series through their tenant.
    expect((await other.admin.get(`/api/tenants/${other.tenant.id}/series/${seriesId}`)).status).toBe(404);
    // Their date is untouched.
    const [row] = await db().select().from(events).where(eq(events.id, theirDate));
    expect(row!.status).toBe('published');
    // A plain event that is no date of this series.
    const plain = await admin.post(`/api/tenants/${tenant.id}/events`, { details: { name: 'Plain gig' } });
    expect((await admin.post(`${mine}/dates/${plain.body.id}/cancel`, {})).status).toBe(404);
  });
});

describe('series: the public page', () => {
  it('lists the public dates with what is left, shows sold out, and links to each date’s ticket menu', async () => {
    const res = await admin.post(base(), weekly({ name: 'Choir nights', capacity: 2, schedule: { dates: ['2031-11-04', '2031-11-05', '2031-11-06'], startTime: '19:00', endTime: '20:00' } }));
    const [first, second, third] = res.body.details.dates;
    await givenSale(server, tenant.id, first.eventId, { tickets: [{ price: 2500 }] });
    await db().update(events).set({ remainingCapacity: 0 }).where(eq(events.id, second.eventId));
    await db().update(events).set({ status: 'draft', publishedAt: null }).where(eq(events.id, third.eventId));
    const page = await server.client(tenant.url).get('/series/choir-nights');
    expect(page.status).toBe(200);
    const html = page.raw.toString();
    expect(html).toContain('<h1>Choir nights</h1>');
    expect(html).toContain(`href="/${first.urlName}/tickets"`);
    expect(html).toContain('Sold out');
    expect(html).not.toContain(`href="/${second.urlName}/tickets"`);
    expect(html).not.toContain(third.urlName);
    expect(html).toContain('Tuesday, November 4, 2031');
    expect(html).toContain('From $10.00');
    // Another tenant's host, an unknown name and the platform host do not have it.
    expect((await server.client(other.tenant.url).get('/series/choir-nights')).status).toBe(404);
    expect((await server.client(tenant.url).get('/series/no-such-series')).status).toBe(404);
  });

  it('a date’s public event names its series (the ticket menu’s "All dates"); a plain event names none', async () => {
    const res = await admin.post(base(), weekly({ name: 'Harp nights', schedule: { dates: ['2031-11-11'], startTime: '19:00', endTime: '20:00' } }));
    const date = res.body.details.dates[0];
    const site = server.client(tenant.url);
    const pub = await site.get(`/api/p/events/${date.urlName}`);
    expect(pub.status).toBe(200);
    expect(pub.body.details.seriesUrlName).toBe('harp-nights');
    const plain = await givenEventOnSale(server, tenant.id, { name: 'Plain gig', urlName: 'plain-gig-28' });
    const plainPub = await site.get(`/api/p/events/${plain.urlName}`);
    expect(plainPub.status).toBe(200);
    expect(plainPub.body.details.seriesUrlName).toBeNull();
  });
});

it('SERIES_MAX_DATES is a year of daily dates', () => expect(SERIES_MAX_DATES).toBe(366));

describe('series: a series-level ticket type edit', () => {
  it('flows to the dates that kept the series’ value; a per-date price, a sold-out quantity (told), a cancelled date and a date that is over keep theirs', async () => {
    const res = await admin.post(base(), weekly({ name: 'Lantern walk', schedule: { dates: ['2032-01-04', '2032-01-05', '2032-01-06', '2032-01-07', '2032-01-08'], startTime: '18:00', endTime: '19:00' } }));
    const s = res.body;
    const adult = s.details.ticketTypes.find((t: { name: string }) => t.name === 'Adult');
    const copies = async () =>
      Object.fromEntries(
        (await db().select().from(ticketTypes).where(eq(ticketTypes.seriesTicketTypeId, adult.id))).map((t) => [t.eventId, [t.name, t.price, t.quantity, t.remaining]]),
      );
    const [d0, d1, d2, d3, d4] = s.details.dates.map((d: { eventId: string }) => d.eventId);
    const before = await copies();
    // Date 1's price set on its own; date 2 sold 12 of its 15 adults; date 3 cancelled.
    const d1Type = (await db().select().from(ticketTypes).where(and(eq(ticketTypes.seriesTicketTypeId, adult.id), eq(ticketTypes.eventId, d1))))[0]!;
    expect((await admin.patch(`/api/tenants/${tenant.id}/events/${d1}/ticket-types/${d1Type.id}`, { details: { price: 1800 } })).status).toBe(200);
    await db().update(ticketTypes).set({ remaining: 3 }).where(and(eq(ticketTypes.seriesTicketTypeId, adult.id), eq(ticketTypes.eventId, d2)));
    expect((await admin.post(`${base()}/${s.id}/dates/${d3}/cancel`, {})).status).toBe(200);
    // Date 4 is over (its end has passed).
    await db().update(events).set({ startDateTime: new Date('2020-01-08T23:00:00Z'), endDateTime: new Date('2020-01-09T00:00:00Z') }).where(eq(events.id, d4));

    const edit = await admin.patch(`${base()}/${s.id}/ticket-types/${adult.id}`, { details: { name: 'Grown-up', price: 3000, quantity: 10 } });
    expect(edit.status).toBe(200);
    expect(edit.body.details.ticketTypes.find((t: { id: string }) => t.id === adult.id)).toMatchObject({ name: 'Grown-up', price: 3000, quantity: 10 });
    const after = await copies();
    expect(after[d0]).toEqual(['Grown-up', 3000, 10, 10]);
    expect(after[d1]).toEqual(['Grown-up', 1800, 10, 10]);
    expect(after[d2]).toEqual(['Grown-up', 3000, 15, 3]);
    expect(after[d3]).toEqual(before[d3]);
    expect(after[d4]).toEqual(before[d4]);
    // The date that sold more than the new quantity is named with the ticket type's own message.
    expect(edit.body.kept).toEqual([{ eventId: d2, name: s.details.dates[2].name, field: 'quantity', soldOrHeld: 12, message: M.quantityBelowSold }]);
  });

  it('refuses bad input and another series’ or tenant’s ticket type, changing nothing', async () => {
    const mine = (await admin.get(base())).body.result[0].id;
    const theirs = await other.admin.post(`/api/tenants/${other.tenant.id}/series`, weekly({ name: 'Their lantern walk' }));
    const theirType = theirs.body.details.ticketTypes[0].id;
    expect((await admin.patch(`${base()}/${mine}/ticket-types/${theirType}`, { details: { price: 1 } })).status).toBe(404);
    expect((await admin.patch(`${base()}/${theirs.body.id}/ticket-types/${theirType}`, { details: { price: 1 } })).status).toBe(404);
    const bad = await other.admin.patch(`/api/tenants/${other.tenant.id}/series/${theirs.body.id}/ticket-types/${theirType}`, { details: { price: -5, quantity: 0 } });
    expect(bad.status).toBe(400);
    const [row] = await db().select().from(ticketTypes).where(eq(ticketTypes.seriesTicketTypeId, theirType));
    expect(row!.price).toBe(2500);
  });
});

describe('series: the whole series’ export', () => {
  it('exports every date’s orders and tickets as one CSV with the date first, in date order, cells escaped; another tenant’s series is a 404', async () => {
    const res = await admin.post(base(), weekly({ name: 'Ferry rides', schedule: { dates: ['2031-10-07', '2031-10-08'], startTime: '09:30', endTime: '10:30' } }));
    const s = res.body;
    const [d0, d1] = s.details.dates;
    const plain = await givenEventOnSale(server, tenant.id, { name: 'Not in the series' });
    await givenSale(server, tenant.id, d1.eventId, { firstName: '=HYPERLINK("x")', lastName: 'Late', tickets: [{ price: 2500, fullName: '@SUM(1)' }, { price: 1000 }] });
    await givenSale(server, tenant.id, d0.eventId, { firstName: 'Early', lastName: 'Bird', tickets: [{ price: 2500 }] });
    await givenSale(server, tenant.id, plain.id, { firstName: 'Other', lastName: 'Event' });

    const orders = await admin.get(`${base()}/${s.id}/export/orders`);
    expect(orders.status).toBe(200);
    expect(orders.headers['content-type']).toContain('text/csv');
    expect(orders.headers['content-disposition']).toMatch(/attachment; filename="ferry-rides-orders-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = orders.raw.toString().replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines[0]).toBe('Event Date,Date,Order ID,Event Name,Name,Email,Phone number,# Tickets,Payment Method,Channel,Total,Refunded,Refunded Amount,Subtotal,Discount,Discount Code,Service Fee,Processing Fee,Tax,Donation,Donation Fee,Status');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^2031-10-07 09:30,.*,Early Bird,/);
    expect(lines[2]).toMatch(/^2031-10-08 09:30,/);
    // A name a spreadsheet would run as a formula is made inert (the reports' csv.ts escapeCell).
    expect(lines[2]).toContain(`"'=HYPERLINK(""x"") Late"`);
    expect(orders.raw.toString()).not.toContain('Other Event');

    const tickets = await admin.get(`${base()}/${s.id}/export/tickets`);
    expect(tickets.status).toBe(200);
    const tlines = tickets.raw.toString().replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(tlines[0]).toBe('Event Date,Date,Ticket ID,Order ID,Name,Email,Phone number,Ticket Type,Ticket Price,Ticket Used,Status,Channel,Payment Method,Seat');
    expect(tlines).toHaveLength(4);
    expect(tlines.filter((l) => l.startsWith('2031-10-08 09:30,'))).toHaveLength(2);
    expect(tickets.raw.toString()).toContain("'@SUM(1)");

    // Bad input and another tenant's series.
    expect((await admin.get(`${base()}/${s.id}/export/refunds`)).status).toBe(404);
    expect((await admin.get(`${base()}/not-a-uuid/export/orders`)).status).toBe(400);
    expect((await other.admin.get(`/api/tenants/${other.tenant.id}/series/${s.id}/export/orders`)).status).toBe(404);
    expect((await admin.get(`/api/tenants/${other.tenant.id}/series/${s.id}/export/orders`)).status).toBe(404);
  });
});

describe('series: the Events list grouped by series', () => {
  it('shows one row per series (its next date, the dates summed) beside plain events; paging and count follow; ungrouped and searching it lists the dates', async () => {
    const res = await admin.post(base(), weekly({ name: 'Rowing club', capacity: 10, schedule: { dates: ['2031-08-05', '2031-08-06', '2031-08-07'], startTime: '07:00', endTime: '08:00' } }));
    const s = res.body;
    const [d0, d1, d2] = s.details.dates;
    await givenSale(server, tenant.id, d1.eventId, { tickets: [{ price: 2500 }, { price: 2500 }] });
    await givenSale(server, tenant.id, d2.eventId, { tickets: [{ price: 2500 }] });
    await givenEventOnSale(server, tenant.id, { name: 'Rowing club social (plain)' });
    const eventsUrl = `/api/tenants/${tenant.id}/events`;
    const list = (filters: string[], extra = '') => admin.get(`${eventsUrl}?${filters.map((f) => `filters=${encodeURIComponent(f)}`).join('&')}${extra}`);

    const grouped = await list(['details.name=Rowing club', 'details.seriesGrouped=all']);
    expect(grouped.status).toBe(200);
    expect(grouped.body.count).toBe(2);
    const row = grouped.body.result.find((e: { series?: unknown }) => e.series);
    expect(row.id).toBe(d0.eventId);
    expect(row.series).toEqual({ id: s.id, name: 'Rowing club', urlName: 'rowing-club', dates: 3, nextStartDateTime: d0.startDateTime, capacity: 30, remainingCapacity: 30, sales: { sold: 3, held: 0 } });
    expect(grouped.body.result.filter((e: { series?: unknown }) => !e.series).map((e: { details: { name: string } }) => e.details.name)).toEqual(['Rowing club social (plain)']);

    // Paging one at a time gives the same two rows.
    const first = await list(['details.name=Rowing club', 'details.seriesGrouped=all'], '&limit=1');
    expect(first.body.result).toHaveLength(1);
    expect(first.body.count).toBe(2);
    const second = await list(['details.name=Rowing club', 'details.seriesGrouped=all'], `&limit=1&cursor=${encodeURIComponent(first.body.cursor)}`);
    expect(second.body.result).toHaveLength(1);
    expect(second.body.result[0].id).not.toBe(first.body.result[0].id);

    // The first date is over and the second cancelled: the series shows by its third, next date.
    await db().update(events).set({ startDateTime: new Date('2020-08-05T11:00:00Z'), endDateTime: new Date('2020-08-05T12:00:00Z') }).where(eq(events.id, d0.eventId));
    expect((await admin.post(`${base()}/${s.id}/dates/${d1.eventId}/cancel`, {})).status).toBe(200);
    const later = await list(['details.name=Rowing club', 'details.seriesGrouped=all']);
    const laterRow = later.body.result.find((e: { series?: unknown }) => e.series);
    expect(laterRow.id).toBe(d2.eventId);
    expect(laterRow.series).toMatchObject({ dates: 2, nextStartDateTime: d2.startDateTime, capacity: 10 });
    // Under a status filter the series shows by its date of that status.
    const cancelled = await list(['details.name=Rowing club', 'details.status=cancelled', 'details.seriesGrouped=cancelled']);
    expect(cancelled.body.result.map((e: { id: string }) => e.id)).toEqual([d1.eventId]);

    // Not grouped (the API's list as before), or a search for one date: the dates themselves.
    const plain = await list(['details.name=Rowing club']);
    expect(plain.body.count).toBe(4);
    expect(plain.body.result.every((e: { series?: unknown }) => e.series === undefined)).toBe(true);
    const oneDate = await list([`details.name=${d2.name.split(' · ')[1]}`]);
    expect(oneDate.body.result.map((e: { id: string }) => e.id)).toContain(d2.eventId);

    // Bad input; another tenant's list does not show this series.
    expect((await list(['details.seriesGrouped=yes'])).status).toBe(400);
    expect((await list(['details.seriesGrouped<all'])).status).toBe(400);
    const theirs = await other.admin.get(`/api/tenants/${other.tenant.id}/events?filters=${encodeURIComponent('details.seriesGrouped=all')}`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.result.some((e: { series?: { id: string } }) => e.series?.id === s.id)).toBe(false);
  });
});

describe('series: API keys', () => {
  it('a read key lists series; an events:manage key creates one; a read key may not', async () => {
    const key = async (scopes: string[]) => (await admin.post(`/api/tenants/${tenant.id}/api-keys`, { details: { name: `Series ${scopes.join()}`, scopes } })).body.secret as string;
    const [read, manage] = [await key(['read']), await key(['events:manage'])];
    const app = server.client();
    const bearer = (k: string) => ({ authorization: `Bearer ${k}` });
    expect((await app.request('GET', base(), undefined, bearer(read))).status).toBe(200);
    const body = weekly({ name: 'Keyed walk', schedule: { dates: ['2031-12-01'], startTime: '10:00', endTime: '11:00' } });
    expect((await app.request('POST', base(), body, bearer(read))).status).toBe(403);
    expect((await app.request('POST', base(), body, bearer(manage))).status).toBe(201);
  });
});

describe('series: the demo', () => {
  it('seeds a weekly series with six public dates on sale', async () => {
    const demo = await givenTenantWithAdmin(server);
    await db().transaction((tx) => seedDemoSeries(tx, demo.tenant.id));
    const page = await server.client(demo.tenant.url).get(`/series/${DEMO_SERIES.urlName}`);
    expect(page.status).toBe(200);
    expect(page.raw.toString().match(/Choose tickets/g)).toHaveLength(6);
    expect(page.raw.toString()).toContain('20 left');
  });
});

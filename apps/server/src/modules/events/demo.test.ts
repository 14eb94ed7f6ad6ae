import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TENANT, seedIfEmpty } from '../../seed.js';
import { checkoutPayload, startServer, type TestServer } from '../../../test/harness.js';
import { DEMO_CHARITY, DEMO_EVENT } from './demo.js';

let server: TestServer;
// The seed places, pays and fulfils the demo history's orders: longer than a plain start.
beforeAll(async () => {
  server = await startServer();
  await seedIfEmpty(server.app.deps);
}, 180_000);
afterAll(async () => {
  await server.close();
});

describe('the demo seed', () => {
  it('puts Summer Jam on sale on the demo tenant, with two ticket types, WELCOME10 and donations to the demo charity', async () => {
    const site = server.client(DEMO_TENANT.url);
    const event = await site.get(`/api/p/events/${DEMO_EVENT.urlName}`);
    expect(event.status).toBe(200);
    expect(event.body.details).toMatchObject({ name: 'Summer Jam', status: 'published', city: 'New York', covidSafety: true });
    const start = Date.parse(event.body.details.startDateTime);
    expect(start - Date.now()).toBeGreaterThan(50 * 24 * 3600_000);
    expect(start - Date.now()).toBeLessThan(70 * 24 * 3600_000);
    const types = event.body.ticketTypes.map((t: { details: { name: string; price: number; remainingQuantity: number; available: boolean } }) => [
      t.details.name,
      t.details.price,
      t.details.remainingQuantity,
      t.details.available,
    ]);
    expect(types).toEqual([
      ['General Admission', 4500, 500, true],
      ['VIP', 12000, 50, true],
    ]);
    const [ga] = event.body.ticketTypes as Array<{ id: string }>;
    const price = await site.post(`/api/p/events/${DEMO_EVENT.urlName}/price`, { lines: [{ ticketTypeId: ga!.id, quantity: 2 }], discountCode: DEMO_EVENT.discountCode });
    expect(price.body).toMatchObject({ subtotal: 9000, discount: 900, discountCode: 'WELCOME10' });
    const order = await site.post(`/api/p/tenants/${event.body.tenantId}/events/${event.body.id}/orders`, checkoutPayload([{ ticketTypeId: ga!.id, quantity: 2 }]));
    expect(order.status).toBe(201);
    expect(order.body.message).toContain('/pay/');

    // The checkout offers a donation to the demo charity: priced with the seeded 20% donation fee.
    expect(event.body.settings.charity).toEqual({ id: expect.any(String), name: DEMO_CHARITY.name });
    const withDonation = await site.post(`/api/p/events/${DEMO_EVENT.urlName}/price`, { lines: [{ ticketTypeId: ga!.id, quantity: 1 }], donation: 1000 });
    expect(withDonation.body).toMatchObject({ donation: 1000, donationFee: 200 });
  });

  it('gives Summer Jam a cover, drawn at seed time: the hero, phone and social crops are served on the demo site', async () => {
    const site = server.client(DEMO_TENANT.url);
    const d = (await site.get(`/api/p/events/${DEMO_EVENT.urlName}`)).body.details;
    for (const [url, type] of [
      [d.coverImageUrl, 'image/webp'],
      [d.coverImageSmallUrl, 'image/webp'],
      [d.socialImageUrl, 'image/jpeg'],
    ]) {
      expect(url).toMatch(new RegExp(`^/${DEMO_EVENT.urlName}/assets/cover-`));
      const img = await site.get(url);
      expect(img.status).toBe(200);
      expect(img.headers['content-type']).toBe(type);
      expect(img.raw.length).toBeGreaterThan(5_000);
    }
  });
});

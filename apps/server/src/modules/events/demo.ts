import { randomUUID } from 'node:crypto';
import { instantToWallClock, zonedDateTimeToInstant } from '@marquee/core';
import type { Tx } from '../../db/client.js';
import { charities, discountCodes, events, tenantCharities, ticketTypes } from '../../db/schema/index.js';

export const DEMO_EVENT = { urlName: 'summer-jam', discountCode: 'WELCOME10' } as const;
export const DEMO_CHARITY = { name: 'Riverside Music Fund', street: '220 Riverside Drive', city: 'New York', state: 'NY', zipCode: '10025' } as const;

/**
 * The demo charity: a platform charity, active, that the demo tenant enabled, so a newcomer sees
 * the checkout's donation offer on Summer Jam. Answers its id.
 */
export async function seedDemoCharity(tx: Tx, tenantId: string): Promise<string> {
  const id = randomUUID();
  await tx.insert(charities).values({ id, ...DEMO_CHARITY, status: 'active' });
  await tx.insert(tenantCharities).values({ tenantId, charityId: id });
  return id;
}

/**
 * The demo tenant's event on sale: Summer Jam, about two months ahead at 7 pm in New York, General
 * Admission $45.00 (500) and VIP $120.00 (50), WELCOME10 for 10% off, and donations to the demo
 * charity when one is given (one the tenant enabled).
 */
export async function seedDemoEvent(tx: Tx, tenantId: string, opts: { now?: Date; charityId?: string | null } = {}) {
  const now = opts.now ?? new Date();
  const timeZone = 'America/New_York';
  const day = instantToWallClock(new Date(now.getTime() + 60 * 24 * 3600_000), timeZone).date;
  const start = zonedDateTimeToInstant(day, '19:00', timeZone)!;
  const end = zonedDateTimeToInstant(day, '23:00', timeZone)!;
  const eventId = randomUUID();
  await tx.insert(events).values({
    tenantId,
    id: eventId,
    name: 'Summer Jam',
    urlName: DEMO_EVENT.urlName,
    status: 'published',
    publishedAt: now,
    description: 'An evening of live music under the stars, with food trucks and a late set from our headliners.',
    startDateTime: start,
    endDateTime: end,
    timeZone,
    venueName: 'Riverside Park Amphitheater',
    address1: '500 Riverside Drive',
    city: 'New York',
    state: 'NY',
    zip: '10027',
    country: 'USA',
    capacity: 550,
    remainingCapacity: 550,
    covidSafetyEnabled: true,
    covidSafetyText: 'Please stay home if you feel unwell. Hand sanitiser is available at every entrance.',
    emailDeliveryVerbiage: 'Your tickets are attached to this e-mail. Print them at home or show them on your phone at the gate.',
    charityId: opts.charityId ?? null,
  });
  const ga = randomUUID();
  const vip = randomUUID();
  await tx.insert(ticketTypes).values([
    { tenantId, id: ga, eventId, name: 'General Admission', description: 'Entry to the lawn.', price: 4500, quantity: 500, remaining: 500, sortOrder: 1 },
    { tenantId, id: vip, eventId, name: 'VIP', description: 'Reserved seating near the stage and a drink.', price: 12000, quantity: 50, remaining: 50, maxPerOrder: 4, sortOrder: 2 },
  ]);
  await tx.insert(discountCodes).values({ tenantId, id: randomUUID(), eventId, code: DEMO_EVENT.discountCode, kind: 'percent', value: 1000 });
  return { eventId, ticketTypeIds: { ga, vip } };
}

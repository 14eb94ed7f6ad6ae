import { instantToWallClock, zonedDateTimeToInstant, type TSectionSpec } from '@marquee/core';
import { randomUUID } from 'node:crypto';
import type { Tx } from '../../db/client.js';
import { events, ticketTypes } from '../../db/schema/index.js';
import { eventSeatRowsOf } from './event-seating.js';
import * as repo from './repository.js';

// Issue 27: the demo's seated event (README names it): a playhouse with curved stalls and a
// circle, two categories selling as two ticket types, a few seats blocked, accessible places at the
// end of the stalls' last row.

export const DEMO_SEATED_EVENT = { urlName: 'playhouse', name: 'An Evening at the Playhouse' } as const;

export const DEMO_PLAYHOUSE: { name: string; sections: TSectionSpec[]; blocked: string[]; accessible: string[] } = {
  name: 'Acme Playhouse',
  sections: [
    { name: 'Stalls', category: 'Stalls', rows: 10, seatsPerRow: 18, rowLabels: 'letters', firstRow: 1, numbering: 'ltr', aisleAfter: [4, 14], curve: 1, angle: 0, x: 0, y: 0 },
    { name: 'Circle', category: 'Circle', rows: 5, seatsPerRow: 22, rowLabels: 'letters', firstRow: 1, numbering: 'ltr', aisleAfter: [11], curve: 1.5, angle: 0, x: -15, y: 150 },
  ],
  blocked: ['Stalls|A|1', 'Stalls|A|18'],
  accessible: ['Stalls|J|1', 'Stalls|J|2', 'Stalls|J|17', 'Stalls|J|18'],
};

export async function seedDemoSeatedEvent(tx: Tx, tenantId: string, opts: { now?: Date } = {}) {
  const now = opts.now ?? new Date();
  const timeZone = 'America/New_York';
  const day = instantToWallClock(new Date(now.getTime() + 45 * 24 * 3600_000), timeZone).date;
  const eventId = randomUUID();
  const seats = DEMO_PLAYHOUSE.sections.reduce((n, s) => n + s.rows * s.seatsPerRow, 0);
  await tx.insert(events).values({
    tenantId,
    id: eventId,
    name: DEMO_SEATED_EVENT.name,
    urlName: DEMO_SEATED_EVENT.urlName,
    status: 'published',
    publishedAt: now,
    description: 'A night of one-act plays in the Acme Playhouse. Choose your own seats in the stalls or the circle.',
    startDateTime: zonedDateTimeToInstant(day, '19:30', timeZone)!,
    endDateTime: zonedDateTimeToInstant(day, '22:00', timeZone)!,
    timeZone,
    venueName: 'Acme Playhouse',
    address1: '12 Theatre Row',
    city: 'New York',
    state: 'NY',
    zip: '10036',
    country: 'USA',
    capacity: seats,
    remainingCapacity: seats,
    emailDeliveryVerbiage: 'Your tickets are attached to this e-mail. Each shows your seat.',
  });
  const stalls = randomUUID();
  const circle = randomUUID();
  const stallSeats = DEMO_PLAYHOUSE.sections[0]!.rows * DEMO_PLAYHOUSE.sections[0]!.seatsPerRow;
  const circleSeats = DEMO_PLAYHOUSE.sections[1]!.rows * DEMO_PLAYHOUSE.sections[1]!.seatsPerRow;
  await tx.insert(ticketTypes).values([
    { tenantId, id: stalls, eventId, name: 'Stalls', description: 'Close to the stage.', price: 6500, quantity: stallSeats, remaining: stallSeats, maxPerOrder: 8, sortOrder: 1 },
    { tenantId, id: circle, eventId, name: 'Circle', description: 'The raised circle: the whole stage in view.', price: 4000, quantity: circleSeats, remaining: circleSeats, maxPerOrder: 8, sortOrder: 2 },
  ]);
  const layoutId = randomUUID();
  await repo.insertLayout(tx, { tenantId, id: layoutId, name: DEMO_PLAYHOUSE.name });
  const flags = [
    ...DEMO_PLAYHOUSE.blocked.map((k) => ({ seatKey: k, status: 'blocked' as const, accessible: false, companion: false })),
    ...DEMO_PLAYHOUSE.accessible.map((k) => ({ seatKey: k, status: 'open' as const, accessible: true, companion: false })),
  ];
  await repo.replaceLayoutContent(
    tx,
    tenantId,
    layoutId,
    DEMO_PLAYHOUSE.sections.map((s, position) => ({ ...s, position, aisleAfter: s.aisleAfter.join(','), curve: Math.round(s.curve * 10) })),
    flags,
  );
  const mapping = new Map([
    ['Stalls', stalls],
    ['Circle', circle],
  ]);
  await repo.insertEventSeating(tx, {
    tenantId,
    eventId,
    layoutId,
    layoutName: DEMO_PLAYHOUSE.name,
    categories: [...mapping].map(([category, ticketTypeId]) => ({ category, ticketTypeId })),
    seats: eventSeatRowsOf(DEMO_PLAYHOUSE.sections, flags, mapping),
  });
  return { eventId, ticketTypeIds: { stalls, circle } };
}

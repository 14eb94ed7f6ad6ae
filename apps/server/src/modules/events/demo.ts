import { randomUUID } from 'node:crypto';
import { instantToWallClock, zonedDateTimeToInstant } from '@marquee/core';
import { and, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { Storage } from '../../platform/storage.js';
import { makeCoverCrops, storeCoverCrops } from './cover-image.js';
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

/**
 * The demo event's cover, drawn at seed time (an SVG rendered by sharp, no file shipped): a night
 * stage with light beams over a crowd, and the event's name, as a poster would have it.
 */
export function demoCoverSvg(name: string, subtitle: string): string {
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const stars = Array.from({ length: 60 }, (_, i) => {
    // A fixed scatter (no randomness): the same demo every time.
    const x = (i * 397) % 1600;
    const y = (i * 151) % 420;
    const r = 0.8 + ((i * 7) % 10) / 8;
    return `<circle cx="${x}" cy="${y}" r="${r.toFixed(2)}" fill="#fff" opacity="${(0.35 + ((i * 13) % 10) / 16).toFixed(2)}"/>`;
  }).join('');
  const beams = [
    [260, '#ff6fb5'],
    [620, '#7cc8ff'],
    [980, '#ffd36e'],
    [1340, '#b18cff'],
  ]
    .map(([x, c], i) => `<polygon points="${x},800 ${Number(x) - 260 + i * 90},0 ${Number(x) - 120 + i * 90},0" fill="${c}" opacity="0.22"/>`)
    .join('');
  const crowd = Array.from({ length: 34 }, (_, i) => {
    const x = i * 49 + ((i * 17) % 23);
    const h = 60 + ((i * 37) % 45);
    const arm = i % 5 === 0 ? `<rect x="${x + 14}" y="${800 - h - 70}" width="9" height="70" rx="4" fill="#120a2e" transform="rotate(${(i % 3) * 8 - 8} ${x + 18} ${800 - h})"/>` : '';
    return `<ellipse cx="${x + 24}" cy="${800 - h + 8}" rx="20" ry="24" fill="#120a2e"/><rect x="${x}" y="${800 - h + 24}" width="48" height="${h}" rx="18" fill="#120a2e"/>${arm}`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="800" viewBox="0 0 1600 800">
  <defs>
    <linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#1b1145"/><stop offset="0.55" stop-color="#4a2a9b"/><stop offset="1" stop-color="#e0609a"/></linearGradient>
    <radialGradient id="glow" cx="0.5" cy="0.78" r="0.55"><stop offset="0" stop-color="#ffb3d9" stop-opacity="0.75"/><stop offset="1" stop-color="#ffb3d9" stop-opacity="0"/></radialGradient>
  </defs>
  <rect width="1600" height="800" fill="url(#sky)"/>
  ${stars}
  <circle cx="1330" cy="150" r="62" fill="#fff4d6" opacity="0.92"/>
  <rect width="1600" height="800" fill="url(#glow)"/>
  ${beams}
  <text x="800" y="340" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-weight="bold" font-size="150" letter-spacing="6" fill="#ffffff">${esc(name.toUpperCase())}</text>
  <text x="800" y="420" text-anchor="middle" font-family="DejaVu Sans, Liberation Sans, Arial, sans-serif" font-size="44" letter-spacing="10" fill="#ffe3f1">${esc(subtitle.toUpperCase())}</text>
  ${crowd}
</svg>`;
}

/** Gives the demo event its cover (crops stored like an upload's). */
export async function seedDemoCover(tx: Tx, storage: Storage, opts: { tenantId: string; eventId: string }) {
  const crops = await makeCoverCrops(Buffer.from(demoCoverSvg('Summer Jam', 'Live at Riverside Park')), { trusted: true });
  const coverImageId = await storeCoverCrops(storage, { tenantId: opts.tenantId, eventId: opts.eventId, crops });
  await tx.update(events).set({ coverImageId }).where(and(eq(events.tenantId, opts.tenantId), eq(events.id, opts.eventId)));
  return { coverImageId };
}

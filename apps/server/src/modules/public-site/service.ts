import {
  isEventPublic,
  isSoldOn,
  M,
  type TPublicEventList,
  type TPublicEventSummary,
  isTicketTypeAvailable,
  type TBreakdown,
  type TPublicCharity,
  type TCartValidation,
  type TPublicEvent,
  type TPublicEventSettings,
  type TPublicTicketType,
} from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { SiteCtx } from '../../platform/auth/context.js';
import { AppError, DomainError, notFound } from '../../platform/errors.js';
import * as eventsRepo from '../events/repository.js';
import { findTenant } from '../tenants/repository.js';
import { cleanDescription, seatMapPath } from '../events/event-view.js';
import { COVER_CROPS, coverPaths, coverStorageKey, parseCoverFile } from '../events/cover-image.js';
import { checkCart, remainingCapacityOf, toCartTicketType } from '../checkout/cart.js';
import { priceLines, pricingConfigOf, quoteCart, type PricingConfig } from '../checkout/pricing.js';
import { findCheckoutSnapshot } from '../checkout/repository.js';
import type * as ticketTypesRepo from '../ticket-types/repository.js';
import { forget } from './fast-path.js';
import { listUpcomingPublishedEvents, seriesUrlNameOf } from './repository.js';
import { isWaitlistOn } from '../waitlist/join-waitlist.js';
import { eventSeatingVersion } from '../seating/repository.js';
import { createSnapshotCache, type Published, type SnapshotCache } from './snapshots.js';

// The attendee site's reads (spec reports-payouts-checkout §2 attendee routes, §7). The tenant is
// the one whose host served the request; the platform host has no event site.

/**
 * An event of this host's tenant that the public may see, with its ticket types, fees and (asked-for)
 * discount code, in one read: a published event, or a cancelled one that was published before (its
 * page says it is cancelled). A draft, or an event cancelled before it was ever published, is not found.
 */
async function publicEvent(deps: Deps, site: SiteCtx, eventName: string, discountCode: string | null = null) {
  const snapshot = await findCheckoutSnapshot(deps.db, { tenantId: site.tenant.id, urlName: eventName.toLowerCase(), discountCode });
  if (!snapshot || !isEventPublic(snapshot.event)) throw notFound();
  return snapshot;
}

/** A draft for its staff (preview), else what the public may see; nobody else learns a draft exists. */
async function previewableEvent(deps: Deps, site: SiteCtx, eventName: string, canPreview: (eventId: string) => boolean) {
  const snapshot = await findCheckoutSnapshot(deps.db, { tenantId: site.tenant.id, urlName: eventName.toLowerCase(), discountCode: null });
  if (!snapshot) throw notFound();
  if (isEventPublic(snapshot.event)) return snapshot;
  if (snapshot.event.status !== 'draft' || !canPreview(snapshot.event.id)) throw notFound();
  return snapshot;
}

/** An event on sale. A cancelled one the public saw is 409 'no longer on sale' (what a buyer mid-checkout is told). */
async function publishedEvent(deps: Deps, site: SiteCtx, eventName: string, discountCode: string | null = null) {
  const snapshot = await publicEvent(deps, site, eventName, discountCode);
  if (snapshot.event.status !== 'published') throw new DomainError('EVENT_NOT_ON_SALE', M.eventNotOnSale);
  return snapshot;
}

function toSettings(
  event: eventsRepo.EventRow,
  types: ticketTypesRepo.TicketTypeRow[],
  charity: TPublicCharity | null,
  autoShowActiveTicketsAsSoldOut: boolean,
): TPublicEventSettings {
  const onSale = event.status === 'published';
  return {
    // A cancelled event sells nothing and takes no donations.
    remainingCapacity: onSale ? remainingCapacityOf(event, types) : 0,
    emailDeliveryVerbiage: event.emailDeliveryVerbiage,
    covidSafety: event.covidSafetyEnabled,
    covidSafetyText: event.covidSafetyText,
    timeZone: event.timeZone,
    seatMap: seatMapPath(event),
    charity: onSale ? charity : null,
    autoShowActiveTicketsAsSoldOut,
  };
}

/**
 * One ticket's all-in price (issue 15): the order total the pricing function gives for a cart of
 * just that ticket online, without discount or donation; so what the buyer first sees is what they pay.
 */
export function allInPriceOf(config: PricingConfig, t: Pick<ticketTypesRepo.TicketTypeRow, 'id' | 'name' | 'price'>): number {
  return priceLines(config, [{ ticketTypeId: t.id, ticketName: t.name, unitPrice: t.price, quantity: 1 }], undefined, 0).totalAmount;
}

function toPublicTicketType(t: ticketTypesRepo.TicketTypeRow, all: ticketTypesRepo.TicketTypeRow[], now: Date, config: PricingConfig): TPublicTicketType {
  return {
    id: t.id,
    details: {
      name: t.name,
      details: t.description,
      price: t.price,
      remainingQuantity: t.remaining,
      minTicketPerOrder: t.minPerOrder,
      maxTicketPerOrder: t.maxPerOrder,
      salesAvailability: t.salesAvailability,
      startDate: t.startDate,
      startTime: t.startTime,
      endDate: t.endDate,
      endTime: t.endTime,
      salesStartAt: t.salesStartAt?.toISOString() ?? null,
      salesEndAt: t.salesEndAt?.toISOString() ?? null,
      otherTicketTypeId: t.otherTicketTypeId,
      sortOrder: t.sortOrder,
      sk: t.id,
      available: isTicketTypeAvailable(toCartTicketType(t), all.map(toCartTicketType), now),
      allInPrice: allInPriceOf(config, t),
    },
  };
}

/**
 * Event home and ticket menu: a published event of this host's tenant with its ticket types on offer,
 * or a cancelled one that was published, with status 'cancelled' and nothing on offer.
 */
export async function getPublicEvent({
  deps,
  site,
  eventName,
  canPreview,
}: {
  deps: Deps;
  site: SiteCtx;
  eventName: string;
  /** Issue 15 draft preview: set when the page asks for ?preview=1; true for the event's staff. */
  canPreview?: (eventId: string) => boolean;
}): Promise<TPublicEvent> {
  const { event, types, charity, pricing } = canPreview ? await previewableEvent(deps, site, eventName, canPreview) : await publicEvent(deps, site, eventName);
  const now = new Date();
  const preview = event.status === 'draft';
  const config = pricingConfigOf(event.tenantId, pricing);
  const onSale = event.status === 'published' || preview;
  return {
    id: event.id,
    tenantId: event.tenantId,
    details: {
      name: event.name,
      urlName: event.urlName,
      status: preview ? 'draft' : onSale ? 'published' : 'cancelled',
      // Sanitised again on the way out: descriptions stored before issue 15 were never cleaned.
      description: cleanDescription(event.description),
      startDateTime: event.startDateTime?.toISOString() ?? null,
      endDateTime: event.endDateTime?.toISOString() ?? null,
      timeZone: event.timeZone,
      venueName: event.venueName,
      address1: event.address1,
      city: event.city,
      state: event.state,
      zip: event.zip,
      country: event.country,
      covidSafety: event.covidSafetyEnabled,
      covidSafetyText: event.covidSafetyText,
      seatMap: seatMapPath(event),
      ...coverPaths(event),
      // Issue 15: the cancelled page tells buyers whom to write to.
      contactEmail: onSale ? null : ((await findTenant(deps.db, site.tenant.id))?.email ?? null),
      // Issue 24: a sold-out ticket type offers the waiting list only when the organiser keeps one.
      waitlist: event.status === 'published' && (await isWaitlistOn(deps.db, event.tenantId, event.id)),
      // Issue 28: a date of a series links back to the series' page ("All dates").
      seriesUrlName: await seriesUrlNameOf(deps.db, event.tenantId, event.seriesId),
      // Issue 27 (paint): a seated event's ticket menu shows its map's preview from the first paint.
      seating: await seatingOf(deps, event.tenantId, event.id),
    },
    // Ticket types switched off by the organiser are not on the menu; every other one is, with its availability.
    ticketTypes: onSale ? types.filter((t) => t.active && isSoldOn(t.soldAt, 'online')).map((t) => toPublicTicketType(t, types, now, config)) : [],
    settings: toSettings(event, types, charity, pricing?.settings.autoShowActiveTicketsAsSoldOut ?? false),
  };
}

async function seatingOf(deps: Deps, tenantId: string, eventId: string): Promise<{ version: string } | null> {
  const version = await eventSeatingVersion(deps.db, tenantId, eventId);
  return version === null ? null : { version };
}

const publicEventCaches = new WeakMap<Deps['db'], SnapshotCache<TPublicEvent>>();

function publicEventCache(deps: Deps): SnapshotCache<TPublicEvent> {
  let cache = publicEventCaches.get(deps.db);
  if (!cache) publicEventCaches.set(deps.db, (cache = createSnapshotCache<TPublicEvent>(deps.config.publicSnapshotMs)));
  return cache;
}

/**
 * The public event from this node's snapshot (docs/operations.md "Public reads"): rebuilt at most
 * once per PUBLIC_SNAPSHOT_MS per event, and at once after a change made through this node. Orders
 * never read it: a hold checks and takes seats in the database.
 */
export async function servePublicEvent({ deps, site, eventName }: { deps: Deps; site: SiteCtx; eventName: string }): Promise<Published<TPublicEvent>> {
  const urlName = eventName.toLowerCase();
  const snap = await publicEventCache(deps).get(`${site.tenant.id}/${urlName}`, () =>
    getPublicEvent({ deps, site, eventName: urlName }).catch((err: unknown) => {
      if (err instanceof AppError && err.status === 404) return null;
      throw err;
    }),
  );
  if (!snap) throw notFound();
  snapshotKeyOf(deps, snap.value.id, `${site.tenant.id}/${urlName}`);
  return snap;
}

// Issue 26 reads: a sold-out shows at once. A hold only moves remaining counts, which a snapshot may
// show up to its age late; but once the tickets held through this node since an event's snapshot was
// read reach what that snapshot shows as left (of a ticket type, or of the event's capacity), the
// snapshot is expired, so the next read shows what is left now (sold out). Holds through other
// nodes are not counted here: there it shows within the snapshot's age.
const snapshotKeys = new WeakMap<Deps['db'], Map<string, string>>();
const heldSince = new WeakMap<object, { total: number; byType: Map<string, number> }>();

function snapshotKeyOf(deps: Deps, eventId: string, key?: string): string | undefined {
  let keys = snapshotKeys.get(deps.db);
  if (!keys) snapshotKeys.set(deps.db, (keys = new Map()));
  if (key === undefined) return keys.get(eventId);
  if (keys.size > 10_000) keys.clear();
  keys.set(eventId, key);
  return key;
}

/** Tickets were held through this node (PLACE ORDER, the checkout's hold): expires the event's snapshot when it would now show tickets that are gone. */
export function noteHeld(deps: Deps, held: { tenantId: string; eventId: string; lines: ReadonlyArray<{ ticketTypeId: string; quantity: number }> }) {
  const key = snapshotKeyOf(deps, held.eventId);
  const snap = key === undefined ? undefined : publicEventCaches.get(deps.db)?.peek(key);
  if (!snap || snap.value.id !== held.eventId || snap.value.tenantId !== held.tenantId) return;
  let since = heldSince.get(snap);
  if (!since) heldSince.set(snap, (since = { total: 0, byType: new Map() }));
  let goneNow = false;
  for (const line of held.lines) {
    if (!(line.quantity > 0)) continue;
    since.total += line.quantity;
    const taken = (since.byType.get(line.ticketTypeId) ?? 0) + line.quantity;
    since.byType.set(line.ticketTypeId, taken);
    const shown = snap.value.ticketTypes.find((t) => t.id === line.ticketTypeId)?.details.remainingQuantity;
    if (shown !== undefined && shown > 0 && taken >= shown) goneNow = true;
  }
  const capacity = snap.value.settings.remainingCapacity;
  if (capacity > 0 && since.total >= capacity) goneNow = true;
  if (goneNow) expirePublicSnapshots(deps, { tenantId: held.tenantId, eventId: held.eventId });
}

/** What a change touched: one event of a tenant, every event of a tenant, or everything (platform fees, charities). */
export type SnapshotScope = { tenantId: string; eventId?: string } | 'all';

/**
 * A change went through this node: the next read of the events it touched reads the database again.
 * An event's scope also takes the tenant's remembered not-founds (a rename or a publish makes a name exist).
 */
export function expirePublicSnapshots(deps: Deps, scope: SnapshotScope) {
  forget(deps, scope === 'all' ? 'all' : scope.tenantId);
  const cache = publicEventCaches.get(deps.db);
  if (!cache) return;
  if (scope === 'all') return cache.expire();
  const prefix = `${scope.tenantId}/`;
  const { eventId } = scope;
  cache.expire((key, snap) => key.startsWith(prefix) && (!eventId || !snap || snap.value.id === eventId));
}

/**
 * The organiser's upcoming events on sale, soonest first (at most 100, one page: no cursor), each
 * from its public snapshot, so the list costs one query and the snapshots the event pages share.
 */
export async function listUpcomingEvents({ deps, site }: { deps: Deps; site: SiteCtx }): Promise<TPublicEventList> {
  const rows = await listUpcomingPublishedEvents(deps.db, site.tenant.id, new Date());
  const result: TPublicEventSummary[] = [];
  for (const row of rows) {
    const snap = await servePublicEvent({ deps, site, eventName: row.urlName }).catch((err: unknown) => {
      if (err instanceof AppError && err.status === 404) return null;
      throw err;
    });
    if (!snap) continue;
    const { details: d, ticketTypes } = snap.value;
    const prices = ticketTypes.filter((t) => t.details.available && t.details.remainingQuantity > 0).map((t) => t.details.allInPrice);
    const cover = (d as { coverImageUrl?: unknown }).coverImageUrl;
    result.push({
      urlName: d.urlName,
      name: d.name,
      startDateTime: d.startDateTime,
      timeZone: d.timeZone,
      venueName: d.venueName,
      city: d.city,
      status: d.status === 'cancelled' ? 'cancelled' : 'published',
      priceFrom: prices.length ? Math.min(...prices) : null,
      coverImageUrl: typeof cover === 'string' && cover ? cover : null,
    });
  }
  return { result, count: result.length, cursor: null };
}

/** spec §7 GET /p/tenants/{tenantId}/events/{eventId}/setting */
export async function getPublicSettings(opts: { deps: Deps; site: SiteCtx; eventId: string }): Promise<TPublicEventSettings> {
  const { deps, site } = opts;
  const snapshot = await findCheckoutSnapshot(deps.db, { tenantId: site.tenant.id, eventId: opts.eventId });
  if (!snapshot || !isEventPublic(snapshot.event)) throw notFound();
  return toSettings(snapshot.event, snapshot.types, snapshot.charity, snapshot.pricing?.settings.autoShowActiveTicketsAsSoldOut ?? false);
}

/** spec §5 Cart validation, against what is left right now. */
export async function validatePublicCart(opts: {
  deps: Deps;
  site: SiteCtx;
  eventName: string;
  lines: Array<{ ticketTypeId: string; quantity: number }>;
}): Promise<TCartValidation> {
  const { event, types } = await publishedEvent(opts.deps, opts.site, opts.eventName);
  return checkCart(event, types, opts.lines, new Date());
}

/**
 * The cart's breakdown (spec §3), priced by the server from stored prices and the tenant's fees,
 * with the donation to the event's charity (refused, 400, when the event has none).
 */
export async function priceCart(opts: {
  deps: Deps;
  site: SiteCtx;
  eventName: string;
  lines: Array<{ ticketTypeId: string; quantity: number }>;
  discountCode: string | null | undefined;
  donation: number;
}): Promise<TBreakdown> {
  const { deps } = opts;
  const snapshot = await publishedEvent(deps, opts.site, opts.eventName, opts.discountCode ?? null);
  const quote = quoteCart(snapshot, { lines: opts.lines, discountCode: opts.discountCode, donation: opts.donation, donationField: 'donation', now: new Date() });
  return quote.breakdown;
}

const SEATMAP_FILE_RE = /^seatmap\.(png|jpg|jpeg|gif)$/;

/**
 * GET {event site}/{eventName}/assets/seatmap.{png|jpg|jpeg|gif} (spec §7): the web probes the four
 * names in that order, so only the stored one answers; .jpg and .jpeg both name a JPEG.
 */
export async function getSeatMapImage(opts: { deps: Deps; site: SiteCtx; eventName: string; file: string; canPreview?: (eventId: string) => boolean }) {
  const { deps } = opts;
  const match = SEATMAP_FILE_RE.exec(opts.file);
  if (!match) return null;
  const event = await eventsRepo.findEventByUrlName(deps.db, opts.site.tenant.id, opts.eventName.toLowerCase());
  if (!event || !event.seatmapKey) return null;
  // Not on sale (a draft, a cancelled event): shown to its staff (console, preview), to nobody else.
  const previewing = event.status !== 'published' && !!opts.canPreview?.(event.id);
  if (event.status !== 'published' && !previewing) return null;
  const stored = event.seatmapKey.slice(event.seatmapKey.lastIndexOf('.') + 1);
  const asked = match[1] === 'jpeg' ? 'jpg' : match[1];
  if (stored !== asked) return null;
  const object = await deps.storage.get(event.seatmapKey);
  return object ? { ...object, previewing } : null;
}

/**
 * GET {event site}/{eventName}/assets/cover-{id}-{crop} (issue 15): the cover's crops, public while
 * the event's page is (a cancelled event that was published keeps its hero); otherwise (a draft, a
 * cancelled event never published) to its staff only, for the console's preview.
 * An id names one upload's bytes for good, so the public may cache them for good.
 */
export async function getCoverImage(opts: { deps: Deps; site: SiteCtx; eventName: string; file: string; canPreview?: (eventId: string) => boolean }) {
  const { deps } = opts;
  const asked = parseCoverFile(opts.file);
  if (!asked) return null;
  const event = await eventsRepo.findEventByUrlName(deps.db, opts.site.tenant.id, opts.eventName.toLowerCase());
  if (!event || event.coverImageId !== asked.coverImageId) return null;
  const previewing = !isEventPublic(event) && !!opts.canPreview?.(event.id);
  if (!isEventPublic(event) && !previewing) return null;
  const object = await deps.storage.get(coverStorageKey(event.tenantId, event.id, asked.coverImageId, asked.crop));
  if (!object) return null;
  return { bytes: object.bytes, contentType: COVER_CROPS[asked.crop].contentType, previewing };
}

/** Until when (performance.now() clock) an answer made from this snapshot may be repeated: its own expiry. */
export function snapshotUntil(deps: Deps, snap: Published<TPublicEvent>): number {
  return (snap.loadedAt ?? -Infinity) + deps.config.publicSnapshotMs;
}

import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { AppleWalletConfig } from '../../config.js';
import type { Deps } from '../../deps.js';
import { applePassRegistrations, orders, tickets } from '../../db/schema/index.js';
import { AppError, notFound } from '../../platform/errors.js';
import { applePassContent, buildApplePass } from '../wallet/apple-pass.js';
import { sendApplePushes } from '../wallet/apple-push.js';
import type { WalletTicket } from '../wallet/wallet-ticket.js';
import { isApplePassAuthorized } from './apple-pass-auth.js';
import { walletTicketOf, withAppleWebService } from './wallet-passes.js';

// Issue 28: Apple's pass web service, so that a pass already in Wallet shows a moved date, a
// cancelled event, a ticket passed on or voided (docs/wallet.md). Wallet registers the device for
// a pass, asks which of its passes changed since a tag, fetches the latest pass, unregisters, and
// logs its errors. A pass "changed" when what it shows (its pass.json, barcode and images) differs
// from the last version recorded: apple_pass_versions keeps a digest of it and when it last changed.

/** The web service's failures Wallet tells apart: 401 (not this pass's token) and 404. */
const unauthorized = () => new AppError('UNAUTHENTICATED', 'Not this pass.');

function appleConfig(deps: Deps): AppleWalletConfig {
  const config = deps.config.wallet.apple;
  if (!config) throw notFound();
  return config;
}

/** The pass of a serial number (a ticket's uid) of this tenant, as it is now; null: no such ticket. */
async function currentPass(deps: Deps, tenantId: string, serialNumber: string): Promise<WalletTicket | null> {
  const [row] = await deps.db
    .select({ order: { id: orders.id, tenantId: orders.tenantId, eventId: orders.eventId, orderUid: orders.orderUid, status: orders.status } })
    .from(tickets)
    .innerJoin(orders, and(eq(orders.tenantId, tickets.tenantId), eq(orders.id, tickets.orderId)))
    .where(and(eq(tickets.tenantId, tenantId), eq(tickets.ticketUid, serialNumber)))
    .limit(1);
  if (!row) return null;
  const found = await walletTicketOf(deps, row.order, (t) => t.ticketUid === serialNumber);
  return found ? withAppleWebService(deps, tenantId, found) : null;
}

/**
 * Records what the pass shows now; its updated_at moves only when that differs from the version
 * recorded (one statement). Returns when the pass last changed and whether it just did.
 */
async function recordVersion(deps: Deps, config: AppleWalletConfig, tenantId: string, pass: WalletTicket): Promise<{ updatedAt: Date; changed: boolean }> {
  const digest = createHash('sha256').update(applePassContent(config, pass)).digest('base64url');
  const rows = (await deps.db.execute(sql`
    with before as (select digest from apple_pass_versions where tenant_id = ${tenantId}::uuid and serial_number = ${pass.ticketUid}),
    saved as (
      insert into apple_pass_versions (tenant_id, serial_number, digest, updated_at)
      values (${tenantId}::uuid, ${pass.ticketUid}, ${digest}, clock_timestamp())
      on conflict (tenant_id, serial_number) do update
        set digest = excluded.digest,
            updated_at = case when apple_pass_versions.digest = excluded.digest then apple_pass_versions.updated_at else excluded.updated_at end
      returning updated_at
    )
    select saved.updated_at, (select digest from before) is distinct from ${digest} as changed from saved`)) as unknown as { rows: Array<{ updated_at: Date | string; changed: boolean }> };
  const row = rows.rows[0]!;
  return { updatedAt: new Date(row.updated_at), changed: row.changed };
}

type PassAddress = { deps: Deps; tenantId: string; passTypeId: string; serialNumber: string; authorization: string | undefined };

/** The pass named in the address, when the request carries its token: 404 for another pass type, 401 for a wrong token. */
async function authorisedPass(o: PassAddress): Promise<{ config: AppleWalletConfig; pass: WalletTicket }> {
  const config = appleConfig(o.deps);
  if (o.passTypeId !== config.passTypeId) throw notFound();
  if (!isApplePassAuthorized(o.deps.config.secret, o.tenantId, o.serialNumber, o.authorization)) throw unauthorized();
  const pass = await currentPass(o.deps, o.tenantId, o.serialNumber);
  if (!pass) throw unauthorized();
  return { config, pass };
}

/** POST /v1/devices/{device}/registrations/{passType}/{serial}: 'created' (201) or 'exists' (200, its push token refreshed). */
export async function registerAppleDevice(o: PassAddress & { deviceLibraryId: string; pushToken: string }): Promise<'created' | 'exists'> {
  const { config, pass } = await authorisedPass(o);
  await recordVersion(o.deps, config, o.tenantId, pass);
  const inserted = await o.deps.db
    .insert(applePassRegistrations)
    .values({ tenantId: o.tenantId, deviceLibraryId: o.deviceLibraryId, passTypeId: o.passTypeId, serialNumber: o.serialNumber, eventId: pass.eventId, pushToken: o.pushToken })
    .onConflictDoUpdate({
      target: [applePassRegistrations.tenantId, applePassRegistrations.deviceLibraryId, applePassRegistrations.passTypeId, applePassRegistrations.serialNumber],
      set: { pushToken: o.pushToken },
    })
    .returning({ created: sql<boolean>`xmax = 0` });
  return inserted[0]?.created ? 'created' : 'exists';
}

/** DELETE /v1/devices/{device}/registrations/{passType}/{serial}. */
export async function unregisterAppleDevice(o: PassAddress & { deviceLibraryId: string }): Promise<void> {
  await authorisedPass(o);
  await o.deps.db
    .delete(applePassRegistrations)
    .where(
      and(
        eq(applePassRegistrations.tenantId, o.tenantId),
        eq(applePassRegistrations.deviceLibraryId, o.deviceLibraryId),
        eq(applePassRegistrations.passTypeId, o.passTypeId),
        eq(applePassRegistrations.serialNumber, o.serialNumber),
      ),
    );
}

/**
 * GET /v1/devices/{device}/registrations/{passType}?passesUpdatedSince={tag}: the device's passes
 * that changed after the tag (all of them without one), and the new tag; null (204) when none.
 * Each pass is checked against what it shows now, so a change is found whichever way it was made.
 */
export async function updatedApplePasses(o: { deps: Deps; tenantId: string; deviceLibraryId: string; passTypeId: string; since: string | undefined }): Promise<{ serialNumbers: string[]; lastUpdated: string } | null> {
  const config = appleConfig(o.deps);
  if (o.passTypeId !== config.passTypeId) throw notFound();
  const since = o.since && /^\d{1,15}$/.test(o.since) ? Number(o.since) : null;
  const registered = await o.deps.db
    .select({ serialNumber: applePassRegistrations.serialNumber })
    .from(applePassRegistrations)
    .where(and(eq(applePassRegistrations.tenantId, o.tenantId), eq(applePassRegistrations.deviceLibraryId, o.deviceLibraryId), eq(applePassRegistrations.passTypeId, o.passTypeId)));
  if (!registered.length) return null;
  const serialNumbers: string[] = [];
  let last = since ?? 0;
  for (const { serialNumber } of registered) {
    const pass = await currentPass(o.deps, o.tenantId, serialNumber);
    if (!pass) continue;
    const { updatedAt } = await recordVersion(o.deps, config, o.tenantId, pass);
    if (since === null || updatedAt.getTime() > since) serialNumbers.push(serialNumber);
    last = Math.max(last, updatedAt.getTime());
  }
  return serialNumbers.length ? { serialNumbers: serialNumbers.sort(), lastUpdated: String(last) } : null;
}

/** GET /v1/passes/{passType}/{serial}: the latest pass, or 'not-modified' (304) when it has not changed since If-Modified-Since. */
export async function latestApplePass(o: PassAddress & { ifModifiedSince: string | undefined }): Promise<{ bytes: Buffer; lastModified: Date } | 'not-modified'> {
  const { config, pass } = await authorisedPass(o);
  const { updatedAt } = await recordVersion(o.deps, config, o.tenantId, pass);
  const since = o.ifModifiedSince ? Date.parse(o.ifModifiedSince) : Number.NaN;
  if (Number.isFinite(since) && Math.floor(updatedAt.getTime() / 1000) <= Math.floor(since / 1000)) return 'not-modified';
  return { bytes: await buildApplePass(config, pass), lastModified: updatedAt };
}

/**
 * The job behind a change (APPLE_PASS_UPDATE_JOB): the registered passes of the event (or of one
 * ticket) that now show something else get a push to each device that holds them, which makes
 * Wallet ask for the update. Returns the push tokens told.
 */
export async function notifyApplePassUpdates(deps: Deps, payload: { tenantId: string; eventId: string }): Promise<string[]> {
  const config = deps.config.wallet.apple;
  if (!config) return [];
  const registrations = await deps.db
    .select({ serialNumber: applePassRegistrations.serialNumber, pushToken: applePassRegistrations.pushToken })
    .from(applePassRegistrations)
    .where(and(eq(applePassRegistrations.tenantId, payload.tenantId), eq(applePassRegistrations.eventId, payload.eventId), eq(applePassRegistrations.passTypeId, config.passTypeId)));
  const changed: string[] = [];
  for (const serialNumber of [...new Set(registrations.map((r) => r.serialNumber))]) {
    const pass = await currentPass(deps, payload.tenantId, serialNumber);
    if (pass && (await recordVersion(deps, config, payload.tenantId, pass)).changed) changed.push(serialNumber);
  }
  const tokens = [...new Set(registrations.filter((r) => changed.includes(r.serialNumber)).map((r) => r.pushToken))];
  if (tokens.length) await sendApplePushes(config, tokens, deps.log);
  return tokens;
}


import { randomUUID } from 'node:crypto';
import {
  CHECKIN_SEARCH_MAX,
  M,
  type CheckinScanResult,
  type CheckinTicketState,
  type TCheckinCounters,
  type TCheckinManifest,
  type TCheckinPrevious,
  type TCheckinScanAnswer,
  type TCheckinScanRequest,
  type TCheckinSearchResponse,
  type TCheckinSyncRequest,
  type TCheckinTicket,
  type TCheckinUndoResponse,
} from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { UUID_RE, type DeferredGuard, type GuardStatementParams } from '../../platform/auth/guard.js';
import { isRetryableConflict, isUniqueViolation } from '../../platform/db-errors.js';
import { AppError, conflict, DomainError, notFound } from '../../platform/errors.js';
import type { DbOrTx } from '../../db/client.js';
import * as repo from './repository.js';
import { checkinKeys, readTicketCodeOffThread, type ReadTicketCode } from './ticket-code.js';

// Door check-in (issue 11). Every scan is answered (admitted or why not) and recorded; a ticket is
// admitted once, by one conditional UPDATE; a device's scan id makes a retry answer the first answer.

type Scope = { deps: Deps; ctx: TenantCtx; eventId: string };

/** Another tenant's event, or none: 404 like every tenant resource (architecture rule 1). */
async function assertEvent({ deps, ctx, eventId }: Scope) {
  if (!UUID_RE.test(eventId) || !(await repo.eventExists(deps.db, ctx.tenantId, eventId))) throw notFound();
}

/** Who admitted a ticket, as the door shows it (SQL twin: the refusal's `previous` in repository.ts doorScanSql). */
const personName = (first: string | null, last: string | null, email: string | null) => `${first ?? ''} ${last ?? ''}`.trim() || email || '';

/** The door state of a ticket. Its SQL twin is the refusal in repository.ts doorScanSql (a scan's refusal is recorded there): change both. */
function stateOf(t: repo.DoorTicketRow): CheckinTicketState {
  if (t.voided) return t.refunded ? 'refunded' : 'voided';
  // Tickets exist only once an order is paid; one whose order is not (any more) paid does not admit.
  if (!t.paid) return 'voided';
  return t.used ? 'used' : 'valid';
}

export function toCheckinTicket(t: repo.DoorTicketRow): TCheckinTicket {
  return {
    id: t.id,
    ticketUid: t.ticketUid,
    orderId: t.orderUid,
    fullName: t.fullName,
    email: t.email,
    ticketTypeId: t.ticketTypeId,
    ticketTypeName: t.ticketTypeName,
    seat: t.seatLabel,
    state: stateOf(t),
    usedAt: t.used && t.usedAt ? t.usedAt.toISOString() : null,
    usedBy: t.used && t.usedByDevice ? { deviceId: t.usedByDevice, name: personName(t.usedByFirstName, t.usedByLastName, t.usedByEmail) } : null,
  };
}

// ---- reading ------------------------------------------------------------------------------------

export async function getManifest(scope: Scope): Promise<TCheckinManifest> {
  await assertEvent(scope);
  const { deps, ctx, eventId } = scope;
  const generatedAt = new Date().toISOString();
  const [tickets, types, revoked] = await Promise.all([
    repo.manifestTickets(deps.db, ctx.tenantId, eventId),
    repo.doorCounts(deps.db, ctx.tenantId, eventId),
    repo.transferredUids(deps.db, ctx.tenantId, eventId),
  ]);
  return {
    eventId,
    publicKey: checkinKeys(deps.config.secret).publicKeyRaw,
    generatedAt,
    tickets: tickets.map(toCheckinTicket),
    ticketTypes: types,
    // Issue 24: old codes of transferred tickets, so that a device answers "transferred" offline too.
    revoked: revoked.map((r) => ({ ticketUid: r.ticketUid, reason: 'transferred' as const, at: r.at.toISOString() })),
  };
}

export async function getCounters(scope: Scope): Promise<TCheckinCounters> {
  await assertEvent(scope);
  const types = await repo.doorCounts(scope.deps.db, scope.ctx.tenantId, scope.eventId);
  return {
    checkedIn: types.reduce((s, t) => s + t.checkedIn, 0),
    sold: types.reduce((s, t) => s + t.sold, 0),
    byType: types.map((t) => ({ ticketTypeId: t.id, name: t.name, checkedIn: t.checkedIn, sold: t.sold })),
  };
}

export async function searchTickets(scope: Scope & { q: string }): Promise<TCheckinSearchResponse> {
  await assertEvent(scope);
  const { rows, total } = await repo.searchDoorTickets(scope.deps.db, scope.ctx.tenantId, scope.eventId, scope.q, CHECKIN_SEARCH_MAX);
  return { result: rows.map(toCheckinTicket), count: total };
}

// ---- scanning -----------------------------------------------------------------------------------

type ScanInput = { clientScanId: string; deviceId: string; code?: string; ticketId?: string; scannedAt?: string };

function assertOneRef(input: { code?: string; ticketId?: string }, field = '') {
  if ((input.code === undefined) === (input.ticketId === undefined)) {
    const key = field ? `${field}.code` : 'code';
    throw new AppError('VALIDATION', M.checkinCodeOrTicket, { [key]: M.checkinCodeOrTicket });
  }
}

/** Why a scan names no ticket of the event it is made at (and, when a transfer took it, which ticket it was). */
type Resolved = { result: Exclude<CheckinScanResult, 'admitted' | 'already_used'>; ticket: null; ticketId?: string };

/** A Ticket ID no ticket has: one a transfer took away from this event's ticket answers transferred (issue 24). */
async function notAnyMore(deps: Deps, tenantId: string, eventId: string, uid: string): Promise<Resolved> {
  const moved = await repo.findTransferredUid(deps.db, tenantId, uid);
  if (!moved) return { result: 'unknown', ticket: null };
  return moved.eventId === eventId ? { result: 'transferred', ticket: null, ticketId: moved.ticketId } : { result: 'other_event', ticket: null };
}

/**
 * How a scan names its ticket: a code must be ours and for this event (its Ticket ID, to be admitted
 * only while the ticket still has it: issue 24); a typed id is a uuid or a Ticket ID. Or, before any
 * read, why it names none.
 */
type Ref = { by: 'uid' | 'id'; ref: string; uid?: string } | { result: 'forged' | 'other_event'; ticket: null };

function refOf(deps: Deps, eventId: string, input: ScanInput): Ref | Promise<Ref> {
  if (input.code !== undefined) {
    // A code not seen on this node yet has its signature checked on libuv's thread pool (issue 26, scan4).
    const read = readTicketCodeOffThread(deps.config.secret, input.code);
    return read instanceof Promise ? read.then((r) => refOfCode(r, eventId)) : refOfCode(read, eventId);
  }
  const ref = input.ticketId!;
  return UUID_RE.test(ref) ? { by: 'id', ref: ref.toLowerCase() } : { by: 'uid', ref: ref.toUpperCase() };
}

function refOfCode(read: ReadTicketCode, eventId: string): Ref {
  if (!read.ok) return { result: 'forged', ticket: null };
  // Signed by us, but for another event (perhaps another tenant's): nothing of it is shown.
  if (read.eventId !== eventId) return { result: 'other_event', ticket: null };
  return { by: 'uid', ref: read.ticketUid, uid: read.ticketUid };
}

async function replay(deps: Deps, ctx: TenantCtx, eventId: string, clientScanId: string): Promise<TCheckinScanAnswer> {
  const scan = await repo.findScanByClientId(deps.db, ctx.tenantId, clientScanId);
  if (!scan) throw new Error(`scan ${clientScanId} reported recorded but not found`);
  if (scan.eventId !== eventId || scan.kind !== 'admit') throw conflict(M.checkinScanIdReused);
  // A transferred answer names no ticket: the ticket is its new holder's now.
  const ticket = scan.ticketId && scan.result !== 'transferred' ? await repo.findDoorTicket(deps.db, ctx.tenantId, { id: scan.ticketId }) : null;
  const details = scan.details ? (JSON.parse(scan.details) as { previous?: TCheckinPrevious }) : {};
  return {
    scanId: scan.id,
    clientScanId,
    result: scan.result as CheckinScanResult,
    ticket: ticket ? toCheckinTicket(ticket) : null,
    previous: details.previous ?? null,
  };
}

/**
 * One scan or manual check-in, answered and recorded; the same clientScanId again answers the same.
 * The ticket's read and its admission are one statement (repository scanDoorTicket); a refusal
 * records the answer. Either write finding the clientScanId recorded answers the recorded scan.
 */
async function scan(deps: Deps, scanner: Scanner, eventId: string, input: ScanInput, known?: Ref): Promise<TCheckinScanAnswer> {
  // The caller, once the guard has checked it: from the start, or from the scan's own statement.
  let ctx: TenantCtx | null = 'ctx' in scanner ? scanner.ctx : null;
  const tenantId = ctx ? ctx.tenantId : (scanner as GuardedScanner).params.tenantId;
  const scanId = randomUUID();
  const now = new Date();
  const scannedAt = input.scannedAt ? new Date(input.scannedAt) : now;
  const via = input.code !== undefined ? 'code' : 'ticketId';
  const answer = (result: CheckinScanResult, ticket: repo.DoorTicketRow | null, previous: TCheckinPrevious | null): TCheckinScanAnswer => ({
    scanId,
    clientScanId: input.clientScanId,
    result,
    ticket: ticket ? toCheckinTicket(ticket) : null,
    previous,
  });

  const ref = known ?? (await refOf(deps, eventId, input));
  let resolved: Resolved = 'result' in ref ? ref : { result: 'unknown', ticket: null };
  if (!('result' in ref)) {
    const values: repo.DoorScanParams = {
      tenantId,
      eventId,
      ref: ref.ref,
      uid: ref.uid ?? null,
      scanId,
      clientScanId: input.clientScanId,
      deviceId: input.deviceId,
      userId: ctx?.user.id ?? null,
      at: now.toISOString(),
      scannedAt: scannedAt.toISOString(),
      via,
      // The ticket.checked_in event (issue 25) the admission records in the same statement.
      eventRowId: randomUUID(),
    };
    let found: repo.DoorScan | null = null;
    for (let tries = 1; ; tries++) {
      try {
        // The read and, for a ticket of this event, its admission (with its record and event) or its
        // refusal's record: one statement, one round trip (bench/README.md "Door scans").
        if (ctx) found = await repo.scanDoorTicket(deps.db, ref.by, values);
        else {
          // With the request's session and the guard's check in it: nothing is read or written of the
          // door unless the check passes; the guard then finishes with the session it read, and refuses
          // (401, 403, 404, CSRF) exactly as it would have before the handler.
          const { guard, params } = scanner as GuardedScanner;
          const guarded = await repo.scanDoorTicketGuarded(deps.db, ref.by, values, params);
          ctx = await guard.complete(guarded.session, guarded.stale);
          values.userId = ctx.user.id;
          // The guard let in what the statement's copy of it did not (it is never more lenient): scan again, guarded.
          if (!guarded.allowed) continue;
          found = guarded.scan;
        }
      } catch (err) {
        // A statement that failed before the guard finished: finish it the ordinary way first.
        ctx ??= await (scanner as GuardedScanner).guard.run();
        values.userId = ctx.user.id;
        if (isUniqueViolation(err)) return replay(deps, ctx, eventId, input.clientScanId);
        // The admission takes the one lock order (its order, then the ticket), so it does not deadlock
        // with refunds and voids; a serialization failure or a deadlock with some path added later
        // loses the statement whole: run it again.
        if (isRetryableConflict(err) && tries < 3) continue;
        throw err;
      }
      // Valid as the statement began, yet not admitted: another door admitted (or an organiser voided)
      // it in the meantime: run it again on the ticket as it is now (a few times at most).
      if (found && found.ticket.eventId === eventId && !found.admitted && !found.refused && !found.known && stateOf(found.ticket) === 'valid' && tries < 5) continue;
      break;
    }
    ctx ??= await (scanner as GuardedScanner).guard.run();
    if (!found) resolved = ref.by === 'uid' ? await notAnyMore(deps, tenantId, eventId, ref.ref) : { result: 'unknown', ticket: null };
    // A code signed for this event naming another event's ticket is unknown; a typed id of another event is that.
    else if (found.ticket.eventId !== eventId) resolved = { result: input.code !== undefined ? 'unknown' : 'other_event', ticket: null };
    else if (found.admitted) {
      const mine = { ...found.ticket, used: true, usedAt: now, usedByDevice: input.deviceId, usedByScan: scanId, usedByFirstName: ctx.user.firstName, usedByLastName: ctx.user.lastName, usedByEmail: ctx.user.email };
      return answer('admitted', mine, null);
    } else if (found.refused) {
      const { previous } = JSON.parse(found.refused.details) as { previous?: TCheckinPrevious };
      return answer(found.refused.result, found.ticket, previous ?? null);
    }
    // Neither: this clientScanId is recorded already (a retry; or the ticket kept changing under the scan).
    else return replay(deps, ctx, eventId, input.clientScanId);
  }
  // A scan that names no ticket of this event: the event must be there (404 otherwise), and the refusal is recorded.
  ctx ??= await (scanner as GuardedScanner).guard.run();
  await assertEvent({ deps, ctx, eventId });

  const { result } = resolved;
  const recordTicketId = resolved.ticketId ?? null;
  const recorded = await repo.insertScan(deps.db, {
    tenantId,
    id: scanId,
    eventId,
    ticketId: recordTicketId,
    clientScanId: input.clientScanId,
    deviceId: input.deviceId,
    userId: ctx.user.id,
    kind: 'admit',
    result,
    scannedAt,
    recordedAt: now,
    details: JSON.stringify({ via }),
  });
  if (!recorded) return replay(deps, ctx, eventId, input.clientScanId);
  return answer(result, null, null);
}

export async function scanTicket(scope: Scope & { input: TCheckinScanRequest }): Promise<TCheckinScanAnswer> {
  // Another tenant's event is a 404 before any complaint about the body (scan checks it on its own path).
  if ((scope.input.code === undefined) === (scope.input.ticketId === undefined)) await assertEvent(scope);
  assertOneRef(scope.input);
  return scan(scope.deps, { ctx: scope.ctx }, scope.eventId, scope.input);
}

/** Who scans: the caller the guard checked, or a session the guard left to the scan's statement (its params). */
type GuardedScanner = { guard: DeferredGuard; params: GuardStatementParams };
type Scanner = { ctx: TenantCtx } | GuardedScanner;

/**
 * scanTicket for a request whose session the guard left to the route (`sessionInHandler`, issue 26):
 * a scan naming one ticket (a code signed for this event, or a typed id) reads the session, makes the
 * guard's check and scans in one statement (repository scanDoorTicketGuarded); anything else is
 * guarded the ordinary way first (`guard.run()`), then scanned as ever.
 */
export async function scanTicketGuarded(scope: { deps: Deps; guard: DeferredGuard; eventId: string; input: TCheckinScanRequest }): Promise<TCheckinScanAnswer> {
  const { deps, guard, eventId, input } = scope;
  const params = guard.inStatement;
  const ref = params && (input.code === undefined) !== (input.ticketId === undefined) ? await refOf(deps, eventId, input) : null;
  if (!params || !ref || 'result' in ref) return scanTicket({ deps, ctx: await guard.run(), eventId, input });
  return scan(deps, { guard, params }, eventId, input, ref);
}

/** A device's queue of offline scans, in the order it made them; each answered as if sent alone, in arrival order. */
export async function syncScans(scope: Scope & { input: TCheckinSyncRequest }): Promise<{ results: TCheckinScanAnswer[] }> {
  await assertEvent(scope);
  const { deviceId, scans } = scope.input;
  scans.forEach((s, i) => assertOneRef(s, `scans.${i}`));
  // A device's queue says who made each scan; the session must be that person (issue 21.13): a queue
  // left by one volunteer is never credited to whoever signs in next. Refused whole, before any write.
  if (scans.some((s) => s.scannedBy !== undefined && s.scannedBy.toLowerCase() !== scope.ctx.user.id)) {
    throw new DomainError('CHECKIN_SCANNED_BY_OTHER', M.checkinScannedByOther);
  }
  const results: TCheckinScanAnswer[] = [];
  for (const s of scans) results.push(await scan(scope.deps, { ctx: scope.ctx }, scope.eventId, { ...s, deviceId }));
  return { results };
}

/** Takes back an admission (the wrong person waved through); recorded like the admission was. */
export async function undoScan(scope: Scope & { scanId: string; deviceId: string }): Promise<TCheckinUndoResponse> {
  await assertEvent(scope);
  const { deps, ctx, eventId, scanId } = scope;
  const admission = UUID_RE.test(scanId) ? await repo.findScan(deps.db, ctx.tenantId, eventId, scanId.toLowerCase()) : null;
  if (!admission) throw notFound();
  if (admission.kind !== 'admit' || admission.result !== 'admitted' || !admission.ticketId) throw conflict(M.checkinUndoNotAdmission);
  const ticketId = admission.ticketId;
  return deps.db.transaction(async (tx) => {
    // The one lock order: the ticket's order before the ticket (unadmitTicket) and its rollup.
    await repo.lockOrderOfTicketRow(tx, ctx.tenantId, ticketId);
    const now = new Date();
    const recorded = await repo.insertUndo(tx, {
      tenantId: ctx.tenantId,
      id: randomUUID(),
      eventId,
      ticketId,
      clientScanId: null,
      deviceId: scope.deviceId,
      userId: ctx.user.id,
      kind: 'undo',
      result: 'undone',
      undoneOf: admission.id,
      scannedAt: now,
      recordedAt: now,
      details: null,
    });
    if (!recorded) throw conflict(M.checkinUndoAlreadyUndone);
    if (!(await repo.unadmitTicket(tx, { tenantId: ctx.tenantId, ticketId, scanId: admission.id }))) throw conflict(M.checkinUndoAdmittedSince);
    const ticket = await repo.findDoorTicket(tx, ctx.tenantId, { id: ticketId });
    return { result: 'undone' as const, ticket: toCheckinTicket(ticket!) };
  });
}

/** The device a box-office admission is recorded from (issue 23): the sale, not a scanner. */
export const BOX_OFFICE_DEVICE = 'box-office';

/**
 * Admit on sale (issue 23): the tickets a box office just sold are marked used at once, through the
 * same admission as a scan (repository admitTicket: the order's lock, then the ticket; a scan row
 * recorded), so the door's counts and the reports count them as any admission. Inside the sale's
 * transaction, which holds the new order.
 */
export async function admitOnSale(tx: DbOrTx, p: { tenantId: string; eventId: string; ticketIds: readonly string[]; userId: string; at: Date }): Promise<number> {
  let admitted = 0;
  for (const ticketId of p.ticketIds) {
    const scanId = randomUUID();
    const ok = await repo.admitTicket(tx, {
      tenantId: p.tenantId,
      eventId: p.eventId,
      ticketId,
      scanId,
      clientScanId: randomUUID(),
      deviceId: BOX_OFFICE_DEVICE,
      userId: p.userId,
      at: p.at,
      scannedAt: p.at,
      details: JSON.stringify({ via: 'box_office' }),
    });
    if (ok) admitted++;
  }
  return admitted;
}

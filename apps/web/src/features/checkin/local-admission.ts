import { parseTicketCode, type TCheckinManifest, type TCheckinPrevious, type TCheckinScanAnswer, type TCheckinTicket } from '@marquee/core';

// The door's answer from the device's own ticket list while the network is down (issue 11). The
// same reasons as the server's, decided from the last manifest plus this device's own offline
// admissions; the server has the last word when the queue is synced.

export type ScanInput = { code: string } | { ticketId: string };

export type LocalAnswer = Omit<TCheckinScanAnswer, 'scanId'> & { scanId: null };

const previousOf = (t: TCheckinTicket): TCheckinPrevious => ({ usedAt: t.usedAt, deviceId: t.usedBy?.deviceId ?? null, name: t.usedBy?.name ?? null });

/** Finds the ticket a scan names: by the code's ticket uid, or by the uuid / printed Ticket ID typed in. */
export function findTicket(tickets: readonly TCheckinTicket[], input: ScanInput): TCheckinTicket | null {
  if ('code' in input) {
    const parsed = parseTicketCode(input.code);
    return parsed ? (tickets.find((t) => t.ticketUid === parsed.ticketUid) ?? null) : null;
  }
  const ref = input.ticketId.trim();
  return tickets.find((t) => t.id === ref || t.ticketUid.toUpperCase() === ref.toUpperCase()) ?? null;
}

/**
 * Decides a scan locally. `signatureValid` is the WebCrypto check of a code (ignored for a typed
 * ticket id). Returns the answer and, when admitted, the ticket as it now stands on this device.
 */
export function admitLocally({
  eventId,
  tickets,
  revoked = [],
  input,
  signatureValid,
  clientScanId,
  deviceId,
  scannerName,
  now,
}: {
  eventId: string;
  tickets: readonly TCheckinTicket[];
  /** Issue 24: Ticket IDs whose codes no longer admit (the ticket was transferred), from the manifest. */
  revoked?: TCheckinManifest['revoked'];
  input: ScanInput;
  signatureValid: boolean;
  clientScanId: string;
  deviceId: string;
  /** The person signed in on this device, as the server would name them ("Dora Door"): who admitted it. */
  scannerName: string;
  now: Date;
}): { answer: LocalAnswer; admitted: TCheckinTicket | null } {
  const refuse = (result: LocalAnswer['result'], ticket: TCheckinTicket | null = null) => ({
    answer: { scanId: null, clientScanId, result, ticket, previous: result === 'already_used' && ticket ? previousOf(ticket) : null },
    admitted: null,
  });
  if ('code' in input) {
    const parsed = parseTicketCode(input.code);
    if (!parsed || !signatureValid) return refuse('forged');
    if (parsed.eventId !== eventId) return refuse('other_event');
  }
  // A transferred ticket's old code (or its old Ticket ID typed in) is refused as the server refuses it.
  const uid = 'code' in input ? parseTicketCode(input.code)?.ticketUid : input.ticketId.trim().toUpperCase();
  if (uid && revoked.some((r) => r.ticketUid.toUpperCase() === uid.toUpperCase())) return refuse('transferred');
  const ticket = findTicket(tickets, input);
  if (!ticket) return refuse('unknown');
  if (ticket.state === 'used') return refuse('already_used', ticket);
  if (ticket.state === 'voided') return refuse('voided', ticket);
  if (ticket.state === 'refunded') return refuse('refunded', ticket);
  const admitted: TCheckinTicket = { ...ticket, state: 'used', usedAt: now.toISOString(), usedBy: { deviceId, name: scannerName } };
  return { answer: { scanId: null, clientScanId, result: 'admitted', ticket: admitted, previous: null }, admitted };
}

/** Sold and checked-in counts from a ticket list (sold: tickets neither voided nor refunded). */
export function countTickets(tickets: readonly TCheckinTicket[]) {
  const byType = new Map<string, { ticketTypeId: string; name: string; sold: number; checkedIn: number }>();
  let sold = 0;
  let checkedIn = 0;
  for (const t of tickets) {
    if (t.state === 'voided' || t.state === 'refunded') continue;
    const row = byType.get(t.ticketTypeId) ?? { ticketTypeId: t.ticketTypeId, name: t.ticketTypeName, sold: 0, checkedIn: 0 };
    row.sold++;
    sold++;
    if (t.state === 'used') {
      row.checkedIn++;
      checkedIn++;
    }
    byType.set(t.ticketTypeId, row);
  }
  return { sold, checkedIn, byType: [...byType.values()].sort((a, b) => a.name.localeCompare(b.name)) };
}

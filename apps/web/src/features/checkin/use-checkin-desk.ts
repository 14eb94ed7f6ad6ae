import { CHECKIN_SYNC_MAX, type TCheckinScanAnswer, type TCheckinTicket } from '@marquee/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isApiError, isNetworkError } from '../../ui/api-client';
import { checkinApi } from './api';
import { admitLocally, countTickets, findTicket, type ScanInput } from './local-admission';
import { eventKey, offlineStore, type Conflict, type QueuedScan, type StoredManifest } from './offline-store';
import { verifyTicketCode } from './verify-code';

// The door's state (issue 11): the event's ticket list kept on the device, every scan answered at
// once (by the server when it can be reached, else from that list), the queue of offline scans and
// their sync, and the conflicts the sync found. Survives a reload (IndexedDB).

export type DeskAnswer = (TCheckinScanAnswer | (Omit<TCheckinScanAnswer, 'scanId'> & { scanId: null })) & { offline: boolean };

const MANIFEST_REFRESH_MS = 60_000;
const SYNC_EVERY_MS = 10_000;


function newId() {
  return crypto.randomUUID();
}

/**
 * What the server records as the device: its name at the door and a short part of this browser's
 * random id ("Door 1 · 7f3a"), so that "already used" can say where without a device registry.
 */
const deviceLabel = (name: string, id: string) => `${name} · ${id.slice(0, 4)}`;

/** This browser's device id and its name at the door ("Door 1"), kept across reloads. */
export function useDevice() {
  const [device, setDevice] = useState<{ id: string; name: string } | null>(null);
  useEffect(() => {
    void (async () => {
      let id = await offlineStore.meta('deviceId');
      if (!id) {
        id = newId();
        await offlineStore.setMeta('deviceId', id);
      }
      const name = (await offlineStore.meta('deviceName')) ?? 'Door 1';
      setDevice({ id: deviceLabel(name, id), name });
    })();
  }, []);
  const rename = useCallback(async (name: string) => {
    const clean = name.trim().slice(0, 40) || 'Door 1';
    await offlineStore.setMeta('deviceName', clean);
    const id = (await offlineStore.meta('deviceId')) ?? newId();
    setDevice({ id: deviceLabel(clean, id), name: clean });
  }, []);
  return { device, rename };
}

function withTicket(manifest: StoredManifest, ticket: TCheckinTicket | null): StoredManifest {
  if (!ticket) return manifest;
  return { ...manifest, tickets: manifest.tickets.map((t) => (t.id === ticket.id ? ticket : t)) };
}

/** The person signed in on this device: who an offline admission is credited to. */
export type Scanner = { id: string; name: string };

/** Whose queued scans these are: the signed-in person sends their own (and any not marked with a person). */
const isMine = (scan: QueuedScan, scanner: Scanner | null) => !scan.scannedBy || scan.scannedBy === scanner?.id;

/** Scans others made on this device while offline, by person: they wait until that person signs in here. */
function othersOf(pending: QueuedScan[], scanner: Scanner | null) {
  const byPerson = new Map<string, { name: string; count: number }>();
  for (const scan of pending) {
    if (isMine(scan, scanner)) continue;
    const entry = byPerson.get(scan.scannedBy!) ?? { name: scan.scannedByName || 'someone else', count: 0 };
    entry.count++;
    byPerson.set(scan.scannedBy!, entry);
  }
  return [...byPerson.values()];
}

export function useCheckinDesk({ tenantId, eventId, device, scanner }: { tenantId: string; eventId: string; device: { id: string; name: string } | null; scanner: Scanner | null }) {
  const key = eventKey(tenantId, eventId);
  const [manifest, setManifest] = useState<StoredManifest | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [online, setOnline] = useState(() => navigator.onLine);
  const [queued, setQueued] = useState(0);
  const [queuedByOthers, setQueuedByOthers] = useState<Array<{ name: string; count: number }>>([]);
  /**
   * When this device last changed what it counts without the server having it yet (an offline
   * admission) or sent its queue: the server's counters are believed only once read after it.
   */
  const [settledAt, setSettledAt] = useState(0);
  const [conflicts, setConflicts] = useState<Conflict[]>([]);
  const [syncing, setSyncing] = useState(false);
  const manifestRef = useRef<StoredManifest | null>(null);
  const busy = useRef(false);

  const recount = useCallback(async () => {
    const pending = await offlineStore.queued(key);
    setQueued(pending.length);
    setQueuedByOthers(othersOf(pending, scanner));
    return pending;
  }, [key, scanner]);

  const store = useCallback(async (next: StoredManifest) => {
    manifestRef.current = next;
    setManifest(next);
    await offlineStore.saveManifest(next);
  }, []);

  /** The server's list, with this device's unsynced admissions laid over it. */
  const refresh = useCallback(async () => {
    try {
      const fresh = await checkinApi.manifest(tenantId, eventId);
      let next: StoredManifest = { ...fresh, key, fetchedAt: new Date().toISOString() };
      const pending = await offlineStore.queued(key);
      const local = manifestRef.current;
      // A queued scan is this device's own admission, whatever the device is called now.
      for (const scan of pending) {
        const mine = local ? findTicket(local.tickets, scan.code !== undefined ? { code: scan.code } : { ticketId: scan.ticketId ?? '' }) : null;
        if (mine?.state === 'used') next = withTicket(next, mine);
      }
      await store(next);
      setOnline(true);
      setLoadError(null);
    } catch (e) {
      if (isNetworkError(e)) setOnline(false);
      else setLoadError(isApiError(e) ? e.message : 'The ticket list could not be loaded.');
    }
  }, [tenantId, eventId, key, store]);

  const sync = useCallback(async () => {
    if (!device || !scanner || busy.current) return;
    // Only this person's scans: the server credits them to the session and refuses anyone else's.
    const pending = (await recount()).filter((scan) => isMine(scan, scanner));
    if (pending.length === 0) return;
    busy.current = true;
    setSyncing(true);
    try {
      for (let i = 0; i < pending.length; i += CHECKIN_SYNC_MAX) {
        const chunk = pending.slice(i, i + CHECKIN_SYNC_MAX);
        const { results } = await checkinApi.sync(tenantId, eventId, {
          deviceId: device.id,
          scans: chunk.map(({ clientScanId, code, ticketId, scannedAt, scannedBy }) => ({ clientScanId, code, ticketId, scannedAt, scannedBy })),
        });
        const found: Conflict[] = results
          .filter((r) => r.result !== 'admitted')
          .map((r) => {
            const sent = chunk.find((c) => c.clientScanId === r.clientScanId);
            // A transferred answer names no ticket (it is its new holder's now): the conflict shows the ticket this device admitted.
            const local = sent && manifestRef.current ? findTicket(manifestRef.current.tickets, sent.code !== undefined ? { code: sent.code } : { ticketId: sent.ticketId ?? '' }) : null;
            return { clientScanId: r.clientScanId, key, result: r.result, ticket: r.ticket ?? local, previous: r.previous, scannedAt: sent?.scannedAt ?? '' };
          });
        if (found.length) await offlineStore.addConflicts(found);
        await offlineStore.dequeue(chunk.map((c) => c.clientScanId));
      }
      setOnline(true);
      setConflicts(await offlineStore.conflicts(key));
      await recount();
      await refresh();
      setSettledAt(Date.now());
    } catch (e) {
      if (isNetworkError(e)) setOnline(false);
    } finally {
      busy.current = false;
      setSyncing(false);
    }
  }, [device, scanner, key, tenantId, eventId, refresh, recount]);

  // Start from what the device kept, then ask the server.
  useEffect(() => {
    let live = true;
    void (async () => {
      const kept = await offlineStore.manifest(key);
      if (live && kept) {
        manifestRef.current = kept;
        setManifest(kept);
      }
      setConflicts(await offlineStore.conflicts(key));
      await recount();
      if (live) await refresh();
    })();
    return () => {
      live = false;
    };
  }, [key, refresh, recount]);

  useEffect(() => {
    const up = () => {
      setOnline(true);
      void sync();
    };
    const down = () => setOnline(false);
    window.addEventListener('online', up);
    window.addEventListener('offline', down);
    const syncTimer = window.setInterval(() => void sync(), SYNC_EVERY_MS);
    const refreshTimer = window.setInterval(() => void refresh(), MANIFEST_REFRESH_MS);
    return () => {
      window.removeEventListener('online', up);
      window.removeEventListener('offline', down);
      window.clearInterval(syncTimer);
      window.clearInterval(refreshTimer);
    };
  }, [sync, refresh]);

  const decideOffline = useCallback(
    async (input: ScanInput, clientScanId: string): Promise<DeskAnswer> => {
      const current = manifestRef.current;
      if (!current || !device) return { scanId: null, clientScanId, result: 'unknown', ticket: null, previous: null, offline: true };
      const signatureValid = 'code' in input ? await verifyTicketCode(input.code, current.publicKey) : true;
      // Credited to the person signed in, as the server will when the queue is sent (issue 21.13).
      const scannerName = scanner?.name ?? device.name;
      // A manifest kept from before issue 24 has no revoked list.
      const { answer, admitted } = admitLocally({ eventId, tickets: current.tickets, revoked: current.revoked ?? [], input, signatureValid, clientScanId, deviceId: device.id, scannerName, now: new Date() });
      if (admitted) {
        await offlineStore.enqueue({ clientScanId, key, ...input, scannedAt: admitted.usedAt!, ...(scanner ? { scannedBy: scanner.id, scannedByName: scanner.name } : {}) });
        await store(withTicket(current, admitted));
        await recount();
        setSettledAt(Date.now());
      }
      return { ...answer, offline: true };
    },
    [device, scanner, eventId, key, store, recount],
  );

  /** One scan or manual check-in: the server's answer, or the device's own when offline. */
  const scan = useCallback(
    async (input: ScanInput): Promise<DeskAnswer> => {
      const clientScanId = newId();
      if (!device) return { scanId: null, clientScanId, result: 'unknown', ticket: null, previous: null, offline: true };
      if (!navigator.onLine) return decideOffline(input, clientScanId);
      try {
        const answer = await checkinApi.scan(tenantId, eventId, { clientScanId, deviceId: device.id, ...input, scannedAt: new Date().toISOString() });
        setOnline(true);
        if (answer.ticket && manifestRef.current) await store(withTicket(manifestRef.current, answer.ticket));
        return { ...answer, offline: false };
      } catch (e) {
        if (!isNetworkError(e)) throw e;
        setOnline(false);
        return decideOffline(input, clientScanId);
      }
    },
    [device, tenantId, eventId, store, decideOffline],
  );

  /** Takes back an admission: on the server, or from the offline queue before it was sent. */
  const undo = useCallback(
    async (answer: DeskAnswer) => {
      if (!device || answer.result !== 'admitted' || !answer.ticket) return;
      if (answer.scanId === null) {
        await offlineStore.dequeue([answer.clientScanId]);
        await recount();
        setSettledAt(Date.now());
        if (manifestRef.current) await store(withTicket(manifestRef.current, { ...answer.ticket, state: 'valid', usedAt: null, usedBy: null }));
        return;
      }
      const res = await checkinApi.undo(tenantId, eventId, answer.scanId, device.id);
      if (manifestRef.current) await store(withTicket(manifestRef.current, res.ticket));
    },
    [device, tenantId, eventId, store, recount],
  );

  const dismissConflicts = useCallback(async () => {
    await offlineStore.clearConflicts(key);
    setConflicts([]);
  }, [key]);

  const [eventName, setEventName] = useState<string | null>(null);
  useEffect(() => {
    void offlineStore.meta(`eventName:${key}`).then(setEventName);
  }, [key]);
  const rememberEventName = useCallback((name: string) => void offlineStore.setMeta(`eventName:${key}`, name), [key]);

  const counts = manifest ? countTickets(manifest.tickets) : null;
  return { eventName, rememberEventName, manifest, counts, settledAt, loadError, online, queued, queuedByOthers, syncing, conflicts, scan, undo, sync, refresh, dismissConflicts };
}

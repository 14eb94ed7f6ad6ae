import type { TCheckinManifest, TCheckinPrevious, CheckinScanResult, TCheckinTicket } from '@marquee/core';
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

// What a door device keeps across reloads and network loss (issue 11): the event's ticket list as
// last fetched, the scans made while offline (sent by POST …/sync when the network is back), and
// the conflicts those scans met. Keyed by `${tenantId}:${eventId}`.

/**
 * A scan made offline, waiting to be sent. `scannedBy` is the id of the person signed in when it was
 * made (and `scannedByName` their name): only they can send it (issue 21.13). Scans queued before
 * this was recorded have neither and are sent by whoever is signed in.
 */
export type QueuedScan = { clientScanId: string; key: string; code?: string; ticketId?: string; scannedAt: string; scannedBy?: string; scannedByName?: string };
export type Conflict = {
  clientScanId: string;
  key: string;
  result: CheckinScanResult;
  ticket: TCheckinTicket | null;
  previous: TCheckinPrevious | null;
  scannedAt: string;
};
export type StoredManifest = TCheckinManifest & { key: string; fetchedAt: string };

interface CheckinDb extends DBSchema {
  manifests: { key: string; value: StoredManifest };
  queue: { key: string; value: QueuedScan; indexes: { byEvent: string } };
  conflicts: { key: string; value: Conflict; indexes: { byEvent: string } };
  meta: { key: string; value: string };
}

let opened: Promise<IDBPDatabase<CheckinDb>> | null = null;

function db() {
  opened ??= openDB<CheckinDb>('marquee-checkin', 1, {
    upgrade(d) {
      d.createObjectStore('manifests', { keyPath: 'key' });
      d.createObjectStore('queue', { keyPath: 'clientScanId' }).createIndex('byEvent', 'key');
      d.createObjectStore('conflicts', { keyPath: 'clientScanId' }).createIndex('byEvent', 'key');
      d.createObjectStore('meta');
    },
  });
  return opened;
}

export const eventKey = (tenantId: string, eventId: string) => `${tenantId}:${eventId}`;

export const offlineStore = {
  async manifest(key: string) {
    return (await (await db()).get('manifests', key)) ?? null;
  },
  async saveManifest(manifest: StoredManifest) {
    await (await db()).put('manifests', manifest);
  },
  async queued(key: string) {
    return (await db()).getAllFromIndex('queue', 'byEvent', key);
  },
  async enqueue(scan: QueuedScan) {
    await (await db()).put('queue', scan);
  },
  async dequeue(clientScanIds: string[]) {
    const tx = (await db()).transaction('queue', 'readwrite');
    await Promise.all([...clientScanIds.map((id) => tx.store.delete(id)), tx.done]);
  },
  async conflicts(key: string) {
    return (await db()).getAllFromIndex('conflicts', 'byEvent', key);
  },
  async addConflicts(conflicts: Conflict[]) {
    const tx = (await db()).transaction('conflicts', 'readwrite');
    await Promise.all([...conflicts.map((c) => tx.store.put(c)), tx.done]);
  },
  async clearConflicts(key: string) {
    const d = await db();
    const keys = await d.getAllKeysFromIndex('conflicts', 'byEvent', key);
    const tx = d.transaction('conflicts', 'readwrite');
    await Promise.all([...keys.map((k) => tx.store.delete(k)), tx.done]);
  },
  async meta(name: string) {
    return (await (await db()).get('meta', name)) ?? null;
  },
  async setMeta(name: string, value: string) {
    await (await db()).put('meta', value, name);
  },
};

import { randomUUID } from 'node:crypto';
import type { AuditAction } from '@marquee/core';
import type { DbOrTx } from '../db/client.js';
import { auditLog } from '../db/schema/index.js';

// Issue 25: the audit log. An entry is written with the same transaction (`tx`) as the action it
// records, so there is never an action without its entry nor an entry for an action rolled back.
// The table refuses UPDATE and DELETE (a trigger); nothing here offers either.

/** Who acted: a signed-in user, an API key (acting as its creator), or the system (a job). */
export type AuditActor =
  | { type: 'user'; id: string; label: string; address: string | null }
  | { type: 'key'; id: string; label: string; onBehalfOf: string; address: string | null }
  | { type: 'system'; label: string };

export const SYSTEM_ACTOR: AuditActor = { type: 'system', label: 'Marquee' };

export type AuditEntry = {
  actor: AuditActor;
  tenantId: string | null;
  action: AuditAction;
  target: { type: string; id: string | null };
  before?: unknown;
  after?: unknown;
};

/** Values for jsonb: undefined is "not recorded" (null), dates as ISO text. */
const json = (v: unknown) => (v === undefined ? null : (JSON.parse(JSON.stringify(v)) as unknown));

export async function recordAudit(tx: DbOrTx, entry: AuditEntry): Promise<void> {
  const { actor } = entry;
  await tx.insert(auditLog).values({
    id: randomUUID(),
    tenantId: entry.tenantId,
    action: entry.action,
    actorType: actor.type,
    actorId: actor.type === 'system' ? null : actor.id,
    actor: actor.label,
    onBehalfOf: actor.type === 'key' ? actor.onBehalfOf : null,
    targetType: entry.target.type,
    targetId: entry.target.id,
    before: json(entry.before),
    after: json(entry.after),
    address: actor.type === 'system' ? null : actor.address,
  });
}

/** The actor of a service's ctx; a ctx without one (a job) is the system. */
export function actorOf(ctx: { actor?: AuditActor } | null | undefined): AuditActor {
  return ctx?.actor ?? SYSTEM_ACTOR;
}

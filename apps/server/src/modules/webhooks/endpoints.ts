import net from 'node:net';
import { randomUUID } from 'node:crypto';
import { M_WEBHOOKS, type TWebhookEndpoint, type TWebhookSecretAnswer, type ZWebhookEndpointRequest, type ZWebhookEndpointUpdate } from '@marquee/core';
import type { z } from 'zod';
import type { Deps } from '../../deps.js';
import { type AuditActor, recordAudit } from '../../platform/audit.js';
import { AppError, notFound } from '../../platform/errors.js';
import { isPublicAddress } from '../../platform/outbound-http.js';
import { PREVIOUS_SECRET_HOURS } from './deliver.js';
import * as repo from './repository.js';
import { newSigningSecret, openSecret, sealSecret, secretHint } from './secrets.js';

// An owner's endpoints (a tenant's, or the platform's): add, change, turn on and off, rotate the
// signing secret, delete. The secret is answered once, when made.

const urlError = (message: string) => new AppError('VALIDATION', message, { url: message });

/**
 * What an address must be: https wherever the server itself is served over https (production);
 * no user name or password in it; not a private, loopback or link-local address written out (a
 * name is checked when it is resolved, at every delivery: platform/outbound-http.ts).
 */
export function assertEndpointUrl(deps: Deps, raw: string) {
  const url = new URL(raw);
  if (deps.config.publicScheme === 'https' && url.protocol !== 'https:') throw urlError(M_WEBHOOKS.urlHttps);
  if (url.username || url.password) throw urlError(M_WEBHOOKS.urlCredentials);
  if (deps.config.webhooks.allowPrivate) return;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || (net.isIP(host) && !isPublicAddress(host))) throw urlError(M_WEBHOOKS.urlPrivate);
}

export function toEndpoint(deps: Deps, row: repo.EndpointRow): TWebhookEndpoint {
  const now = new Date();
  return {
    id: row.id,
    details: {
      url: row.url,
      description: row.description,
      eventTypes: row.eventTypes,
      enabled: row.enabled,
      disabledReason: row.enabled ? null : row.disabledReason,
      secretHint: secretHint(openSecret(deps.config.secret, row.secret)),
      previousSecretUntil: row.previousSecret && row.previousSecretUntil && row.previousSecretUntil > now ? row.previousSecretUntil.toISOString() : null,
      lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
      dateCreated: row.createdAt.toISOString(),
    },
  };
}

/** What the audit log keeps of an endpoint (never its secret). */
const auditView = (row: repo.EndpointRow) => ({ url: row.url, description: row.description, eventTypes: row.eventTypes, enabled: row.enabled });
/** An endpoint decides where the owner's data goes: each change is in the audit log, with the change's transaction. */
const audit = (tx: Parameters<typeof recordAudit>[0], actor: AuditActor, owner: repo.Owner, action: 'webhook.endpoint_added' | 'webhook.endpoint_changed' | 'webhook.endpoint_deleted' | 'webhook.secret_rotated', id: string, before?: repo.EndpointRow, after?: repo.EndpointRow) =>
  recordAudit(tx, { actor, tenantId: owner.tenantId, action, target: { type: 'webhook_endpoint', id }, before: before && auditView(before), after: after && auditView(after) });

/** An owner has at most this many endpoints. */
export const MAX_ENDPOINTS = 20;

export async function listEndpoints({ deps, owner }: { deps: Deps; owner: repo.Owner }) {
  const rows = await repo.listEndpoints(deps.db, owner);
  return { result: rows.map((r) => toEndpoint(deps, r)), count: rows.length, cursor: null };
}

export async function getEndpoint({ deps, owner, endpointId }: { deps: Deps; owner: repo.Owner; endpointId: string }) {
  const row = await repo.findEndpoint(deps.db, owner, endpointId);
  if (!row) throw notFound();
  return toEndpoint(deps, row);
}

export async function createEndpoint(opts: { deps: Deps; owner: repo.Owner; userId: string; actor: AuditActor; input: z.output<typeof ZWebhookEndpointRequest> }): Promise<TWebhookSecretAnswer> {
  const { deps, owner, input } = opts;
  assertEndpointUrl(deps, input.url);
  if ((await repo.countEndpoints(deps.db, owner)) >= MAX_ENDPOINTS) throw new AppError('CONFLICT', `At most ${MAX_ENDPOINTS} endpoints can be added.`);
  const secret = newSigningSecret();
  const row = await deps.db.transaction(async (tx) => {
    const added = await repo.insertEndpoint(tx, {
      id: randomUUID(),
      tenantId: owner.tenantId,
      url: input.url,
      description: input.description,
      eventTypes: input.eventTypes,
      secret: sealSecret(deps.config.secret, secret),
      createdBy: opts.userId,
    });
    await audit(tx, opts.actor, owner, 'webhook.endpoint_added', added.id, undefined, added);
    return added;
  });
  return { success: true, message: M_WEBHOOKS.created, endpoint: toEndpoint(deps, row), secret };
}

export async function updateEndpoint(opts: { deps: Deps; owner: repo.Owner; endpointId: string; actor: AuditActor; input: z.output<typeof ZWebhookEndpointUpdate> }) {
  const { deps, owner, endpointId, input } = opts;
  const current = await repo.findEndpoint(deps.db, owner, endpointId);
  if (!current) throw notFound();
  if (input.url !== undefined) assertEndpointUrl(deps, input.url);
  const row = await deps.db.transaction(async (tx) => {
    const changed = await repo.updateEndpoint(tx, owner, endpointId, {
      ...(input.url !== undefined && { url: input.url }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.eventTypes !== undefined && { eventTypes: input.eventTypes }),
      ...(input.enabled !== undefined && input.enabled !== current.enabled && { enabled: input.enabled, disabledReason: input.enabled ? null : 'manual' }),
    });
    if (changed) await audit(tx, opts.actor, owner, 'webhook.endpoint_changed', endpointId, current, changed);
    return changed;
  });
  if (!row) throw notFound();
  return { success: true as const, message: M_WEBHOOKS.updated, endpoint: toEndpoint(deps, row) };
}

export async function deleteEndpoint({ deps, owner, endpointId, actor }: { deps: Deps; owner: repo.Owner; endpointId: string; actor: AuditActor }) {
  const current = await repo.findEndpoint(deps.db, owner, endpointId);
  if (!current) throw notFound();
  const deleted = await deps.db.transaction(async (tx) => {
    const gone = await repo.deleteEndpoint(tx, owner, endpointId);
    if (gone) await audit(tx, actor, owner, 'webhook.endpoint_deleted', endpointId, current);
    return gone;
  });
  if (!deleted) throw notFound();
  return { success: true as const, message: M_WEBHOOKS.deleted };
}

/** A new secret signs from now on; the one before it signs too (a second signature) for 24 hours. */
export async function rotateSecret({ deps, owner, endpointId, actor }: { deps: Deps; owner: repo.Owner; endpointId: string; actor: AuditActor }): Promise<TWebhookSecretAnswer> {
  const current = await repo.findEndpoint(deps.db, owner, endpointId);
  if (!current) throw notFound();
  const secret = newSigningSecret();
  const row = await deps.db.transaction(async (tx) => {
    const rotated = await repo.updateEndpoint(tx, owner, endpointId, {
      secret: sealSecret(deps.config.secret, secret),
      previousSecret: current.secret,
      previousSecretUntil: new Date(Date.now() + PREVIOUS_SECRET_HOURS * 3600_000),
    });
    if (rotated) await audit(tx, actor, owner, 'webhook.secret_rotated', endpointId);
    return rotated;
  });
  if (!row) throw notFound();
  return { success: true, message: M_WEBHOOKS.rotated, endpoint: toEndpoint(deps, row), secret };
}

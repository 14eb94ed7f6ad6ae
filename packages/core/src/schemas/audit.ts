import { z } from 'zod';
import { zListResponse, zResource } from './list.js';

// Issue 25: the audit log. Every action that moves money or changes who may do what, append-only.

export const AUDIT_ACTIONS = [
  'order.refunded',
  'order.refund_settled',
  'tickets.voided',
  'tickets.unvoided',
  'payout.held',
  'payout.released',
  'payouts.transferred',
  'fees.rule_created',
  'fees.rule_changed',
  'fees.rule_deleted',
  'fees.settings_changed',
  'payment_settings.changed',
  'staff.invited',
  'staff.roles_changed',
  'staff.removed',
  'platform_user.invited',
  'platform_user.changed',
  'api_key.created',
  'api_key.revoked',
  'webhook.endpoint_added',
  'webhook.endpoint_changed',
  'webhook.endpoint_deleted',
  'webhook.secret_rotated',
  'export.downloaded',
  'tenant.created',
  'tenant.deleted',
  'embed.origins_changed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'order.refunded': 'Order refunded',
  'order.refund_settled': 'Refund settled at the box office',
  'tickets.voided': 'Tickets voided',
  'tickets.unvoided': 'Tickets unvoided',
  'payout.held': 'Payouts held',
  'payout.released': 'Payouts released',
  'payouts.transferred': 'Payouts transferred',
  'fees.rule_created': 'Fee rule created',
  'fees.rule_changed': 'Fee rule changed',
  'fees.rule_deleted': 'Fee rule deleted',
  'fees.settings_changed': 'Fee settings changed',
  'payment_settings.changed': 'Payment settings changed',
  'staff.invited': 'Staff invited',
  'staff.roles_changed': 'Staff roles changed',
  'staff.removed': 'Staff removed',
  'platform_user.invited': 'Platform user invited',
  'platform_user.changed': 'Platform user changed',
  'api_key.created': 'API key created',
  'api_key.revoked': 'API key revoked',
  'webhook.endpoint_added': 'Webhook endpoint added',
  'webhook.endpoint_changed': 'Webhook endpoint changed',
  'webhook.endpoint_deleted': 'Webhook endpoint deleted',
  'webhook.secret_rotated': 'Webhook signing secret rotated',
  'export.downloaded': 'Export downloaded',
  'tenant.created': 'Tenant created',
  'tenant.deleted': 'Tenant deleted',
  'embed.origins_changed': 'Websites allowed to embed changed',
};

export const AUDIT_ACTOR_TYPES = ['user', 'key', 'system'] as const;
export type AuditActorType = (typeof AUDIT_ACTOR_TYPES)[number];

export const ZAuditEntry = zResource(
  z.object({
    action: z.string(),
    actorType: z.enum(AUDIT_ACTOR_TYPES),
    /** The user's or the key's id; null for the system (a job). */
    actorId: z.string().nullable(),
    /** The user's e-mail or the key's name as they were at the time. */
    actor: z.string(),
    tenantId: z.string().nullable(),
    targetType: z.string(),
    targetId: z.string().nullable(),
    before: z.unknown().nullable(),
    after: z.unknown().nullable(),
    address: z.string().nullable(),
    dateCreated: z.string(),
  }),
);
export type TAuditEntry = z.infer<typeof ZAuditEntry>;
export const ZAuditList = zListResponse(ZAuditEntry);

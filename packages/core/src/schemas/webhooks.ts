import { z } from 'zod';
import { zListResponse, zResource } from './list.js';

// Outgoing webhooks (issue 25): the event types an endpoint subscribes to, their payloads, and the
// console's wire shapes. docs/webhooks.md describes them for receivers.

/** Messages of the webhooks screens and API (not in the spec; docs/decisions.md "Issue 25: webhooks"). */
export const M_WEBHOOKS = {
  urlRequired: 'Enter the address that receives the webhooks.',
  urlInvalid: 'Enter a full address, such as https://example.com/webhooks.',
  urlHttps: 'The address must start with https://.',
  urlPrivate: 'The address must be on the public internet: private, loopback and link-local addresses are refused.',
  urlCredentials: 'The address must not hold a user name or password.',
  eventTypesRequired: 'Choose at least one event.',
  eventTypeUnknown: 'Unknown event type.',
  descriptionTooLong: 'The description must be at most 200 characters.',
  created: 'Endpoint added. Copy its signing secret now: it is not shown again.',
  updated: 'Endpoint saved.',
  deleted: 'Endpoint deleted.',
  rotated: 'New signing secret made. The old one still signs for 24 hours.',
  redelivered: 'Delivery sent again.',
  redeliverQueued: 'Delivery queued again.',
  disabledMailSubject: 'A webhook endpoint was turned off',
} as const;

/** Every event an endpoint may subscribe to, and how the console names it. */
export const WEBHOOK_EVENT_TYPES = [
  'order.paid',
  'order.refunded',
  'order.voided',
  'order.unvoided',
  'ticket.checked_in',
  'ticket.transferred',
  'event.published',
  'event.cancelled',
  'payout.completed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'order.paid': 'Order paid',
  'order.refunded': 'Order refunded',
  'order.voided': 'Ticket voided',
  'order.unvoided': 'Ticket unvoided',
  'ticket.checked_in': 'Ticket checked in',
  'ticket.transferred': 'Ticket transferred',
  'event.published': 'Event published',
  'event.cancelled': 'Event cancelled',
  'payout.completed': 'Payout completed',
};

/** The payload's version: a change that is not only an added field gets a new version. */
export const WEBHOOK_PAYLOAD_VERSION = 1;

type OrderRef = { id: string; uid: string; eventId: string };
/** `data` of each event type (version 1). Amounts are integer cents, times ISO 8601 in UTC. */
export type WebhookEventData = {
  'order.paid': {
    order: OrderRef & {
      channel: string;
      currency: 'usd';
      totalAmount: number;
      ticketCount: number;
      paidAt: string;
      buyer: { firstName: string; lastName: string; email: string };
    };
  };
  'order.refunded': { order: OrderRef & { refundedAmount: number }; refund: { id: string; amount: number; kind: string; reason: string } };
  'order.voided': { order: OrderRef; ticket: { id: string; uid: string }; reason: string };
  'order.unvoided': { order: OrderRef; ticket: { id: string; uid: string }; reason: string };
  'ticket.checked_in': { ticket: { id: string; uid: string; eventId: string; orderId: string }; scan: { id: string; at: string; deviceId: string } };
  'ticket.transferred': {
    ticket: { id: string; uid: string; eventId: string; orderId: string };
    from: { fullName: string; email: string };
    to: { fullName: string; email: string };
  };
  'event.published': { event: { id: string; name: string; urlName: string; startDateTime: string | null } };
  'event.cancelled': { event: { id: string; name: string; urlName: string; startDateTime: string | null } };
  'payout.completed': { payout: { id: string; amount: number; currency: 'usd'; transferId: string; completedAt: string } };
};

/** The JSON body of every webhook: `id` is also the webhook-id header, the same on every retry. */
export type WebhookPayload<T extends WebhookEventType = WebhookEventType> = {
  id: string;
  type: T;
  version: number;
  timestamp: string;
  tenantId: string | null;
  data: WebhookEventData[T];
};

const ZEventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: M_WEBHOOKS.eventTypeUnknown }), {
    error: M_WEBHOOKS.eventTypesRequired,
  })
  .min(1, M_WEBHOOKS.eventTypesRequired)
  .max(WEBHOOK_EVENT_TYPES.length * 2, M_WEBHOOKS.eventTypeUnknown)
  .transform((types) => [...new Set(types)] as WebhookEventType[]);

const ZUrl = z
  .string({ error: M_WEBHOOKS.urlRequired })
  .trim()
  .min(1, M_WEBHOOKS.urlRequired)
  .max(2000, M_WEBHOOKS.urlInvalid)
  .refine((u) => {
    try {
      const url = new URL(u);
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
    } catch {
      return false;
    }
  }, M_WEBHOOKS.urlInvalid)
  // The OpenAPI document says it is an address (the suites generate bodies from it).
  .meta({ format: 'uri' });

export const ZWebhookEndpointRequest = z.object({
  url: ZUrl,
  description: z.string().trim().max(200, M_WEBHOOKS.descriptionTooLong).default(''),
  eventTypes: ZEventTypes,
});
export type TWebhookEndpointRequest = z.input<typeof ZWebhookEndpointRequest>;

export const ZWebhookEndpointUpdate = z.object({
  url: ZUrl.optional(),
  description: z.string().trim().max(200, M_WEBHOOKS.descriptionTooLong).optional(),
  eventTypes: ZEventTypes.optional(),
  enabled: z.boolean().optional(),
});
export type TWebhookEndpointUpdate = z.input<typeof ZWebhookEndpointUpdate>;

export const ZWebhookEndpoint = zResource(
  z.object({
    url: z.string(),
    description: z.string(),
    eventTypes: z.array(z.string()),
    enabled: z.boolean(),
    /** 'manual' or 'failing' when turned off. */
    disabledReason: z.string().nullable(),
    /** The secret's last four characters, to tell secrets apart; the secret itself is shown once. */
    secretHint: z.string(),
    /** Until when the secret before the last rotation still signs too. */
    previousSecretUntil: z.string().nullable(),
    lastSuccessAt: z.string().nullable(),
    dateCreated: z.string(),
  }),
);
export type TWebhookEndpoint = z.infer<typeof ZWebhookEndpoint>;
export const ZWebhookEndpointList = zListResponse(ZWebhookEndpoint);

/** Creating an endpoint or rotating its secret: the secret, this once. */
export const ZWebhookSecretAnswer = z.object({ success: z.literal(true), message: z.string(), endpoint: ZWebhookEndpoint, secret: z.string() });
export type TWebhookSecretAnswer = z.infer<typeof ZWebhookSecretAnswer>;
export const ZWebhookEndpointAnswer = z.object({ success: z.literal(true), message: z.string(), endpoint: ZWebhookEndpoint });

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export const ZWebhookDelivery = zResource(
  z.object({
    endpointId: z.string(),
    eventId: z.string(),
    eventType: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.number(),
    nextAttemptAt: z.string().nullable(),
    lastAttemptAt: z.string().nullable(),
    responseStatus: z.number().nullable(),
    /** The first 1,000 characters of the receiver's answer. */
    responseBody: z.string().nullable(),
    error: z.string().nullable(),
    durationMs: z.number().nullable(),
    /** The JSON body sent (the first 2,000 characters). */
    payloadPreview: z.string(),
    dateCreated: z.string(),
  }),
);
export type TWebhookDelivery = z.infer<typeof ZWebhookDelivery>;
export const ZWebhookDeliveryList = zListResponse(ZWebhookDelivery);
export const ZWebhookRedeliverAnswer = z.object({ success: z.literal(true), message: z.string(), delivery: ZWebhookDelivery });

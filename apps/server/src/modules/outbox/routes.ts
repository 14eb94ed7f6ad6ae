import { PLATFORM_OUTBOX, zResource, zListResponse } from '@marquee/core';
import { and, count } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { outbox } from '../../db/schema/index.js';
import type { Deps } from '../../deps.js';
import { compileList, type ListSpec } from '../../platform/list-query.js';

const ZMail = zResource(
  z.object({
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    html: z.string().nullable(),
    status: z.string(),
    tenantId: z.string().nullable(),
    attachments: z.array(z.object({ filename: z.string(), url: z.string() })),
    dateCreated: z.string(),
  }),
);

const OUTBOX_LIST: ListSpec = {
  fields: {
    'details.dateCreated': { expr: outbox.createdAt, type: 'timestamp' },
    'details.to': { expr: outbox.to, type: 'text', match: 'contains' },
    'details.subject': { expr: outbox.subject, type: 'text', match: 'contains' },
    'details.status': { expr: outbox.status, type: 'text' },
  },
  id: outbox.id,
  defaultSort: '-details.dateCreated',
};

/** The platform console's view of every message the product sent (or kept, without SMTP). */
export function registerOutboxRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/platform/outbox',
    {
      // Super users only: kept mails hold sign-in and reset codes, which would let anyone reading
      // them take over any account, a super user's included.
      config: { access: { kind: 'platform', roles: PLATFORM_OUTBOX } },
      schema: { tags: ['mail'], response: { 200: zListResponse(ZMail) } },
    },
    async (req) => {
      const q = compileList(OUTBOX_LIST, req.query);
      const rows = await deps.db
        .select({ row: outbox, _sort: q.sortKey, _id: q.idKey })
        .from(outbox)
        .where(q.pageWhere)
        .orderBy(...q.orderBy)
        .limit(q.limit + 1);
      const [total] = await deps.db.select({ n: count() }).from(outbox).where(and(q.where));
      return q.page(rows, total?.n ?? 0, ({ row }) => ({
        id: row.id,
        details: {
          to: row.to,
          subject: row.subject,
          text: row.text,
          html: row.html,
          status: row.status,
          tenantId: row.tenantId,
          attachments: row.attachments.map((a) => ({ filename: a.filename, url: deps.storage.downloadUrl(a.key, 3600) })),
          dateCreated: row.createdAt.toISOString(),
        },
      }));
    },
  );
}

import { ZStaffList, ZStaffMember, ZStaffParams, ZSuccess, ZUpdateStaffRequest } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Deps } from '../../deps.js';
import type { Access } from '../../platform/auth/context.js';
import { tenantCtxOf } from '../../platform/auth/guard.js';
import { PLATFORM_READ } from '../tenants/access.js';
import * as staff from './service.js';

const tags = ['staff'];
const ZTenantParams = z.object({ tenantId: z.string() });

// Who may do what (docs/decisions.md, "Tenant staff"): the tenant's admins and staff read the list,
// as do the platform roles that read people (those of the Platform Users page); only the tenant's
// admins change roles or remove people.
const STAFF_READ: Access = { kind: 'tenant', roles: ['tenant_admin', 'tenant_staff'], platformRoles: PLATFORM_READ };
const STAFF_WRITE: Access = { kind: 'tenant', roles: ['tenant_admin'], platformRoles: [] };
/** An event's staff: whoever reads the tenant's staff, and the event's own managers (who invite its staff); not its check-in staff. */
const EVENT_STAFF_READ: Access = { ...STAFF_READ, eventRoles: ['event_manager'] };
const ZEventParams = z.object({ tenantId: z.string(), eventId: z.string().max(100) });

// POST /api/tenants/:tenantId/staff/invites (Invite staff) lives in modules/accounts.
export function registerStaffRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/tenants/:tenantId/staff',
    {
      config: { access: STAFF_READ },
      schema: {
        tags,
        summary:
          'Tenant staff: members with tenant roles and open invites; filters on details.search (name or email, contains), details.email, details.name, details.firstName, details.lastName (contains), details.status',
        params: ZTenantParams,
        response: { 200: ZStaffList },
      },
    },
    async (req) => staff.listStaff({ deps, ctx: tenantCtxOf(req), query: req.query }),
  );

  r.get(
    '/api/tenants/:tenantId/events/:eventId/staff',
    {
      config: { access: EVENT_STAFF_READ },
      schema: {
        tags,
        summary:
          "An event's staff: members with roles on the event and open invites to it (Active, Pending Verification, or EXPIRED); filters as the tenant's staff list",
        params: ZEventParams,
        response: { 200: ZStaffList },
      },
    },
    async (req) => staff.listEventStaff({ deps, ctx: tenantCtxOf(req), eventId: req.params.eventId, query: req.query }),
  );

  r.put(
    '/api/tenants/:tenantId/staff/:staffId',
    {
      config: { access: STAFF_WRITE },
      schema: {
        tags,
        summary: "Change a staff member's tenant roles (a member's user id, or an invitee's invite id)",
        params: ZStaffParams,
        body: ZUpdateStaffRequest,
        response: { 200: ZStaffMember },
      },
    },
    async (req) => staff.updateStaffRoles({ deps, ctx: tenantCtxOf(req), staffId: req.params.staffId, roles: req.body.details.roles }),
  );

  r.delete(
    '/api/tenants/:tenantId/staff/:staffId',
    {
      config: { access: STAFF_WRITE },
      schema: { tags, summary: 'Remove a person from the tenant (their account stays) or withdraw their invite', params: ZStaffParams, response: { 200: ZSuccess } },
    },
    async (req) => staff.removeStaff({ deps, ctx: tenantCtxOf(req), staffId: req.params.staffId }),
  );
}

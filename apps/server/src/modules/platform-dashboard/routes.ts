import { ZPlatformDashboard } from '@marquee/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Deps } from '../../deps.js';
import { PLATFORM_ANY } from '../tenants/access.js';
import * as dashboard from './service.js';

export function registerPlatformDashboardRoutes(app: FastifyInstance, deps: Deps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/platform/reports/dashboard',
    {
      config: { access: { kind: 'platform', roles: PLATFORM_ANY } },
      schema: {
        tags: ['dashboard'],
        summary: 'Platform dashboard statistics (cents). New Active Tenants: GET /api/tenants?filters=details.status=active&sort=-details.dateCreated&limit=5',
        response: { 200: ZPlatformDashboard },
      },
    },
    async () => dashboard.getPlatformDashboard({ deps }),
  );
}

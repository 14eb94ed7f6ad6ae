import { randomUUID } from 'node:crypto';
import { PLATFORM_GROUP_ID, PLATFORM_ROLES, SEED_ADMIN_NAME } from '@marquee/core';
import { count } from 'drizzle-orm';
import type { Deps } from './deps.js';
import { memberships, users } from './db/schema/index.js';
import { hashPassword } from './platform/auth/passwords.js';
import { ensureGlobalFeeDefaults } from './modules/fees/service.js';
import { ensureDefaultPolicies } from './modules/policies/service.js';
import { createTenant } from './modules/tenant-creation/create-tenant.js';
import { seedDemoCharity, seedDemoCover, seedDemoEvent } from './modules/events/demo.js';
import { seedDemoTemplate } from './modules/templates/demo.js';
import { seedDemoSeatedEvent } from './modules/seating/demo.js';
import { seedDemoSeries } from './modules/series/demo.js';
import { seedDemoHistory } from './seed-history.js';

export const DEMO_TENANT = { url: 'acme', name: 'Acme Events', email: 'hello@acme.test', phone: '+15555550100' };
export const DEMO_ORGANISER_EMAIL = 'organiser@acme.test';

/** Seeds the platform admin and, when SEED_DEMO is on, a demo tenant; only into an empty database. */
export async function seedIfEmpty(deps: Deps): Promise<{ seeded: boolean }> {
  // Idempotent, on every start: the global fee template and the attendee-facing policies.
  await ensureGlobalFeeDefaults(deps);
  await ensureDefaultPolicies(deps);
  const [row] = await deps.db.select({ n: count() }).from(users);
  if ((row?.n ?? 0) > 0) return { seeded: false };
  const { config } = deps;
  const passwordHash = await hashPassword(config.adminPassword);
  const demo = await deps.db.transaction(async (tx) => {
    const adminId = randomUUID();
    await tx.insert(users).values({ id: adminId, email: config.adminEmail, passwordHash, ...SEED_ADMIN_NAME, status: 'ACTIVE' });
    await tx.insert(memberships).values({ id: randomUUID(), userId: adminId, groupId: PLATFORM_GROUP_ID, roles: [...PLATFORM_ROLES] });
    if (!config.seedDemo) return null;
    // Through the real use case, so the demo tenant has its fee settings, rules and payment settings.
    const { id: tenantId } = await createTenant({
      deps,
      tx,
      input: {
        details: {
          ...DEMO_TENANT,
          inviteTemplateSubject: 'Join Acme Events on Marquee',
          inviteTemplateBody: 'You have been invited to help run Acme Events on Marquee.',
        },
      },
    });
    const organiserId = randomUUID();
    await tx.insert(users).values({ id: organiserId, email: DEMO_ORGANISER_EMAIL, passwordHash, firstName: 'Avery', lastName: 'Organiser', status: 'ACTIVE' });
    await tx.insert(memberships).values({ id: randomUUID(), userId: organiserId, groupId: tenantId, tenantId, roles: ['tenant_admin'] });
    const charityId = await seedDemoCharity(tx, tenantId);
    const summerJam = await seedDemoEvent(tx, tenantId, { charityId });
    await seedDemoTemplate(tx, deps.storage, { tenantId, eventId: summerJam.eventId });
    await seedDemoCover(tx, deps.storage, { tenantId, eventId: summerJam.eventId });
    // Issue 27: a seated event (the README names it).
    await seedDemoSeatedEvent(tx, tenantId);
    // Issue 28: a weekly event series (the README names it).
    await seedDemoSeries(tx, tenantId);
    return { tenantId, organiserId, adminId, charityId };
  });
  // A past event's sales, refunds, check-ins and payout, through the use cases (they commit on their own).
  if (demo) await seedDemoHistory(deps, demo);
  return { seeded: true };
}

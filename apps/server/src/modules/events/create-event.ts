import { randomUUID } from 'node:crypto';
import { DEFAULT_COUNTRY, DEFAULT_TIME_ZONE, isReservedPath, M, type TEvent, urlNameFrom } from '@marquee/core';
import type { Deps } from '../../deps.js';
import type { TenantCtx } from '../../platform/auth/context.js';
import { isUniqueViolation } from '../../platform/db-errors.js';
import { AppError } from '../../platform/errors.js';
import { assertEventCharity } from '../charities/service.js';
import { assertEndAfterStart, assertRule, type EventInput, toColumns, urlNameTaken } from './event-input.js';
import { toEvent } from './event-view.js';
import * as repo from './repository.js';

export async function createEvent({ deps, ctx, input }: { deps: Deps; ctx: TenantCtx; input: EventInput }): Promise<TEvent> {
  const urlName = input.urlName ?? urlNameFrom(input.name);
  if (!urlName || isReservedPath(urlName)) {
    const message = urlName ? M.urlNameReserved : M.urlNameFormat;
    throw new AppError('VALIDATION', message, { 'details.urlName': message });
  }
  const columns = toColumns(input);
  assertEndAfterStart(columns.startDateTime, columns.endDateTime);
  await assertRule(deps.db, ctx.tenantId, input.surchargeRuleId);
  if (await repo.findEventByUrlName(deps.db, ctx.tenantId, urlName)) throw urlNameTaken();
  try {
    const row = await deps.db.transaction(async (tx) => {
      await assertEventCharity(tx, ctx.tenantId, input.charityId);
      return repo.insertEvent(tx, {
        timeZone: DEFAULT_TIME_ZONE,
        country: DEFAULT_COUNTRY,
        ...columns,
        tenantId: ctx.tenantId,
        id: randomUUID(),
        name: input.name,
        urlName,
        status: 'draft',
        capacity: input.capacity ?? null,
        remainingCapacity: input.capacity ?? null,
      });
    });
    return toEvent(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw urlNameTaken();
    throw err;
  }
}

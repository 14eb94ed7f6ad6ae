import { M, type ZCreateEventRequest, type ZUpdateEventRequest } from '@marquee/core';
import type { z } from 'zod';
import type { DbOrTx } from '../../db/client.js';
import { AppError } from '../../platform/errors.js';
import { cleanDescription } from './event-view.js';
import * as repo from './repository.js';

// What creating and editing an event share: the form's fields as columns, and their checks.

export type EventInput = z.output<typeof ZCreateEventRequest>['details'];
export type EventChanges = z.output<typeof ZUpdateEventRequest>['details'];

export function toColumns(d: EventChanges): Partial<repo.EventInsert> {
  const out: Partial<repo.EventInsert> = {};
  if (d.name !== undefined) out.name = d.name;
  if (d.urlName !== undefined) out.urlName = d.urlName;
  if (d.description !== undefined) out.description = cleanDescription(d.description);
  if (d.startDateTime !== undefined) out.startDateTime = d.startDateTime === null ? null : new Date(d.startDateTime);
  if (d.endDateTime !== undefined) out.endDateTime = d.endDateTime === null ? null : new Date(d.endDateTime);
  if (d.timeZone !== undefined) out.timeZone = d.timeZone;
  if (d.venueName !== undefined) out.venueName = d.venueName;
  if (d.address1 !== undefined) out.address1 = d.address1;
  if (d.city !== undefined) out.city = d.city;
  if (d.state !== undefined) out.state = d.state;
  if (d.zip !== undefined) out.zip = d.zip;
  if (d.country !== undefined) out.country = d.country;
  if (d.covidSafety !== undefined) out.covidSafetyEnabled = d.covidSafety;
  if (d.covidSafetyText !== undefined) out.covidSafetyText = d.covidSafetyText;
  if (d.emailDeliveryVerbiage !== undefined) out.emailDeliveryVerbiage = d.emailDeliveryVerbiage;
  if (d.charityId !== undefined) out.charityId = d.charityId;
  if (d.surchargeRuleId !== undefined) out.surchargeRuleId = d.surchargeRuleId;
  return out;
}

export const urlNameTaken = () => new AppError('CONFLICT', M.urlNameTaken, { 'details.urlName': M.urlNameTaken });

export function assertEndAfterStart(start: Date | null | undefined, end: Date | null | undefined) {
  if (start && end && end <= start) throw new AppError('VALIDATION', M.salesWindowOrder, { 'details.endDateTime': M.salesWindowOrder });
}

export async function assertRule(db: DbOrTx, tenantId: string, ruleId: string | null | undefined) {
  if (ruleId && !(await repo.isActiveSurchargeRule(db, tenantId, ruleId))) {
    throw new AppError('VALIDATION', M.surchargeRuleInvalid, { 'details.surchargeRuleId': M.surchargeRuleInvalid });
  }
}

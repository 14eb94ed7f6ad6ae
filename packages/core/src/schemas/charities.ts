import { z } from 'zod';
import { M } from '../messages.js';
import { zListResponse } from './list.js';

// spec: accounts-admin-fees §3 Charity, §4 charity status, §5 Charity, §7 templates and charities.

export const CHARITY_STATUSES = ['active', 'inactive'] as const;
export type CharityStatus = (typeof CHARITY_STATUSES)[number];

/** spec: accounts §5 and §9: zip max length 5. */
export const CHARITY_ZIP_MAX = 5;

/** spec §5: street, city, state and zip code required ('This field is required'). */
const required = (max: number, tooLong: string = M.invalidValue) =>
  z.string({ error: M.fieldRequired }).trim().min(1, M.fieldRequired).max(max, tooLong);

/** The fields of spec §7's charityRequest, as the platform console writes them. */
export const ZCharityFields = z.object({
  name: z.string({ error: M.charityName }).trim().min(1, M.charityName).max(200, M.invalidValue),
  status: z.enum(CHARITY_STATUSES, { error: M.charityStatusRequired }),
  street: required(200),
  city: required(100),
  state: required(100),
  zip_code: required(CHARITY_ZIP_MAX, M.zipMax),
});
export type TCharityFields = z.input<typeof ZCharityFields>;

/** spec §7: create and update send charityRequest{name, status, street, city, state, zip_code}. */
export const ZCharityRequest = z.object({ charityRequest: ZCharityFields });
export type TCharityRequest = z.input<typeof ZCharityRequest>;

/** spec §7: create returns the new charity's id. */
export const ZCreateCharityResponse = z.object({ id: z.string() });

/** spec §7: POST /platform/charities/{charityId}/assign or /unassign with {tenantId}. */
export const ZCharityAssignRequest = z.object({
  tenantId: z.string({ error: M.tenantIdRequired }).trim().min(1, M.tenantIdRequired).max(100, M.invalidValue),
});
export type TCharityAssignRequest = z.input<typeof ZCharityAssignRequest>;

const charityDetails = {
  name: z.string(),
  status: z.enum(CHARITY_STATUSES),
  street: z.string(),
  city: z.string(),
  state: z.string(),
  zip_code: z.string(),
};

/** spec §3 Charity: id, details{name, status, street, city, state, zip_code}. */
export const ZCharity = z.object({
  id: z.string(),
  details: z.object({ ...charityDetails, dateCreated: z.string(), dateModified: z.string() }),
});
export type TCharity = z.infer<typeof ZCharity>;
export const ZCharityList = zListResponse(ZCharity);

/** The tenant console's list: the active charities, each with whether this tenant enabled it. */
export const ZTenantCharity = z.object({
  id: z.string(),
  details: z.object({ ...charityDetails, enabled: z.boolean() }),
});
export type TTenantCharity = z.infer<typeof ZTenantCharity>;
export const ZTenantCharityList = zListResponse(ZTenantCharity);

/** What the attendee site reads of an event's charity. */
export const ZPublicCharity = z.object({ id: z.string(), name: z.string() });
export type TPublicCharity = z.infer<typeof ZPublicCharity>;

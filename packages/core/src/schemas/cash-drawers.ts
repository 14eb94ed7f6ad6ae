import { z } from 'zod';
import { M } from '../messages.js';
import { zListResponse, zResource } from './list.js';

// Issue 23 part B: a cash drawer per staff member and shift (docs/box-office.md "Cash drawers").
// Amounts are integer cents; dates ISO strings. The drawer's owner opens and closes it; the
// tenant's admins see every drawer.

export const DRAWER_STATUSES = ['open', 'closed'] as const;
export type DrawerStatus = (typeof DRAWER_STATUSES)[number];

/** Largest amount a drawer field takes: $1,000,000.00. */
export const DRAWER_MAX_CENTS = 100_000_000;

const zCents = (required: string) =>
  z.number({ error: required }).int(M.drawerAmountInvalid).min(0, M.drawerAmountInvalid).max(DRAWER_MAX_CENTS, M.drawerAmountInvalid);

export const ZOpenDrawerRequest = z.object({
  details: z.object({ openingFloat: zCents(M.drawerOpeningFloatRequired) }),
});
export type TOpenDrawerRequest = z.infer<typeof ZOpenDrawerRequest>;

export const ZCloseDrawerRequest = z.object({
  details: z.object({
    countedAmount: zCents(M.drawerCountedRequired),
    note: z.string().trim().max(500, M.drawerNoteTooLong).optional().default(''),
  }),
});
export type TCloseDrawerRequest = z.input<typeof ZCloseDrawerRequest>;

/** A cash movement of a drawer: a cash sale (positive) or cash handed back for a refund (negative). */
export const ZDrawerMovement = z.object({
  id: z.string(),
  kind: z.enum(['sale', 'refund']),
  orderId: z.string(),
  orderUID: z.string(),
  amount: z.number().int(),
  createdAt: z.string(),
});
export type TDrawerMovement = z.infer<typeof ZDrawerMovement>;

export const ZCashDrawerDetails = z.object({
  status: z.enum(DRAWER_STATUSES),
  userId: z.string(),
  staffName: z.string(),
  staffEmail: z.string(),
  openedAt: z.string(),
  closedAt: z.string().nullable(),
  openingFloat: z.number().int(),
  /** Sum of the cash sales taken into the drawer. */
  cashSales: z.number().int(),
  /** Sum of the cash handed back for refunds (a positive number, taken out of the drawer). */
  cashRefunds: z.number().int(),
  /** openingFloat + cashSales - cashRefunds: what should be in the drawer now (frozen at close). */
  expectedCash: z.number().int(),
  /** What the staff member counted at close; null while open. */
  countedAmount: z.number().int().nullable(),
  /** countedAmount - expectedCash (negative: short, positive: over); null while open. */
  difference: z.number().int().nullable(),
  note: z.string(),
  salesCount: z.number().int(),
  refundsCount: z.number().int(),
});
export const ZCashDrawer = zResource(ZCashDrawerDetails);
export type TCashDrawer = z.infer<typeof ZCashDrawer>;

export const ZCashDrawerDetail = zResource(ZCashDrawerDetails.extend({ movements: z.array(ZDrawerMovement) }));
export type TCashDrawerDetail = z.infer<typeof ZCashDrawerDetail>;

export const ZCashDrawerList = zListResponse(ZCashDrawer);
export type TCashDrawerList = z.infer<typeof ZCashDrawerList>;

/** The caller's own open drawer, or null. */
export const ZCurrentDrawer = z.object({ drawer: ZCashDrawerDetail.nullable() });
export type TCurrentDrawer = z.infer<typeof ZCurrentDrawer>;

const t = (tenantId: string) => `/api/tenants/${encodeURIComponent(tenantId)}`;
export const DRAWER_PATHS = {
  list: (tenantId: string) => `${t(tenantId)}/cash-drawers`,
  current: (tenantId: string) => `${t(tenantId)}/cash-drawers/current`,
  drawer: (tenantId: string, drawerId: string) => `${t(tenantId)}/cash-drawers/${encodeURIComponent(drawerId)}`,
  close: (tenantId: string, drawerId: string) => `${t(tenantId)}/cash-drawers/${encodeURIComponent(drawerId)}/close`,
  csv: (tenantId: string) => `${t(tenantId)}/cash-drawers/export.csv`,
};

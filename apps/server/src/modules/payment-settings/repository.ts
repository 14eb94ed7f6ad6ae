import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { paymentAccounts, paymentSettings } from '../../db/schema/index.js';

export type PaymentSettingsRow = typeof paymentSettings.$inferSelect;
export type PaymentSettingsValues = Omit<typeof paymentSettings.$inferInsert, 'tenantId' | 'createdAt' | 'updatedAt'>;

export async function findPaymentSettings(db: DbOrTx, tenantId: string): Promise<PaymentSettingsRow | undefined> {
  const [row] = await db.select().from(paymentSettings).where(eq(paymentSettings.tenantId, tenantId));
  return row;
}

export async function insertPaymentSettings(db: DbOrTx, tenantId: string, values: PaymentSettingsValues) {
  await db.insert(paymentSettings).values({ tenantId, ...values });
}

export async function upsertPaymentSettings(db: DbOrTx, tenantId: string, values: PaymentSettingsValues) {
  await db
    .insert(paymentSettings)
    .values({ tenantId, ...values })
    .onConflictDoUpdate({ target: paymentSettings.tenantId, set: { ...values, updatedAt: new Date() } });
}

// ---- connected accounts (payment-account.ts) ----------------------------------------------------

export type PaymentAccountRow = typeof paymentAccounts.$inferSelect;

export async function findPaymentAccount(db: DbOrTx, tenantId: string, provider: string): Promise<PaymentAccountRow | undefined> {
  const [row] = await db.select().from(paymentAccounts).where(and(eq(paymentAccounts.tenantId, tenantId), eq(paymentAccounts.provider, provider)));
  return row;
}

/** Writes the tenant's account once; a second writer (another operator at the same moment) reads the first's. */
export async function insertPaymentAccount(db: DbOrTx, row: { tenantId: string; provider: string; accountId: string; createdBy: string | null }): Promise<PaymentAccountRow> {
  await db.insert(paymentAccounts).values(row).onConflictDoNothing();
  const found = await findPaymentAccount(db, row.tenantId, row.provider);
  if (!found) throw new Error('payment account vanished');
  return found;
}

export async function updatePaymentAccountStatus(
  db: DbOrTx,
  p: { tenantId: string; provider: string; accountId: string; detailsSubmitted: boolean; payoutsEnabled: boolean },
) {
  const now = new Date();
  await db
    .update(paymentAccounts)
    .set({ detailsSubmitted: p.detailsSubmitted, payoutsEnabled: p.payoutsEnabled, checkedAt: now, updatedAt: now })
    .where(and(eq(paymentAccounts.tenantId, p.tenantId), eq(paymentAccounts.provider, p.provider), eq(paymentAccounts.accountId, p.accountId)));
}

/** The account payouts go to (spec payment.id; the transfer's destination). */
export async function setPayoutDestination(db: DbOrTx, tenantId: string, accountId: string) {
  await db.update(paymentSettings).set({ paymentRef: accountId, updatedAt: new Date() }).where(eq(paymentSettings.tenantId, tenantId));
}

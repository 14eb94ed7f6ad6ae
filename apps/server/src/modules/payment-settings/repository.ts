import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { paymentSettings } from '../../db/schema/index.js';

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

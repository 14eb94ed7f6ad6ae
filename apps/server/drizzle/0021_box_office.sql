ALTER TABLE "orders" ADD COLUMN "sold_by" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "terminal_reference" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cash_tendered" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD COLUMN "sold_at" text DEFAULT 'BOTH' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_idempotency_key" ON "orders" USING btree ("tenant_id","idempotency_key") WHERE idempotency_key is not null;--> statement-breakpoint
CREATE INDEX "orders_sold_by_idx" ON "orders" USING btree ("tenant_id","sold_by") WHERE sold_by is not null;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_sold_at_known" CHECK ("ticket_types"."sold_at" in ('BOTH', 'ONLINE', 'BOX_OFFICE'));
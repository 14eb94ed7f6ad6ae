ALTER TABLE "orders" ADD COLUMN "sold_by" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "terminal_reference" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "cash_tendered" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD COLUMN "sold_at" text DEFAULT 'BOTH' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "orders_idempotency_key" ON "orders" USING btree ("tenant_id","idempotency_key") WHERE idempotency_key is not null;--> statement-breakpoint
CREATE INDEX "orders_sold_by_idx" ON "orders" USING btree ("tenant_id","sold_by") WHERE sold_by is not null;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_sold_at_known" CHECK ("ticket_types"."sold_at" in ('BOTH', 'ONLINE', 'BOX_OFFICE'));--> statement-breakpoint
-- Cash drawers (issue 23 part B), merged into this migration when the branches were joined
CREATE TABLE "cash_drawer_movements" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"drawer_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"order_id" uuid NOT NULL,
	"refund_id" uuid,
	"amount" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cash_drawer_movements_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "cash_drawer_movements_kind" CHECK (("cash_drawer_movements"."kind" = 'sale' and "cash_drawer_movements"."amount" > 0 and "cash_drawer_movements"."refund_id" is null) or ("cash_drawer_movements"."kind" = 'refund' and "cash_drawer_movements"."amount" < 0 and "cash_drawer_movements"."refund_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "cash_drawers" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"staff_name" text DEFAULT '' NOT NULL,
	"staff_email" text DEFAULT '' NOT NULL,
	"opening_float" integer NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	"closed_at" timestamp with time zone,
	"expected_cash" integer,
	"counted_amount" integer,
	"difference" integer,
	"note" text DEFAULT '' NOT NULL,
	CONSTRAINT "cash_drawers_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "cash_drawers_float_nonneg" CHECK ("cash_drawers"."opening_float" >= 0),
	CONSTRAINT "cash_drawers_closed_complete" CHECK (("cash_drawers"."closed_at" is null and "cash_drawers"."counted_amount" is null and "cash_drawers"."expected_cash" is null and "cash_drawers"."difference" is null) or ("cash_drawers"."closed_at" is not null and "cash_drawers"."counted_amount" >= 0 and "cash_drawers"."expected_cash" is not null and "cash_drawers"."difference" = "cash_drawers"."counted_amount" - "cash_drawers"."expected_cash"))
);
--> statement-breakpoint
ALTER TABLE "payout_lines" DROP CONSTRAINT "payout_lines_kind";--> statement-breakpoint
ALTER TABLE "payout_lines" DROP CONSTRAINT "payout_lines_signs";--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "refund_method" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD COLUMN "terminal_reference" text;--> statement-breakpoint
CREATE INDEX "cash_drawer_movements_drawer_idx" ON "cash_drawer_movements" USING btree ("tenant_id","drawer_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "cash_drawer_movements_sale_key" ON "cash_drawer_movements" USING btree ("order_id") WHERE kind = 'sale';--> statement-breakpoint
CREATE UNIQUE INDEX "cash_drawer_movements_refund_key" ON "cash_drawer_movements" USING btree ("refund_id");--> statement-breakpoint
CREATE UNIQUE INDEX "cash_drawers_id_key" ON "cash_drawers" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "cash_drawers_one_open" ON "cash_drawers" USING btree ("tenant_id","user_id") WHERE closed_at is null;--> statement-breakpoint
CREATE INDEX "cash_drawers_tenant_idx" ON "cash_drawers" USING btree ("tenant_id","opened_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_lines_netting_key" ON "payout_lines" USING btree ("order_id") WHERE kind = 'netting' and refund_id is null;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_method" CHECK ("refunds"."refund_method" is null or ("refunds"."refund_method" = 'cash' and "refunds"."terminal_reference" is null) or ("refunds"."refund_method" = 'card_terminal' and "refunds"."terminal_reference" is not null));--> statement-breakpoint
ALTER TABLE "payout_lines" ADD CONSTRAINT "payout_lines_kind" CHECK ("payout_lines"."kind" in ('sale', 'refund', 'netting') and ("payout_lines"."kind" <> 'sale' or "payout_lines"."refund_id" is null) and ("payout_lines"."kind" <> 'refund' or "payout_lines"."refund_id" is not null));--> statement-breakpoint
ALTER TABLE "payout_lines" ADD CONSTRAINT "payout_lines_signs" CHECK (("payout_lines"."kind" = 'sale' and "payout_lines"."tenant_total" >= 0 and "payout_lines"."platform_total" >= 0 and "payout_lines"."gateway_fee" >= 0) or ("payout_lines"."kind" = 'refund' and "payout_lines"."tenant_total" <= 0 and "payout_lines"."platform_total" <= 0 and "payout_lines"."gateway_fee" = 0) or ("payout_lines"."kind" = 'netting' and "payout_lines"."gross_amount" = 0 and "payout_lines"."gateway_fee" = 0));
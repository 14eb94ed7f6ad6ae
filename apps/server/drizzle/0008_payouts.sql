CREATE TABLE "payout_holds" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"hold" boolean NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"user_id" uuid,
	"user_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_holds_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "payout_lines" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"refund_id" uuid,
	"gross_amount" integer NOT NULL,
	"gateway_fee" integer NOT NULL,
	"tenant_total" integer NOT NULL,
	"platform_total" integer NOT NULL,
	"net_amount" integer NOT NULL,
	"facilitator" text NOT NULL,
	"charge_gateway_fees_to_platform" boolean NOT NULL,
	"balance_available_on" timestamp with time zone NOT NULL,
	"on_hold" boolean DEFAULT false NOT NULL,
	"payout_id" uuid,
	"payout_completed_at" timestamp with time zone,
	"last_failure" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_lines_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "payout_lines_kind" CHECK ("payout_lines"."kind" in ('sale', 'refund') and ("payout_lines"."kind" = 'sale') = ("payout_lines"."refund_id" is null)),
	CONSTRAINT "payout_lines_facilitator" CHECK ("payout_lines"."facilitator" in ('platform', 'tenant')),
	CONSTRAINT "payout_lines_adds_up" CHECK ("payout_lines"."gross_amount" = "payout_lines"."tenant_total" + "payout_lines"."platform_total" + "payout_lines"."gateway_fee" and "payout_lines"."net_amount" = "payout_lines"."gross_amount" - "payout_lines"."gateway_fee"),
	CONSTRAINT "payout_lines_signs" CHECK (("payout_lines"."kind" = 'sale' and "payout_lines"."tenant_total" >= 0 and "payout_lines"."platform_total" >= 0 and "payout_lines"."gateway_fee" >= 0) or ("payout_lines"."kind" = 'refund' and "payout_lines"."tenant_total" <= 0 and "payout_lines"."platform_total" <= 0 and "payout_lines"."gateway_fee" = 0)),
	CONSTRAINT "payout_lines_completed_in_payout" CHECK ("payout_lines"."payout_completed_at" is null or "payout_lines"."payout_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "payout_settings" (
	"id" text PRIMARY KEY NOT NULL,
	"weekly_automatic" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"status" text NOT NULL,
	"amount" integer NOT NULL,
	"gross_amount" integer NOT NULL,
	"gateway_fee" integer NOT NULL,
	"net_amount" integer NOT NULL,
	"tenant_total" integer NOT NULL,
	"platform_total" integer NOT NULL,
	"charge_gateway_fees_to_platform" boolean NOT NULL,
	"destination" text,
	"transfer_id" text,
	"failure" text,
	"automatic" boolean DEFAULT false NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "payouts_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "payouts_status" CHECK ("payouts"."status" in ('sending', 'completed', 'failed')),
	CONSTRAINT "payouts_amount_pos" CHECK ("payouts"."amount" > 0),
	CONSTRAINT "payouts_completed_has_transfer" CHECK ("payouts"."status" <> 'completed' or "payouts"."transfer_id" is not null)
);
--> statement-breakpoint
CREATE TABLE "test_transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"destination" text NOT NULL,
	"amount" integer NOT NULL,
	"transfer_group" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "payout_holds_order_idx" ON "payout_holds" USING btree ("tenant_id","order_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_lines_id_key" ON "payout_lines" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "payout_lines_sale_key" ON "payout_lines" USING btree ("order_id") WHERE kind = 'sale';--> statement-breakpoint
CREATE UNIQUE INDEX "payout_lines_refund_key" ON "payout_lines" USING btree ("refund_id");--> statement-breakpoint
CREATE INDEX "payout_lines_open_idx" ON "payout_lines" USING btree ("tenant_id","balance_available_on") WHERE payout_completed_at is null;--> statement-breakpoint
CREATE INDEX "payout_lines_payout_idx" ON "payout_lines" USING btree ("tenant_id","payout_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_id_key" ON "payouts" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_transfer_key" ON "payouts" USING btree ("transfer_id");--> statement-breakpoint
CREATE INDEX "payouts_tenant_idx" ON "payouts" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "payouts_sending_idx" ON "payouts" USING btree ("created_at") WHERE status = 'sending';--> statement-breakpoint
CREATE UNIQUE INDEX "test_transfers_idempotency_key" ON "test_transfers" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "test_transfers_group_idx" ON "test_transfers" USING btree ("transfer_group");
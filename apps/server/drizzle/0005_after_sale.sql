CREATE TABLE "order_actions" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"ticket_id" uuid,
	"action" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"user_id" uuid,
	"user_email" text,
	"details" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_actions_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "refunds" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"tenant_amount" integer DEFAULT 0 NOT NULL,
	"platform_amount" integer DEFAULT 0 NOT NULL,
	"kind" text NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"provider" text,
	"charge_id" text,
	"provider_refund_id" text,
	"failure_reason" text,
	"ticket_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "refunds_amount_pos" CHECK ("refunds"."amount" > 0),
	CONSTRAINT "refunds_split" CHECK ("refunds"."tenant_amount" + "refunds"."platform_amount" = "refunds"."amount")
);
--> statement-breakpoint
CREATE TABLE "report_exports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid,
	"kind" text NOT NULL,
	"params" text DEFAULT '{}' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"row_count" integer DEFAULT 0 NOT NULL,
	"total_rows" integer,
	"file_key" text,
	"file_name" text NOT NULL,
	"error" text,
	"requested_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "voided_by" uuid;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "used_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "order_actions_order_idx" ON "order_actions" USING btree ("tenant_id","order_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_id_key" ON "refunds" USING btree ("id");--> statement-breakpoint
CREATE INDEX "refunds_order_idx" ON "refunds" USING btree ("tenant_id","order_id");--> statement-breakpoint
CREATE INDEX "refunds_event_idx" ON "refunds" USING btree ("tenant_id","event_id","created_at");--> statement-breakpoint
CREATE INDEX "refunds_tenant_idx" ON "refunds" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_provider_refund_key" ON "refunds" USING btree ("provider","provider_refund_id");--> statement-breakpoint
CREATE INDEX "report_exports_requested_idx" ON "report_exports" USING btree ("requested_by","created_at");
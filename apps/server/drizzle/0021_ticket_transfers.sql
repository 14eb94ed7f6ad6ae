CREATE TABLE "event_transfer_settings" (
	"tenant_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"allowed" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid,
	CONSTRAINT "event_transfer_settings_tenant_id_event_id_pk" PRIMARY KEY("tenant_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "ticket_transfers" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"ticket_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"from_uid" text NOT NULL,
	"to_uid" text NOT NULL,
	"from_name" text NOT NULL,
	"from_email" text NOT NULL,
	"to_name" text NOT NULL,
	"to_email" text NOT NULL,
	"link_hash" text NOT NULL,
	"via" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ticket_transfers_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "event_transfer_settings" ADD CONSTRAINT "event_transfer_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_transfers" ADD CONSTRAINT "ticket_transfers_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_transfers_from_uid_key" ON "ticket_transfers" USING btree ("from_uid");--> statement-breakpoint
CREATE UNIQUE INDEX "ticket_transfers_link_key" ON "ticket_transfers" USING btree ("link_hash");--> statement-breakpoint
CREATE INDEX "ticket_transfers_ticket_idx" ON "ticket_transfers" USING btree ("tenant_id","ticket_id");--> statement-breakpoint
CREATE INDEX "ticket_transfers_event_idx" ON "ticket_transfers" USING btree ("tenant_id","event_id");
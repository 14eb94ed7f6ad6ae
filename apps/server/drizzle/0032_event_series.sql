CREATE TABLE "event_series" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"url_name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"time_zone" text NOT NULL,
	"venue_name" text DEFAULT '' NOT NULL,
	"capacity" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_series_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "series_ticket_types" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"series_id" uuid NOT NULL,
	"name" text NOT NULL,
	"price" integer NOT NULL,
	"quantity" integer NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "series_ticket_types_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "series_id" uuid;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD COLUMN "series_ticket_type_id" uuid;--> statement-breakpoint
ALTER TABLE "event_series" ADD CONSTRAINT "event_series_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "event_series_url_name_key" ON "event_series" USING btree ("tenant_id","url_name");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_series_fk" FOREIGN KEY ("tenant_id","series_id") REFERENCES "public"."event_series"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_types" ADD CONSTRAINT "ticket_types_series_tt_fk" FOREIGN KEY ("tenant_id","series_ticket_type_id") REFERENCES "public"."series_ticket_types"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_series_idx" ON "events" USING btree ("tenant_id","series_id","start_date_time");
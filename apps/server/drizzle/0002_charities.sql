-- Charities (docs/decisions.md, "Charities"): the platform's charities, the ones each tenant enabled, and
-- the event's charity as a reference to one of its tenant's enabled charities.
CREATE TABLE "charities" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"street" text NOT NULL,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"zip_code" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "charities_status" CHECK ("charities"."status" in ('active', 'inactive'))
);
--> statement-breakpoint
CREATE TABLE "tenant_charities" (
	"tenant_id" uuid NOT NULL,
	"charity_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tenant_charities_tenant_id_charity_id_pk" PRIMARY KEY("tenant_id","charity_id")
);
--> statement-breakpoint
-- Edited by hand: events.charity_id was free text that no table backed, so no value in it can name a
-- charity; it becomes a uuid referencing the tenant's enabled charities (events_charity_fk below).
ALTER TABLE "events" ALTER COLUMN "charity_id" SET DATA TYPE uuid USING NULL;--> statement-breakpoint
ALTER TABLE "tenant_charities" ADD CONSTRAINT "tenant_charities_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_charities" ADD CONSTRAINT "tenant_charities_charity_id_charities_id_fk" FOREIGN KEY ("charity_id") REFERENCES "public"."charities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "charities_name_idx" ON "charities" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "tenant_charities_charity_idx" ON "tenant_charities" USING btree ("charity_id");--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_charity_fk" FOREIGN KEY ("tenant_id","charity_id") REFERENCES "public"."tenant_charities"("tenant_id","charity_id") ON DELETE no action ON UPDATE no action;
CREATE TABLE "apple_pass_registrations" (
	"tenant_id" uuid NOT NULL,
	"device_library_id" text NOT NULL,
	"pass_type_id" text NOT NULL,
	"serial_number" text NOT NULL,
	"event_id" uuid NOT NULL,
	"push_token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "apple_pass_registrations_tenant_id_device_library_id_pass_type_id_serial_number_pk" PRIMARY KEY("tenant_id","device_library_id","pass_type_id","serial_number")
);
--> statement-breakpoint
CREATE TABLE "apple_pass_versions" (
	"tenant_id" uuid NOT NULL,
	"serial_number" text NOT NULL,
	"digest" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "apple_pass_versions_tenant_id_serial_number_pk" PRIMARY KEY("tenant_id","serial_number")
);
--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "brand_color" text;--> statement-breakpoint
ALTER TABLE "apple_pass_registrations" ADD CONSTRAINT "apple_pass_registrations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apple_pass_versions" ADD CONSTRAINT "apple_pass_versions_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "apple_pass_registrations_serial" ON "apple_pass_registrations" USING btree ("tenant_id","serial_number");--> statement-breakpoint
CREATE INDEX "apple_pass_registrations_event" ON "apple_pass_registrations" USING btree ("tenant_id","event_id");
CREATE TABLE "checkin_scans" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"ticket_id" uuid,
	"client_scan_id" uuid,
	"device_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"result" text NOT NULL,
	"undone_of" uuid,
	"scanned_at" timestamp with time zone NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"details" text,
	CONSTRAINT "checkin_scans_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "used_by_device" text;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "used_by_user" uuid;--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "used_by_scan" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "checkin_scans_client_scan_key" ON "checkin_scans" USING btree ("tenant_id","client_scan_id");--> statement-breakpoint
CREATE UNIQUE INDEX "checkin_scans_undone_of_key" ON "checkin_scans" USING btree ("tenant_id","undone_of");--> statement-breakpoint
CREATE INDEX "checkin_scans_event_idx" ON "checkin_scans" USING btree ("tenant_id","event_id","recorded_at");--> statement-breakpoint
CREATE INDEX "checkin_scans_ticket_idx" ON "checkin_scans" USING btree ("tenant_id","ticket_id");
CREATE TABLE "waitlist_entries" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"ticket_type_id" uuid NOT NULL,
	"seq" bigserial NOT NULL,
	"email" text NOT NULL,
	"quantity" integer NOT NULL,
	"state" text DEFAULT 'waiting' NOT NULL,
	"offered_quantity" integer,
	"offer_order_id" uuid,
	"claim_token_hash" text,
	"offered_at" timestamp with time zone,
	"offer_expires_at" timestamp with time zone,
	"claimed_order_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waitlist_entries_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "waitlist_entries_quantity" CHECK ("waitlist_entries"."quantity" >= 1),
	CONSTRAINT "waitlist_entries_state" CHECK ("waitlist_entries"."state" in ('waiting', 'offered', 'claimed', 'expired', 'removed'))
);
--> statement-breakpoint
CREATE TABLE "waitlist_settings" (
	"tenant_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"offer_minutes" integer DEFAULT 60 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "waitlist_settings_tenant_id_event_id_pk" PRIMARY KEY("tenant_id","event_id"),
	CONSTRAINT "waitlist_settings_offer_minutes" CHECK ("waitlist_settings"."offer_minutes" between 5 and 10080)
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "waitlist_entry_id" uuid;--> statement-breakpoint
ALTER TABLE "waitlist_entries" ADD CONSTRAINT "waitlist_entries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "waitlist_settings" ADD CONSTRAINT "waitlist_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "waitlist_entries_queue" ON "waitlist_entries" USING btree ("tenant_id","event_id","state","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "waitlist_entries_one_live" ON "waitlist_entries" USING btree ("tenant_id","ticket_type_id",lower("email")) WHERE "waitlist_entries"."state" in ('waiting', 'offered');--> statement-breakpoint
CREATE INDEX "orders_waitlist_entry_idx" ON "orders" USING btree ("tenant_id","waitlist_entry_id") WHERE waitlist_entry_id is not null;--> statement-breakpoint
-- Issue 24: tickets that come back (a hold that runs out, a refund, a void, a capacity increase)
-- queue the waiting list's offer round (job 'waitlist.offer', modules/waitlist/offer-round.ts) in
-- the same transaction, wherever the release happened, when the event has someone waiting and no
-- round is queued and not yet started. docs/waiting-list.md.
CREATE INDEX "jobs_waitlist_pending" ON "jobs" USING btree (((payload->>'eventId'))) WHERE name = 'waitlist.offer' AND done_at IS NULL AND failed_at IS NULL;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "mq_waitlist_tickets_back"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_event uuid;
BEGIN
  IF TG_TABLE_NAME = 'events' THEN v_event := NEW.id; ELSE v_event := NEW.event_id; END IF;
  IF EXISTS (SELECT 1 FROM waitlist_entries w WHERE w.tenant_id = NEW.tenant_id AND w.event_id = v_event AND w.state = 'waiting')
     AND NOT EXISTS (SELECT 1 FROM jobs j
               WHERE j.name = 'waitlist.offer' AND j.done_at IS NULL AND j.failed_at IS NULL AND j.locked_until IS NULL
                 AND j.payload->>'eventId' = v_event::text) THEN
    INSERT INTO jobs (name, payload, run_at)
      VALUES ('waitlist.offer', jsonb_build_object('tenantId', NEW.tenant_id, 'eventId', v_event), now());
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "ticket_types_waitlist_back" AFTER UPDATE OF "remaining" ON "ticket_types"
  FOR EACH ROW WHEN (NEW.remaining > OLD.remaining) EXECUTE FUNCTION "mq_waitlist_tickets_back"();--> statement-breakpoint
CREATE TRIGGER "events_waitlist_back" AFTER UPDATE OF "remaining_capacity" ON "events"
  FOR EACH ROW WHEN (NEW.remaining_capacity IS DISTINCT FROM OLD.remaining_capacity
                     AND (NEW.remaining_capacity IS NULL OR NEW.remaining_capacity > OLD.remaining_capacity))
  EXECUTE FUNCTION "mq_waitlist_tickets_back"();

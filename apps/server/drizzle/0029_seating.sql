CREATE TABLE "event_seat_categories" (
	"tenant_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"category" text NOT NULL,
	"ticket_type_id" uuid NOT NULL,
	CONSTRAINT "event_seat_categories_tenant_id_event_id_category_pk" PRIMARY KEY("tenant_id","event_id","category")
);
--> statement-breakpoint
CREATE TABLE "event_seating" (
	"tenant_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"layout_id" uuid NOT NULL,
	"layout_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_seating_tenant_id_event_id_pk" PRIMARY KEY("tenant_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "event_seats" (
	"tenant_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"n" integer NOT NULL,
	"section" text NOT NULL,
	"row_label" text NOT NULL,
	"seat_label" text NOT NULL,
	"label" text NOT NULL,
	"row_key" integer NOT NULL,
	"seat_index" integer NOT NULL,
	"x" real NOT NULL,
	"y" real NOT NULL,
	"category" text NOT NULL,
	"ticket_type_id" uuid,
	"accessible" boolean DEFAULT false NOT NULL,
	"companion" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"score" integer NOT NULL,
	"hold_id" uuid,
	"order_id" uuid,
	"ticket_id" uuid,
	CONSTRAINT "event_seats_tenant_id_event_id_n_pk" PRIMARY KEY("tenant_id","event_id","n"),
	CONSTRAINT "event_seats_one_holder" CHECK ("event_seats"."hold_id" is null or "event_seats"."order_id" is null),
	CONSTRAINT "event_seats_status" CHECK ("event_seats"."status" in ('open', 'blocked', 'kept')),
	CONSTRAINT "event_seats_closed_free" CHECK ("event_seats"."status" = 'open' or ("event_seats"."hold_id" is null and "event_seats"."order_id" is null))
);
--> statement-breakpoint
CREATE TABLE "seat_holds" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"status" text DEFAULT 'live' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"order_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "seat_holds_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "seat_holds_status" CHECK ("seat_holds"."status" in ('live', 'released', 'sold'))
);
--> statement-breakpoint
CREATE TABLE "venue_layouts" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "venue_layouts_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "venue_seat_flags" (
	"tenant_id" uuid NOT NULL,
	"layout_id" uuid NOT NULL,
	"seat_key" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"accessible" boolean DEFAULT false NOT NULL,
	"companion" boolean DEFAULT false NOT NULL,
	CONSTRAINT "venue_seat_flags_tenant_id_layout_id_seat_key_pk" PRIMARY KEY("tenant_id","layout_id","seat_key"),
	CONSTRAINT "venue_seat_flags_status" CHECK ("venue_seat_flags"."status" in ('open', 'blocked', 'kept'))
);
--> statement-breakpoint
CREATE TABLE "venue_sections" (
	"tenant_id" uuid NOT NULL,
	"layout_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"category" text NOT NULL,
	"rows" integer NOT NULL,
	"seats_per_row" integer NOT NULL,
	"row_labels" text NOT NULL,
	"first_row" integer DEFAULT 1 NOT NULL,
	"numbering" text NOT NULL,
	"aisle_after" text DEFAULT '' NOT NULL,
	"curve" integer DEFAULT 0 NOT NULL,
	"angle" integer DEFAULT 0 NOT NULL,
	"x" integer DEFAULT 0 NOT NULL,
	"y" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "venue_sections_tenant_id_layout_id_position_pk" PRIMARY KEY("tenant_id","layout_id","position")
);
--> statement-breakpoint
ALTER TABLE "tickets" ADD COLUMN "seat_label" text;--> statement-breakpoint
CREATE UNIQUE INDEX "event_seats_label_key" ON "event_seats" USING btree ("tenant_id","event_id","section","row_label","seat_label");--> statement-breakpoint
CREATE UNIQUE INDEX "event_seats_ticket_key" ON "event_seats" USING btree ("tenant_id","ticket_id");--> statement-breakpoint
CREATE INDEX "event_seats_hold_idx" ON "event_seats" USING btree ("tenant_id","hold_id");--> statement-breakpoint
CREATE INDEX "event_seats_order_idx" ON "event_seats" USING btree ("tenant_id","order_id");--> statement-breakpoint
CREATE INDEX "event_seats_free_idx" ON "event_seats" USING btree ("tenant_id","event_id","ticket_type_id","score") WHERE "event_seats"."status" = 'open' and "event_seats"."hold_id" is null and "event_seats"."order_id" is null;--> statement-breakpoint
CREATE INDEX "seat_holds_order_idx" ON "seat_holds" USING btree ("tenant_id","order_id");--> statement-breakpoint
CREATE INDEX "seat_holds_live_idx" ON "seat_holds" USING btree ("expires_at") WHERE "seat_holds"."status" = 'live';--> statement-breakpoint
-- Issue 27: the seats follow their order without the checkout's code knowing (docs/decisions.md
-- "Issue 27.1"). When an order is paid (draft or expired -> processing/completed), the seats its
-- live seat hold keeps become the order's (hold_id -> order_id) and the hold is 'sold'. Lock order:
-- the order (its UPDATE) first, then its seat holds, then their seats.
CREATE OR REPLACE FUNCTION "mq_seats_order_paid"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM seat_holds h WHERE h.tenant_id = NEW.tenant_id AND h.order_id = NEW.id AND h.status = 'live' ORDER BY h.id FOR UPDATE;
  IF FOUND THEN
    UPDATE event_seats s SET hold_id = NULL, order_id = NEW.id
      FROM seat_holds h
      WHERE h.tenant_id = NEW.tenant_id AND h.order_id = NEW.id AND h.status = 'live'
        AND s.tenant_id = h.tenant_id AND s.event_id = h.event_id AND s.hold_id = h.id;
    UPDATE seat_holds h SET status = 'sold' WHERE h.tenant_id = NEW.tenant_id AND h.order_id = NEW.id AND h.status = 'live';
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "orders_paid_seats" AFTER UPDATE OF "status" ON "orders"
  FOR EACH ROW WHEN (NEW.status IN ('processing', 'completed') AND OLD.status NOT IN ('processing', 'completed'))
  EXECUTE FUNCTION "mq_seats_order_paid"();
--> statement-breakpoint
-- A ticket issued for an order with seats takes the next of its ticket type's seats (by row and
-- position) and carries its label; the seat row names the ticket (event_seats_ticket_key: one seat per ticket).
CREATE OR REPLACE FUNCTION "mq_seats_ticket_issued"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_n int;
  v_label text;
BEGIN
  IF NEW.seat_label IS NOT NULL THEN RETURN NEW; END IF;
  SELECT s.n, s.label INTO v_n, v_label
    FROM event_seats s
    WHERE s.tenant_id = NEW.tenant_id AND s.order_id = NEW.order_id AND s.event_id = NEW.event_id
      AND s.ticket_type_id = NEW.ticket_type_id AND s.ticket_id IS NULL
    ORDER BY s.row_key, s.seat_index LIMIT 1 FOR UPDATE;
  IF FOUND THEN
    UPDATE event_seats SET ticket_id = NEW.id WHERE tenant_id = NEW.tenant_id AND event_id = NEW.event_id AND n = v_n;
    NEW.seat_label := v_label;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "tickets_take_seat" BEFORE INSERT ON "tickets" FOR EACH ROW EXECUTE FUNCTION "mq_seats_ticket_issued"();
--> statement-breakpoint
ALTER TABLE "event_seating" ADD CONSTRAINT "event_seating_event_fk" FOREIGN KEY ("tenant_id", "event_id") REFERENCES "events"("tenant_id", "id") ON DELETE CASCADE;
--> statement-breakpoint
ALTER TABLE "event_seat_categories" ADD CONSTRAINT "event_seat_categories_event_fk" FOREIGN KEY ("tenant_id", "event_id") REFERENCES "events"("tenant_id", "id") ON DELETE CASCADE;
--> statement-breakpoint
ALTER TABLE "event_seats" ADD CONSTRAINT "event_seats_event_fk" FOREIGN KEY ("tenant_id", "event_id") REFERENCES "events"("tenant_id", "id") ON DELETE CASCADE;
--> statement-breakpoint
ALTER TABLE "seat_holds" ADD CONSTRAINT "seat_holds_event_fk" FOREIGN KEY ("tenant_id", "event_id") REFERENCES "events"("tenant_id", "id") ON DELETE CASCADE;

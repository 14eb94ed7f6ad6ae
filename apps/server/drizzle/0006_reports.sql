CREATE TABLE "event_sales_totals" (
	"tenant_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"orders" bigint DEFAULT 0 NOT NULL,
	"gross" bigint DEFAULT 0 NOT NULL,
	"net" bigint DEFAULT 0 NOT NULL,
	"service_fees" bigint DEFAULT 0 NOT NULL,
	"processing_fees" bigint DEFAULT 0 NOT NULL,
	"tax" bigint DEFAULT 0 NOT NULL,
	"donations" bigint DEFAULT 0 NOT NULL,
	"donation_fees" bigint DEFAULT 0 NOT NULL,
	"discounts" bigint DEFAULT 0 NOT NULL,
	"refunds" bigint DEFAULT 0 NOT NULL,
	"tickets_sold" bigint DEFAULT 0 NOT NULL,
	"complimentary" bigint DEFAULT 0 NOT NULL,
	"used" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "event_sales_totals_tenant_id_event_id_pk" PRIMARY KEY("tenant_id","event_id")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "donation_fee" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tickets_sold" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tickets_complimentary" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "tickets_used" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunds_succeeded" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunds_succeeded_tenant" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Edited by hand from here (docs/reports.md "Rollups"). Orders placed before donation_fee keep it in their pricing breakdown.
UPDATE "orders" SET "donation_fee" = ("breakdown"::jsonb->>'donationFee')::int
  WHERE "breakdown" LIKE '{%' AND ("breakdown"::jsonb->>'donationFee') ~ '^[0-9]+$';
--> statement-breakpoint
-- An order's ticket counts and succeeded refunds, kept on the order by these statement triggers: one
-- UPDATE of each order a statement touched, whatever the number of its rows. Updating the order's
-- row serialises them with any change of the order's status (the row lock).
CREATE FUNCTION "mq_report_ticket_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each transition table exists only for its own events, so each event has its own statement.
  IF TG_OP = 'INSERT' THEN
    WITH changed AS (SELECT tenant_id, order_id, 1 AS sign, price, voided, used FROM new_rows), d AS (
      SELECT tenant_id, order_id, sum(sign * (NOT voided AND price > 0)::int) AS sold, sum(sign * (NOT voided AND price = 0)::int) AS comp, sum(sign * (NOT voided AND used)::int) AS used FROM changed GROUP BY tenant_id, order_id
    )
    UPDATE orders o SET tickets_sold = o.tickets_sold + d.sold, tickets_complimentary = o.tickets_complimentary + d.comp, tickets_used = o.tickets_used + d.used
      FROM d WHERE o.tenant_id = d.tenant_id AND o.id = d.order_id AND (d.sold <> 0 OR d.comp <> 0 OR d.used <> 0);
  ELSIF TG_OP = 'DELETE' THEN
    WITH changed AS (SELECT tenant_id, order_id, -1 AS sign, price, voided, used FROM old_rows), d AS (
      SELECT tenant_id, order_id, sum(sign * (NOT voided AND price > 0)::int) AS sold, sum(sign * (NOT voided AND price = 0)::int) AS comp, sum(sign * (NOT voided AND used)::int) AS used FROM changed GROUP BY tenant_id, order_id
    )
    UPDATE orders o SET tickets_sold = o.tickets_sold + d.sold, tickets_complimentary = o.tickets_complimentary + d.comp, tickets_used = o.tickets_used + d.used
      FROM d WHERE o.tenant_id = d.tenant_id AND o.id = d.order_id AND (d.sold <> 0 OR d.comp <> 0 OR d.used <> 0);
  ELSE
    WITH changed AS (SELECT tenant_id, order_id, 1 AS sign, price, voided, used FROM new_rows UNION ALL SELECT tenant_id, order_id, -1 AS sign, price, voided, used FROM old_rows), d AS (
      SELECT tenant_id, order_id, sum(sign * (NOT voided AND price > 0)::int) AS sold, sum(sign * (NOT voided AND price = 0)::int) AS comp, sum(sign * (NOT voided AND used)::int) AS used FROM changed GROUP BY tenant_id, order_id
    )
    UPDATE orders o SET tickets_sold = o.tickets_sold + d.sold, tickets_complimentary = o.tickets_complimentary + d.comp, tickets_used = o.tickets_used + d.used
      FROM d WHERE o.tenant_id = d.tenant_id AND o.id = d.order_id AND (d.sold <> 0 OR d.comp <> 0 OR d.used <> 0);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "mq_report_refund_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- Each transition table exists only for its own events, so each event has its own statement.
  IF TG_OP = 'INSERT' THEN
    WITH changed AS (SELECT tenant_id, order_id, 1 AS sign, amount, tenant_amount, status FROM new_rows), d AS (
      SELECT tenant_id, order_id, sum(CASE WHEN status = 'succeeded' THEN sign * amount ELSE 0 END) AS amount, sum(CASE WHEN status = 'succeeded' THEN sign * tenant_amount ELSE 0 END) AS tenant FROM changed GROUP BY tenant_id, order_id
    )
    UPDATE orders o SET refunds_succeeded = o.refunds_succeeded + d.amount, refunds_succeeded_tenant = o.refunds_succeeded_tenant + d.tenant
      FROM d WHERE o.tenant_id = d.tenant_id AND o.id = d.order_id AND (d.amount <> 0 OR d.tenant <> 0);
  ELSIF TG_OP = 'DELETE' THEN
    WITH changed AS (SELECT tenant_id, order_id, -1 AS sign, amount, tenant_amount, status FROM old_rows), d AS (
      SELECT tenant_id, order_id, sum(CASE WHEN status = 'succeeded' THEN sign * amount ELSE 0 END) AS amount, sum(CASE WHEN status = 'succeeded' THEN sign * tenant_amount ELSE 0 END) AS tenant FROM changed GROUP BY tenant_id, order_id
    )
    UPDATE orders o SET refunds_succeeded = o.refunds_succeeded + d.amount, refunds_succeeded_tenant = o.refunds_succeeded_tenant + d.tenant
      FROM d WHERE o.tenant_id = d.tenant_id AND o.id = d.order_id AND (d.amount <> 0 OR d.tenant <> 0);
  ELSE
    WITH changed AS (SELECT tenant_id, order_id, 1 AS sign, amount, tenant_amount, status FROM new_rows UNION ALL SELECT tenant_id, order_id, -1 AS sign, amount, tenant_amount, status FROM old_rows), d AS (
      SELECT tenant_id, order_id, sum(CASE WHEN status = 'succeeded' THEN sign * amount ELSE 0 END) AS amount, sum(CASE WHEN status = 'succeeded' THEN sign * tenant_amount ELSE 0 END) AS tenant FROM changed GROUP BY tenant_id, order_id
    )
    UPDATE orders o SET refunds_succeeded = o.refunds_succeeded + d.amount, refunds_succeeded_tenant = o.refunds_succeeded_tenant + d.tenant
      FROM d WHERE o.tenant_id = d.tenant_id AND o.id = d.order_id AND (d.amount <> 0 OR d.tenant <> 0);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Adds (sign 1) or takes away (sign -1) one order's figures from its event's row of event_sales_totals.
CREATE FUNCTION "mq_report_apply"(o orders, sign int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event_sales_totals AS s (tenant_id, event_id, orders, gross, net, service_fees, processing_fees, tax, donations,
      donation_fees, discounts, refunds, tickets_sold, complimentary, used)
    VALUES (o.tenant_id, o.event_id, sign, sign * o.total_amount, sign * (o.tenant_total - o.refunds_succeeded_tenant),
      sign * o.surcharge, sign * o.processing_fee, sign * o.vat, sign * o.donation, sign * o.donation_fee, sign * o.discount,
      sign * o.refunds_succeeded, sign * o.tickets_sold, sign * o.tickets_complimentary, sign * o.tickets_used)
  ON CONFLICT (tenant_id, event_id) DO UPDATE SET
    orders = s.orders + excluded.orders, gross = s.gross + excluded.gross, net = s.net + excluded.net,
    service_fees = s.service_fees + excluded.service_fees, processing_fees = s.processing_fees + excluded.processing_fees,
    tax = s.tax + excluded.tax, donations = s.donations + excluded.donations, donation_fees = s.donation_fees + excluded.donation_fees,
    discounts = s.discounts + excluded.discounts, refunds = s.refunds + excluded.refunds, tickets_sold = s.tickets_sold + excluded.tickets_sold,
    complimentary = s.complimentary + excluded.complimentary, used = s.used + excluded.used;
END
$$;
--> statement-breakpoint
-- The rollup follows every version of every paid order (spec §4: processing and completed are paid).
CREATE FUNCTION "mq_report_order_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_paid boolean := TG_OP <> 'INSERT' AND OLD.status IN ('processing', 'completed');
  new_paid boolean := TG_OP <> 'DELETE' AND NEW.status IN ('processing', 'completed');
BEGIN
  IF old_paid AND new_paid AND OLD.event_id = NEW.event_id
     AND (OLD.total_amount, OLD.tenant_total, OLD.surcharge, OLD.processing_fee, OLD.vat, OLD.donation, OLD.donation_fee, OLD.discount,
          OLD.refunds_succeeded, OLD.refunds_succeeded_tenant, OLD.tickets_sold, OLD.tickets_complimentary, OLD.tickets_used)
       IS NOT DISTINCT FROM
         (NEW.total_amount, NEW.tenant_total, NEW.surcharge, NEW.processing_fee, NEW.vat, NEW.donation, NEW.donation_fee, NEW.discount,
          NEW.refunds_succeeded, NEW.refunds_succeeded_tenant, NEW.tickets_sold, NEW.tickets_complimentary, NEW.tickets_used) THEN
    RETURN NULL;
  END IF;
  IF old_paid THEN PERFORM mq_report_apply(OLD, -1); END IF;
  IF new_paid THEN PERFORM mq_report_apply(NEW, 1); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Recomputes the counters and the rollup from the rows themselves (after a bulk load with triggers off).
CREATE FUNCTION "mq_rebuild_report_totals"() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE orders o SET tickets_sold = c.sold, tickets_complimentary = c.comp, tickets_used = c.used
    FROM (SELECT o2.tenant_id, o2.id,
            count(t.id) FILTER (WHERE NOT t.voided AND t.price > 0)::int AS sold,
            count(t.id) FILTER (WHERE NOT t.voided AND t.price = 0)::int AS comp,
            count(t.id) FILTER (WHERE NOT t.voided AND t.used)::int AS used
          FROM orders o2 LEFT JOIN tickets t ON t.tenant_id = o2.tenant_id AND t.order_id = o2.id GROUP BY o2.tenant_id, o2.id) c
    WHERE o.tenant_id = c.tenant_id AND o.id = c.id
      AND (o.tickets_sold, o.tickets_complimentary, o.tickets_used) IS DISTINCT FROM (c.sold, c.comp, c.used);
  UPDATE orders o SET refunds_succeeded = c.amount, refunds_succeeded_tenant = c.tenant
    FROM (SELECT o2.tenant_id, o2.id,
            coalesce(sum(r.amount) FILTER (WHERE r.status = 'succeeded'), 0)::int AS amount,
            coalesce(sum(r.tenant_amount) FILTER (WHERE r.status = 'succeeded'), 0)::int AS tenant
          FROM orders o2 LEFT JOIN refunds r ON r.tenant_id = o2.tenant_id AND r.order_id = o2.id GROUP BY o2.tenant_id, o2.id) c
    WHERE o.tenant_id = c.tenant_id AND o.id = c.id
      AND (o.refunds_succeeded, o.refunds_succeeded_tenant) IS DISTINCT FROM (c.amount, c.tenant);
  DELETE FROM event_sales_totals;
  INSERT INTO event_sales_totals (tenant_id, event_id, orders, gross, net, service_fees, processing_fees, tax, donations,
      donation_fees, discounts, refunds, tickets_sold, complimentary, used)
    SELECT tenant_id, event_id, count(*), sum(total_amount), sum(tenant_total - refunds_succeeded_tenant), sum(surcharge), sum(processing_fee),
      sum(vat), sum(donation), sum(donation_fee), sum(discount), sum(refunds_succeeded), sum(tickets_sold), sum(tickets_complimentary), sum(tickets_used)
    FROM orders WHERE status IN ('processing', 'completed') GROUP BY tenant_id, event_id;
END
$$;
--> statement-breakpoint
SELECT mq_rebuild_report_totals();
--> statement-breakpoint
CREATE TRIGGER "tickets_report_counts_insert" AFTER INSERT ON "tickets" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION mq_report_ticket_counts();
--> statement-breakpoint
CREATE TRIGGER "tickets_report_counts_update" AFTER UPDATE ON "tickets" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION mq_report_ticket_counts();
--> statement-breakpoint
CREATE TRIGGER "tickets_report_counts_delete" AFTER DELETE ON "tickets" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION mq_report_ticket_counts();
--> statement-breakpoint
CREATE TRIGGER "refunds_report_totals_insert" AFTER INSERT ON "refunds" REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION mq_report_refund_totals();
--> statement-breakpoint
CREATE TRIGGER "refunds_report_totals_update" AFTER UPDATE ON "refunds" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION mq_report_refund_totals();
--> statement-breakpoint
CREATE TRIGGER "refunds_report_totals_delete" AFTER DELETE ON "refunds" REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION mq_report_refund_totals();
--> statement-breakpoint
CREATE TRIGGER "orders_report_totals" AFTER INSERT OR UPDATE OR DELETE ON "orders"
  FOR EACH ROW EXECUTE FUNCTION mq_report_order_totals();
--> statement-breakpoint
-- What the report lists ask for (bench/reports.ts): pages in list order straight off an index (the
-- list compiler breaks ties on id::text), and the "find an order" box's prefix and exact lookups.
CREATE INDEX "orders_report_event_page_idx" ON "orders" ("tenant_id", "event_id", "created_at", ("id"::text));
--> statement-breakpoint
CREATE INDEX "orders_report_tenant_page_idx" ON "orders" ("tenant_id", "created_at", ("id"::text));
--> statement-breakpoint
CREATE INDEX "tickets_report_event_page_idx" ON "tickets" ("tenant_id", "event_id", "created_at", ("id"::text));
--> statement-breakpoint
CREATE INDEX "orders_report_email_idx" ON "orders" ("tenant_id", lower("email") text_pattern_ops);
--> statement-breakpoint
CREATE INDEX "orders_report_name_idx" ON "orders" ("tenant_id", lower("first_name" || ' ' || "last_name") text_pattern_ops);
--> statement-breakpoint
CREATE INDEX "orders_report_last_name_idx" ON "orders" ("tenant_id", lower("last_name") text_pattern_ops);
--> statement-breakpoint
CREATE INDEX "orders_report_phone_idx" ON "orders" ("tenant_id", "phone");

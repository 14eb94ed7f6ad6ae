CREATE TABLE "event_channel_totals" (
	"tenant_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"payment_method" text NOT NULL,
	"orders" bigint DEFAULT 0 NOT NULL,
	"gross" bigint DEFAULT 0 NOT NULL,
	"net" bigint DEFAULT 0 NOT NULL,
	"refunds" bigint DEFAULT 0 NOT NULL,
	"tickets_sold" bigint DEFAULT 0 NOT NULL,
	"complimentary" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "event_channel_totals_tenant_id_event_id_channel_payment_method_pk" PRIMARY KEY("tenant_id","event_id","channel","payment_method")
);
--> statement-breakpoint
-- Edited by hand from here (docs/reports.md "Rollups", "Sales by channel"): the rollup's trigger
-- function also keeps the per-channel row, right after the event's row (the same lock: nothing waits
-- on a channel row without holding its event's row already), so per event the channels sum to it.
CREATE OR REPLACE FUNCTION "mq_report_apply"(o orders, sign int) RETURNS void LANGUAGE plpgsql AS $$
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
  INSERT INTO event_channel_totals AS c (tenant_id, event_id, channel, payment_method, orders, gross, net, refunds, tickets_sold, complimentary)
    VALUES (o.tenant_id, o.event_id, o.channel, coalesce(o.payment_method, ''), sign, sign * o.total_amount,
      sign * (o.tenant_total - o.refunds_succeeded_tenant), sign * o.refunds_succeeded, sign * o.tickets_sold, sign * o.tickets_complimentary)
  ON CONFLICT (tenant_id, event_id, channel, payment_method) DO UPDATE SET
    orders = c.orders + excluded.orders, gross = c.gross + excluded.gross, net = c.net + excluded.net, refunds = c.refunds + excluded.refunds,
    tickets_sold = c.tickets_sold + excluded.tickets_sold, complimentary = c.complimentary + excluded.complimentary;
END
$$;
--> statement-breakpoint
-- A paid order whose channel or payment method changes moves between channel rows, so both are compared too.
CREATE OR REPLACE FUNCTION "mq_report_order_totals"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_paid boolean := TG_OP <> 'INSERT' AND OLD.status IN ('processing', 'completed');
  new_paid boolean := TG_OP <> 'DELETE' AND NEW.status IN ('processing', 'completed');
BEGIN
  IF old_paid AND new_paid AND OLD.event_id = NEW.event_id
     AND (OLD.total_amount, OLD.tenant_total, OLD.surcharge, OLD.processing_fee, OLD.vat, OLD.donation, OLD.donation_fee, OLD.discount,
          OLD.refunds_succeeded, OLD.refunds_succeeded_tenant, OLD.tickets_sold, OLD.tickets_complimentary, OLD.tickets_used,
          OLD.channel, OLD.payment_method)
       IS NOT DISTINCT FROM
         (NEW.total_amount, NEW.tenant_total, NEW.surcharge, NEW.processing_fee, NEW.vat, NEW.donation, NEW.donation_fee, NEW.discount,
          NEW.refunds_succeeded, NEW.refunds_succeeded_tenant, NEW.tickets_sold, NEW.tickets_complimentary, NEW.tickets_used,
          NEW.channel, NEW.payment_method) THEN
    RETURN NULL;
  END IF;
  IF old_paid THEN PERFORM mq_report_apply(OLD, -1); END IF;
  IF new_paid THEN PERFORM mq_report_apply(NEW, 1); END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The rebuild recomputes the channel rows with the event rows.
CREATE OR REPLACE FUNCTION "mq_rebuild_report_totals"() RETURNS void LANGUAGE plpgsql AS $$
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
  DELETE FROM event_channel_totals;
  INSERT INTO event_channel_totals (tenant_id, event_id, channel, payment_method, orders, gross, net, refunds, tickets_sold, complimentary)
    SELECT tenant_id, event_id, channel, coalesce(payment_method, ''), count(*), sum(total_amount), sum(tenant_total - refunds_succeeded_tenant),
      sum(refunds_succeeded), sum(tickets_sold), sum(tickets_complimentary)
    FROM orders WHERE status IN ('processing', 'completed') GROUP BY tenant_id, event_id, channel, coalesce(payment_method, '');
END
$$;
--> statement-breakpoint
-- The orders paid before this migration.
INSERT INTO event_channel_totals (tenant_id, event_id, channel, payment_method, orders, gross, net, refunds, tickets_sold, complimentary)
  SELECT tenant_id, event_id, channel, coalesce(payment_method, ''), count(*), sum(total_amount), sum(tenant_total - refunds_succeeded_tenant),
    sum(refunds_succeeded), sum(tickets_sold), sum(tickets_complimentary)
  FROM orders WHERE status IN ('processing', 'completed') GROUP BY tenant_id, event_id, channel, coalesce(payment_method, '');

-- Orders record the charity their donation is for (docs/decisions.md "Donations at checkout"): its id
-- and its name, copied from the event when the order is placed, with no foreign key, so an order and
-- its reports keep them after the charity is deleted.
ALTER TABLE "orders" ADD COLUMN "charity_id" uuid;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "charity_name" text;--> statement-breakpoint
-- Edited by hand: mq_take_holds (migration 0001) as before, plus one check under the event's row lock.
-- An order with a donation carries the charity it was priced for (order.charity_id); if the event's
-- charity is no longer that one (disabled for the tenant, made inactive or deleted, or replaced, all
-- of which clear or change events.charity_id), the verdict is 'changed' and nothing is taken.
-- Orders without a donation are not affected by the event's charity.
CREATE OR REPLACE FUNCTION "mq_take_holds"("batch" jsonb) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
  v_item jsonb;
  v_line jsonb;
  v_tenant uuid;
  v_event uuid;
  v_code uuid;
  v_wanted int;
  v_total int;
  v_verdict text;
  v_verdicts text[] := '{}';
  r record;
BEGIN
  PERFORM 1 FROM ticket_types t
    WHERE (t.tenant_id, t.id) IN (
      SELECT (i->'order'->>'tenant_id')::uuid, (l->>'id')::uuid
      FROM jsonb_array_elements(batch) i, jsonb_array_elements(i->'lines') l)
    ORDER BY t.id FOR UPDATE;
  PERFORM 1 FROM discount_codes d
    WHERE (d.tenant_id, d.id) IN (
      SELECT (i->'order'->>'tenant_id')::uuid, (i->>'discountCodeId')::uuid
      FROM jsonb_array_elements(batch) i WHERE i->>'discountCodeId' IS NOT NULL)
    ORDER BY d.id FOR UPDATE;
  PERFORM 1 FROM events e
    WHERE (e.tenant_id, e.id) IN (
      SELECT (i->'order'->>'tenant_id')::uuid, (i->'order'->>'event_id')::uuid FROM jsonb_array_elements(batch) i)
    ORDER BY e.id FOR UPDATE;

  FOR v_item IN SELECT value FROM jsonb_array_elements(batch) LOOP
    v_tenant := (v_item->'order'->>'tenant_id')::uuid;
    v_event := (v_item->'order'->>'event_id')::uuid;
    v_code := (v_item->>'discountCodeId')::uuid;
    v_verdict := 'ok';
    v_total := 0;
    IF (SELECT count(DISTINCT x->>'id') FROM jsonb_array_elements(v_item->'lines') x) <> jsonb_array_length(v_item->'lines') THEN
      v_verdict := 'changed';
    END IF;

    FOR v_line IN SELECT value FROM jsonb_array_elements(v_item->'lines') WHERE v_verdict = 'ok' LOOP
      v_wanted := (v_line->>'qty')::int;
      SELECT t.remaining,
             t.price = (v_line->>'price')::int AND t.name = v_line->>'name' AND t.active
               AND (t.sales_availability <> 'SALES_AVAILABILITY_OPT_2'
                    OR (coalesce(t.sales_start_at, '-infinity') <= now() AND now() < coalesce(t.sales_end_at, 'infinity'))) AS same
        INTO r
        FROM ticket_types t
        WHERE t.tenant_id = v_tenant AND t.event_id = v_event AND t.id = (v_line->>'id')::uuid;
      IF NOT FOUND OR NOT r.same OR v_wanted IS NULL OR v_wanted < 1 THEN v_verdict := 'changed'; EXIT; END IF;
      IF r.remaining < v_wanted THEN v_verdict := 'ticketType'; EXIT; END IF;
      v_total := v_total + v_wanted;
    END LOOP;
    IF v_verdict = 'ok' AND v_total = 0 THEN v_verdict := 'changed'; END IF;

    IF v_verdict = 'ok' AND v_code IS NOT NULL THEN
      SELECT d.active AND (d.starts_at IS NULL OR d.starts_at <= now()) AND (d.ends_at IS NULL OR d.ends_at > now()) AS usable,
             d.usage_limit IS NULL OR d.used_count < d.usage_limit AS left_over
        INTO r
        FROM discount_codes d WHERE d.tenant_id = v_tenant AND d.id = v_code;
      IF NOT FOUND OR NOT r.usable THEN v_verdict := 'changed';
      ELSIF NOT r.left_over THEN v_verdict := 'discount';
      END IF;
    END IF;

    IF v_verdict = 'ok' THEN
      SELECT e.status = 'published' AS on_sale, e.remaining_capacity IS NULL OR e.remaining_capacity >= v_total AS room,
             v_item->'order'->>'charity_id' IS NULL OR e.charity_id IS NOT DISTINCT FROM (v_item->'order'->>'charity_id')::uuid AS same_charity
        INTO r
        FROM events e WHERE e.tenant_id = v_tenant AND e.id = v_event;
      IF NOT FOUND OR NOT r.on_sale OR NOT r.same_charity THEN v_verdict := 'changed';
      ELSIF NOT r.room THEN v_verdict := 'capacity';
      END IF;
    END IF;

    IF v_verdict = 'ok' THEN
      UPDATE ticket_types t SET remaining = t.remaining - l.qty
        FROM (SELECT (x->>'id')::uuid AS id, (x->>'qty')::int AS qty FROM jsonb_array_elements(v_item->'lines') x) l
        WHERE t.tenant_id = v_tenant AND t.id = l.id;
      IF v_code IS NOT NULL THEN
        UPDATE discount_codes d SET used_count = d.used_count + 1 WHERE d.tenant_id = v_tenant AND d.id = v_code;
      END IF;
      UPDATE events e SET remaining_capacity = e.remaining_capacity - v_total
        WHERE e.tenant_id = v_tenant AND e.id = v_event AND e.remaining_capacity IS NOT NULL;
    END IF;
    v_verdicts := v_verdicts || v_verdict;
  END LOOP;
  RETURN v_verdicts;
END
$$;

-- PLACE ORDER's inventory step for a batch of orders (orders/repository.ts holdOrder, docs/decisions.md
-- "Holds are taken in batches"). Takes the tickets, the discount code use and the event capacity of each
-- order in turn, and answers one verdict per order, in the batch's order:
--   ok          taken
--   ticketType  a ticket type has fewer tickets left than the order asks for
--   discount    the discount code has no use left
--   capacity    the event has too little capacity left
--   changed     a ticket type changed its price or name, went off sale or is gone; the code lapsed; the
--               event is not on sale any more
-- An order that is refused takes nothing. Every row the batch can take from is locked first, in the
-- one order used everywhere (ticket types by id, then discount codes by id, then events by id), so
-- each order is checked and taken under locks held to the end of the transaction: nothing read here
-- can change before it is written, and nothing can go below zero (the CHECK constraints remain).
CREATE FUNCTION "mq_take_holds"("batch" jsonb) RETURNS text[] LANGUAGE plpgsql AS $$
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
      SELECT e.status = 'published' AS on_sale, e.remaining_capacity IS NULL OR e.remaining_capacity >= v_total AS room
        INTO r
        FROM events e WHERE e.tenant_id = v_tenant AND e.id = v_event;
      IF NOT FOUND OR NOT r.on_sale THEN v_verdict := 'changed';
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

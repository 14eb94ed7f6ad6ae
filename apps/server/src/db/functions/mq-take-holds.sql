-- PLACE ORDER's inventory step for a batch of orders (modules/checkout/repository.ts holdOrder,
-- docs/decisions.md "Holds are taken in batches"). The one definition: db/functions.ts applies this
-- file after the migrations whenever it changed; no migration carries a copy.
--
-- It keeps only what must be atomic with the take; each check mirrors a rule written once in TypeScript:
--   the event is on sale                 status 'published' (modules/checkout/place-order.ts)
--   the waiting-room admission has orders left  modules/waiting-room/service.ts ADMISSION_ORDERS
--   the discount code is usable now      packages/core rules.ts isDiscountCodeUsable
--   the donation's charity is the event's  modules/checkout/pricing.ts donationFor
--   a line's ticket type is unchanged, on sale now, and has the tickets  packages/core availability.ts validateCart
--   the event has the capacity            packages/core availability.ts validateCart
-- It answers one verdict per order, in the batch's order, the first that applies of:
--   notOnSale       the event is gone or not on sale any more
--   admission       the order names a waiting-room admission (order.waiting_room_visitor_id) that is
--                   not this event's, or that already has admissionOrders orders placed and not
--                   given back (draft, processing or completed), counting the batch's own
--   discount        the discount code is gone, switched off, outside its dates or has no use left
--   noCharity       the order has a donation and the event has no charity any more
--   charityChanged  the order has a donation and the event's charity is another one
--   changed         a ticket type changed its price or name, was switched off, went off sale or is
--                   gone, or the lines are malformed (a ticket type twice, a quantity below 1)
--   ticketType:{…}  a ticket type has fewer tickets left than the order asks for
--   capacity:{…}    the event has too little capacity left
--   ok              taken
-- ticketType and capacity carry what is left now, read under the locks, as JSON:
-- {"remaining": {ticket type id: remaining, … for the order's lines}, "capacity": remaining capacity or null}.
-- An order that is refused takes nothing. Every row the batch can take from is locked first, in the
-- one order used everywhere (ticket types by id, then discount codes by id, then events by id), so
-- each order is checked and taken under locks held to the end of the transaction: nothing read here
-- can change before it is written, and nothing can go below zero (the CHECK constraints remain).
-- The locked ticket types and events are read once, after their locks, into maps (v_types, v_events:
-- nothing else can change them before the transaction ends); what the batch takes is counted as it
-- goes (v_took: per ticket type, event and discount code) and written once per row at the end. Rows
-- updated once per order grew a version chain that every later order's read walked, and a statement
-- per order and line cost more than the check itself: a waiting-list round of 1,000 offers spent
-- 3.5 s here on PGlite (bench/README.md "Waiting list").
-- The admissions the batch names are locked after the events (docs/architecture.md "Lock order"),
-- so an admission's count of orders cannot change between its check and its order's insert.
CREATE OR REPLACE FUNCTION "mq_take_holds"("batch" jsonb) RETURNS text[] LANGUAGE plpgsql AS $$
DECLARE
  v_item jsonb;
  v_line jsonb;
  v_lines jsonb;
  v_tenant uuid;
  v_event uuid;
  v_code uuid;
  v_charity uuid;
  v_wanted int;
  v_total int;
  v_verdict text;
  v_verdicts text[] := '{}';
  v_visitor uuid;
  v_placed int;
  v_taken jsonb := '{}';
  v_took jsonb := '{}';
  v_types jsonb;
  v_events jsonb;
  v_ev jsonb;
  v_tt jsonb;
  v_key text;
  v_cap int;
  v_n int;
  v_k int;
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
  PERFORM 1 FROM waiting_room_visitors v
    WHERE (v.tenant_id, v.id) IN (
      SELECT (i->'order'->>'tenant_id')::uuid, (i->'order'->>'waiting_room_visitor_id')::uuid
      FROM jsonb_array_elements(batch) i WHERE i->'order'->>'waiting_room_visitor_id' IS NOT NULL)
    ORDER BY v.id FOR UPDATE;

  -- The locked rows as they are now, keyed 'tenant|id'. A ticket type is "same" for a line when its
  -- price and name are the line's, it is switched on and on sale now.
  SELECT coalesce(jsonb_object_agg(t.tenant_id || '|' || t.id, jsonb_build_object(
           'event', t.event_id, 'remaining', t.remaining, 'price', t.price, 'name', t.name,
           'onSale', t.active AND (t.sales_availability <> 'SALES_AVAILABILITY_OPT_2'
                     OR (coalesce(t.sales_start_at, '-infinity') <= now() AND now() < coalesce(t.sales_end_at, 'infinity'))))), '{}')
    INTO v_types
    FROM ticket_types t
    WHERE (t.tenant_id, t.id) IN (
      SELECT (i->'order'->>'tenant_id')::uuid, (l->>'id')::uuid
      FROM jsonb_array_elements(batch) i, jsonb_array_elements(i->'lines') l);
  SELECT coalesce(jsonb_object_agg(e.tenant_id || '|' || e.id, jsonb_build_object(
           'status', e.status, 'capacity', e.remaining_capacity, 'charity', e.charity_id)), '{}')
    INTO v_events
    FROM events e
    WHERE (e.tenant_id, e.id) IN (
      SELECT (i->'order'->>'tenant_id')::uuid, (i->'order'->>'event_id')::uuid FROM jsonb_array_elements(batch) i);

  FOR v_item IN SELECT value FROM jsonb_array_elements(batch) LOOP
    v_tenant := (v_item->'order'->>'tenant_id')::uuid;
    v_event := (v_item->'order'->>'event_id')::uuid;
    v_code := (v_item->>'discountCodeId')::uuid;
    v_charity := (v_item->'order'->>'charity_id')::uuid;
    v_lines := v_item->'lines';
    v_verdict := 'ok';
    v_total := 0;

    v_ev := v_events->(v_tenant || '|' || v_event);
    IF v_ev IS NULL OR v_ev->>'status' <> 'published' THEN v_verdict := 'notOnSale'; END IF;
    v_cap := (v_ev->>'capacity')::int - coalesce((v_took->>('e|' || v_tenant || '|' || v_event))::int, 0);

    v_visitor := (v_item->'order'->>'waiting_room_visitor_id')::uuid;
    IF v_verdict = 'ok' AND v_visitor IS NOT NULL THEN
      IF NOT EXISTS (SELECT 1 FROM waiting_room_visitors v WHERE v.tenant_id = v_tenant AND v.id = v_visitor AND v.event_id = v_event) THEN
        v_verdict := 'admission';
      ELSE
        SELECT count(*) INTO v_placed FROM orders o
          WHERE o.tenant_id = v_tenant AND o.waiting_room_visitor_id = v_visitor AND o.status IN ('draft', 'processing', 'completed');
        IF v_placed + coalesce((v_taken->>v_visitor::text)::int, 0) >= coalesce((v_item->>'admissionOrders')::int, 0) THEN
          v_verdict := 'admission';
        END IF;
      END IF;
    END IF;

    IF v_verdict = 'ok' AND v_code IS NOT NULL THEN
      SELECT d.active AND (d.starts_at IS NULL OR d.starts_at <= now()) AND (d.ends_at IS NULL OR d.ends_at > now())
               AND (d.usage_limit IS NULL OR d.used_count + coalesce((v_took->>('d|' || v_tenant || '|' || v_code))::int, 0) < d.usage_limit) AS usable
        INTO r
        FROM discount_codes d WHERE d.tenant_id = v_tenant AND d.id = v_code;
      IF NOT FOUND OR NOT r.usable THEN v_verdict := 'discount'; END IF;
    END IF;

    IF v_verdict = 'ok' AND v_charity IS NOT NULL AND (v_ev->>'charity')::uuid IS DISTINCT FROM v_charity THEN
      v_verdict := CASE WHEN v_ev->>'charity' IS NULL THEN 'noCharity' ELSE 'charityChanged' END;
    END IF;

    v_n := coalesce(jsonb_array_length(v_lines), 0);
    IF v_verdict = 'ok' AND v_n > 1 AND (SELECT count(DISTINCT x->>'id') FROM jsonb_array_elements(v_lines) x) <> v_n THEN
      v_verdict := 'changed';
    END IF;

    IF v_verdict = 'ok' THEN
      FOR v_k IN 0 .. v_n - 1 LOOP
        v_line := v_lines->v_k;
        v_wanted := (v_line->>'qty')::int;
        v_tt := v_types->(v_tenant || '|' || (v_line->>'id'));
        IF v_tt IS NULL OR (v_tt->>'event')::uuid <> v_event OR NOT (v_tt->>'onSale')::boolean
           OR (v_tt->>'price')::int IS DISTINCT FROM (v_line->>'price')::int OR v_tt->>'name' IS DISTINCT FROM v_line->>'name'
           OR v_wanted IS NULL OR v_wanted < 1 THEN
          v_verdict := 'changed'; EXIT;
        END IF;
        IF (v_tt->>'remaining')::int - coalesce((v_took->>('t|' || v_tenant || '|' || (v_line->>'id')))::int, 0) < v_wanted THEN v_verdict := 'ticketType'; END IF;
        v_total := v_total + v_wanted;
      END LOOP;
    END IF;
    IF v_verdict = 'ok' AND v_total = 0 THEN v_verdict := 'changed'; END IF;
    IF v_verdict = 'ok' AND v_cap IS NOT NULL AND v_cap < v_total THEN v_verdict := 'capacity'; END IF;

    IF v_verdict IN ('ticketType', 'capacity') THEN
      v_verdict := v_verdict || ':' || jsonb_build_object(
        'remaining', (SELECT jsonb_object_agg(t.id, t.remaining - coalesce((v_took->>('t|' || v_tenant || '|' || t.id))::int, 0)) FROM ticket_types t
                       WHERE t.tenant_id = v_tenant AND t.event_id = v_event
                         AND t.id IN (SELECT (x->>'id')::uuid FROM jsonb_array_elements(v_lines) x)),
        'capacity', v_cap)::text;
    ELSIF v_verdict = 'ok' THEN
      FOR v_k IN 0 .. v_n - 1 LOOP
        v_key := 't|' || v_tenant || '|' || (v_lines->v_k->>'id');
        v_took := v_took || jsonb_build_object(v_key, coalesce((v_took->>v_key)::int, 0) + (v_lines->v_k->>'qty')::int);
      END LOOP;
      IF v_code IS NOT NULL THEN
        v_key := 'd|' || v_tenant || '|' || v_code;
        v_took := v_took || jsonb_build_object(v_key, coalesce((v_took->>v_key)::int, 0) + 1);
      END IF;
      v_key := 'e|' || v_tenant || '|' || v_event;
      v_took := v_took || jsonb_build_object(v_key, coalesce((v_took->>v_key)::int, 0) + v_total);
      IF v_visitor IS NOT NULL THEN
        v_taken := v_taken || jsonb_build_object(v_visitor::text, coalesce((v_taken->>v_visitor::text)::int, 0) + 1);
      END IF;
    END IF;
    v_verdicts := v_verdicts || v_verdict;
  END LOOP;

  -- What was taken, written once per row (each locked above).
  UPDATE ticket_types t SET remaining = t.remaining - x.value::int
    FROM jsonb_each_text(v_took) x
    WHERE split_part(x.key, '|', 1) = 't' AND t.tenant_id = split_part(x.key, '|', 2)::uuid AND t.id = split_part(x.key, '|', 3)::uuid;
  UPDATE discount_codes d SET used_count = d.used_count + x.value::int
    FROM jsonb_each_text(v_took) x
    WHERE split_part(x.key, '|', 1) = 'd' AND d.tenant_id = split_part(x.key, '|', 2)::uuid AND d.id = split_part(x.key, '|', 3)::uuid;
  UPDATE events e SET remaining_capacity = e.remaining_capacity - x.value::int
    FROM jsonb_each_text(v_took) x
    WHERE split_part(x.key, '|', 1) = 'e' AND e.tenant_id = split_part(x.key, '|', 2)::uuid AND e.id = split_part(x.key, '|', 3)::uuid
      AND e.remaining_capacity IS NOT NULL;
  RETURN v_verdicts;
END
$$;

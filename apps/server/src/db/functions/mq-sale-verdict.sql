-- Issue 23 (perreq): the verdict of a box-office sale sent to PostgreSQL in one message with its
-- BEGIN and COMMIT (modules/box-office/repository.ts takeAndPaySql, db/client.ts runInOneTrip), so
-- that the ticket types' and the event's row locks are released by the COMMIT right after the take
-- instead of after a round trip through the server's event loop. A sale that did not take its
-- tickets and turn its order paid must not commit: anything but 'ok' with the order paid raises,
-- which aborts the transaction (the COMMIT in the same message is then not run, and the server
-- rolls back). SQLSTATE MQ423; the message is the verdict ('keyTaken', 'noDrawer', or
-- mq_take_holds's refusal), the detail the number of orders paid.
CREATE OR REPLACE FUNCTION "mq_sale_verdict"("verdict" text, "paid" integer) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
  IF "verdict" = 'ok' AND "paid" = 1 THEN
    RETURN 'ok';
  END IF;
  RAISE EXCEPTION USING ERRCODE = 'MQ423', MESSAGE = coalesce("verdict", 'changed'), DETAIL = coalesce("paid", 0)::text;
END
$$;

-- PLACE ORDER's inventory step, mq_take_holds, was created here. Its one definition is now
-- src/db/functions/mq-take-holds.sql, applied after the migrations (src/db/functions.ts).
SELECT 1;

-- "This payout line is ready": the SQL copy of packages/core schemas/payouts.ts payoutLineReady (a
-- line with no payoutLineBlocker), for the queries that pick lines in SQL: the weekly automatic run
-- (modules/payouts/repository.ts readyOrderUids) and the pending table's 'details.ready' filter. The
-- one definition: db/functions.ts applies this file after the migrations whenever it changed; no
-- migration carries a copy. db/payout-line-ready.test.ts checks it against the TypeScript rule for
-- every combination of its inputs.
--   ready = a sale line (a refund line is carried into the tenant's next payout, never sent alone)
--           facilitated by the platform, not paid, not claimed by a payout being sent, not on hold,
--           and available at `at`.
CREATE OR REPLACE FUNCTION "mq_payout_line_ready"(
  "kind" text, "facilitator" text, "on_hold" boolean, "payout_id" uuid, "payout_completed_at" timestamptz,
  "balance_available_on" timestamptz, "at" timestamptz
) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(
    "kind" = 'sale'
    AND "facilitator" = 'platform'
    AND "payout_completed_at" IS NULL
    AND "payout_id" IS NULL
    AND NOT "on_hold"
    AND "balance_available_on" <= "at",
    false)
$$;

ALTER TABLE "orders" ADD COLUMN "donation_fee" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Edited by hand: orders placed before this column keep their donation fee in the pricing breakdown.
UPDATE "orders" SET "donation_fee" = ("breakdown"::jsonb->>'donationFee')::int
  WHERE "breakdown" IS NOT NULL AND "breakdown" LIKE '{%' AND ("breakdown"::jsonb->>'donationFee') ~ '^[0-9]+$';

-- When an event was first published (docs/decisions.md "A cancelled event keeps its page"): a cancelled
-- event that was once public shows its page as cancelled; one that never was stays hidden like a draft.
ALTER TABLE "events" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
-- Edited by hand: events published now, and events with orders (only a published event takes orders),
-- were public; their first publish time is not known, so the best one we have stands in for it.
UPDATE "events" SET "published_at" = "updated_at" WHERE "status" = 'published';--> statement-breakpoint
UPDATE "events" e SET "published_at" = e."created_at"
  WHERE e."published_at" IS NULL AND EXISTS (SELECT 1 FROM "orders" o WHERE o."tenant_id" = e."tenant_id" AND o."event_id" = e."id");

-- Orders record the charity their donation is for (docs/decisions.md "Donations at checkout"): its id
-- and its name, copied from the event when the order is placed, with no foreign key, so an order and
-- its reports keep them after the charity is deleted.
ALTER TABLE "orders" ADD COLUMN "charity_id" uuid;--> statement-breakpoint
-- mq_take_holds gained the charity check here; its one definition is now src/db/functions/mq-take-holds.sql.
ALTER TABLE "orders" ADD COLUMN "charity_name" text;

CREATE TABLE "waiting_room_addresses" (
	"tenant_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"address_key" text NOT NULL,
	"places" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "waiting_room_addresses_tenant_id_event_id_address_key_pk" PRIMARY KEY("tenant_id","event_id","address_key")
);
--> statement-breakpoint
DROP INDEX "waiting_room_visitors_lottery";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "waiting_room_visitor_id" uuid;--> statement-breakpoint
ALTER TABLE "waiting_room_visitors" ADD COLUMN "draw_round" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "waiting_room_addresses" ADD CONSTRAINT "waiting_room_addresses_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_waiting_room_visitor_idx" ON "orders" USING btree ("tenant_id","waiting_room_visitor_id") WHERE waiting_room_visitor_id is not null;--> statement-breakpoint
CREATE INDEX "order_actions_resends_by_user_idx" ON "order_actions" USING btree ("tenant_id","user_id","created_at") WHERE action = 'resend';--> statement-breakpoint
CREATE INDEX "waiting_room_visitors_draw" ON "waiting_room_visitors" USING btree ("tenant_id","event_id","draw_round","lottery","id");
CREATE TABLE "order_links" (
	"tenant_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"order_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_links_tenant_id_token_hash_pk" PRIMARY KEY("tenant_id","token_hash")
);
--> statement-breakpoint
CREATE INDEX "order_links_order_idx" ON "order_links" USING btree ("tenant_id","order_id");
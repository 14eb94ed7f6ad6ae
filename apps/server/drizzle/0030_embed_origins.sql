CREATE TABLE "embed_origins" (
	"tenant_id" uuid NOT NULL,
	"origin" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "embed_origins_tenant_id_origin_pk" PRIMARY KEY("tenant_id","origin")
);
--> statement-breakpoint
ALTER TABLE "embed_origins" ADD CONSTRAINT "embed_origins_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;
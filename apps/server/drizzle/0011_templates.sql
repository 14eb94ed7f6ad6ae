CREATE TABLE "event_page_versions" (
	"tenant_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"html" text NOT NULL,
	"css" text NOT NULL,
	"project" text NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_page_versions_tenant_id_event_id_version_pk" PRIMARY KEY("tenant_id","event_id","version")
);
--> statement-breakpoint
CREATE TABLE "event_pages" (
	"tenant_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"template_id" uuid,
	"template_version" integer,
	"draft_project" text NOT NULL,
	"draft_html" text NOT NULL,
	"draft_css" text NOT NULL,
	"draft_saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	"live_version" integer,
	CONSTRAINT "event_pages_tenant_id_event_id_pk" PRIMARY KEY("tenant_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "site_template_uploads" (
	"id" uuid PRIMARY KEY NOT NULL,
	"template_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "site_template_uploads_kind" CHECK ("site_template_uploads"."kind" in ('zip', 'thumbnail'))
);
--> statement-breakpoint
CREATE TABLE "site_template_versions" (
	"template_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"zip_key" text NOT NULL,
	"zip_bytes" bigint NOT NULL,
	"html" text NOT NULL,
	"css" text NOT NULL,
	"project" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_template_versions_template_id_version_pk" PRIMARY KEY("template_id","version")
);
--> statement-breakpoint
CREATE TABLE "site_templates" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"current_version" integer DEFAULT 0 NOT NULL,
	"thumbnail_key" text,
	"thumbnail_mime" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_page_versions" ADD CONSTRAINT "event_page_versions_tenant_id_event_id_event_pages_tenant_id_event_id_fk" FOREIGN KEY ("tenant_id","event_id") REFERENCES "public"."event_pages"("tenant_id","event_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_pages" ADD CONSTRAINT "event_pages_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_pages" ADD CONSTRAINT "event_pages_template_id_site_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."site_templates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_pages" ADD CONSTRAINT "event_pages_tenant_id_event_id_events_tenant_id_id_fk" FOREIGN KEY ("tenant_id","event_id") REFERENCES "public"."events"("tenant_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_template_uploads" ADD CONSTRAINT "site_template_uploads_template_id_site_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."site_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_template_versions" ADD CONSTRAINT "site_template_versions_template_id_site_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."site_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "site_template_uploads_template_idx" ON "site_template_uploads" USING btree ("template_id");--> statement-breakpoint
CREATE INDEX "site_templates_name_idx" ON "site_templates" USING btree ("name","id");
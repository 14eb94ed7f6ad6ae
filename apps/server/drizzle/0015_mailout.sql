CREATE TABLE "attendee_message_recipients" (
	"tenant_id" uuid NOT NULL,
	"message_id" uuid NOT NULL,
	"email" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"outbox_id" uuid,
	"sent_at" timestamp with time zone,
	CONSTRAINT "attendee_message_recipients_tenant_id_message_id_email_pk" PRIMARY KEY("tenant_id","message_id","email")
);
--> statement-breakpoint
CREATE TABLE "attendee_messages" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"recipients" text NOT NULL,
	"ticket_type_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"ticket_type_names" text[] DEFAULT '{}'::text[] NOT NULL,
	"marketing" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"total" integer,
	"sent" integer DEFAULT 0 NOT NULL,
	"opted_out" integer DEFAULT 0 NOT NULL,
	"created_by" uuid,
	"created_by_email" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "attendee_messages_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "mail_opt_outs" (
	"tenant_id" uuid NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mail_opt_outs_tenant_id_email_pk" PRIMARY KEY("tenant_id","email")
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "headers" jsonb;--> statement-breakpoint
CREATE UNIQUE INDEX "attendee_messages_id_key" ON "attendee_messages" USING btree ("id");--> statement-breakpoint
CREATE INDEX "attendee_messages_event_idx" ON "attendee_messages" USING btree ("tenant_id","event_id","created_at");
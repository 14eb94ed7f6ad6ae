CREATE TABLE "event_answer_settings" (
	"tenant_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"answers_deadline" timestamp with time zone,
	CONSTRAINT "event_answer_settings_tenant_id_event_id_pk" PRIMARY KEY("tenant_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "event_questions" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"label" text NOT NULL,
	"kind" text NOT NULL,
	"help_text" text DEFAULT '' NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"scope" text DEFAULT 'order' NOT NULL,
	"options" text[] DEFAULT '{}'::text[] NOT NULL,
	"ticket_type_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "event_questions_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "event_questions_scope_known" CHECK ("event_questions"."scope" in ('order', 'ticket'))
);
--> statement-breakpoint
CREATE TABLE "order_answers" (
	"tenant_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"question_id" uuid NOT NULL,
	"slot" text NOT NULL,
	"event_id" uuid NOT NULL,
	"label" text NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_answers_tenant_id_order_id_question_id_slot_pk" PRIMARY KEY("tenant_id","order_id","question_id","slot")
);
--> statement-breakpoint
CREATE TABLE "order_attendees" (
	"tenant_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"ticket_type_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"event_id" uuid NOT NULL,
	"full_name" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"ticket_id" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_attendees_tenant_id_order_id_ticket_type_id_position_pk" PRIMARY KEY("tenant_id","order_id","ticket_type_id","position")
);
--> statement-breakpoint
CREATE TABLE "ticket_type_attendee_fields" (
	"tenant_id" uuid NOT NULL,
	"ticket_type_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"ask_name" text DEFAULT 'off' NOT NULL,
	"ask_email" text DEFAULT 'off' NOT NULL,
	CONSTRAINT "ticket_type_attendee_fields_tenant_id_ticket_type_id_pk" PRIMARY KEY("tenant_id","ticket_type_id"),
	CONSTRAINT "ticket_type_attendee_fields_modes" CHECK ("ticket_type_attendee_fields"."ask_name" in ('off', 'optional', 'required') and "ticket_type_attendee_fields"."ask_email" in ('off', 'optional', 'required'))
);
--> statement-breakpoint
CREATE INDEX "event_questions_event_idx" ON "event_questions" USING btree ("tenant_id","event_id","sort_order");--> statement-breakpoint
CREATE INDEX "order_answers_event_idx" ON "order_answers" USING btree ("tenant_id","event_id","question_id");--> statement-breakpoint
CREATE INDEX "ticket_type_attendee_fields_event_idx" ON "ticket_type_attendee_fields" USING btree ("tenant_id","event_id");
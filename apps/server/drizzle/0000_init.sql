CREATE TABLE "invites" (
	"id" uuid PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"email" text NOT NULL,
	"group_id" text NOT NULL,
	"tenant_id" uuid,
	"event_id" uuid,
	"roles" text[] NOT NULL,
	"app_type" text NOT NULL,
	"invited_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"group_id" text NOT NULL,
	"tenant_id" uuid,
	"event_id" uuid,
	"roles" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_user_group_event_key" UNIQUE NULLS NOT DISTINCT("user_id","group_id","event_id")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"csrf_token" text NOT NULL,
	"host" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"contact_number" text,
	"birth_date" date,
	"address1" text,
	"address2" text,
	"city" text,
	"state" text,
	"zip" text,
	"country" text,
	"picture_key" text,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_login_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "verification_codes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"code_hash" text NOT NULL,
	"invite_id" uuid,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"url" text NOT NULL,
	"invite_template_subject" text NOT NULL,
	"invite_template_body" text NOT NULL,
	"logo_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"payload" jsonb NOT NULL,
	"dedupe_key" text,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 8 NOT NULL,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"done_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" uuid PRIMARY KEY NOT NULL,
	"tenant_id" uuid,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "discount_codes" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"code" text NOT NULL,
	"kind" text NOT NULL,
	"value" integer NOT NULL,
	"usage_limit" integer,
	"used_count" integer DEFAULT 0 NOT NULL,
	"starts_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"ticket_type_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "discount_codes_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "discount_codes_usage_within_limit" CHECK ("discount_codes"."usage_limit" is null or "discount_codes"."used_count" <= "discount_codes"."usage_limit")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"name" text NOT NULL,
	"url_name" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"start_date_time" timestamp with time zone,
	"end_date_time" timestamp with time zone,
	"time_zone" text DEFAULT 'America/New_York' NOT NULL,
	"venue_name" text DEFAULT '' NOT NULL,
	"address1" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"state" text DEFAULT '' NOT NULL,
	"zip" text DEFAULT '' NOT NULL,
	"country" text DEFAULT 'USA' NOT NULL,
	"capacity" integer,
	"remaining_capacity" integer,
	"covid_safety_enabled" boolean DEFAULT false NOT NULL,
	"covid_safety_text" text DEFAULT '' NOT NULL,
	"email_delivery_verbiage" text DEFAULT '' NOT NULL,
	"seatmap_key" text,
	"charity_id" text,
	"surcharge_rule_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "events_remaining_capacity_nonneg" CHECK ("events"."remaining_capacity" is null or "events"."remaining_capacity" >= 0)
);
--> statement-breakpoint
CREATE TABLE "order_lines" (
	"tenant_id" uuid NOT NULL,
	"order_id" uuid NOT NULL,
	"ticket_type_id" uuid NOT NULL,
	"ticket_name" text NOT NULL,
	"unit_price" integer NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "order_lines_tenant_id_order_id_ticket_type_id_pk" PRIMARY KEY("tenant_id","order_id","ticket_type_id"),
	CONSTRAINT "order_lines_quantity_pos" CHECK ("order_lines"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"order_uid" text NOT NULL,
	"event_id" uuid NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"source" text DEFAULT 'online' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"phone" text,
	"address1" text,
	"address2" text,
	"city" text,
	"state" text,
	"zip_code" text,
	"country" text,
	"opt_in_email" boolean DEFAULT false NOT NULL,
	"opt_in_text" boolean DEFAULT false NOT NULL,
	"discount_code" text,
	"discount_code_id" uuid,
	"ticket_count" integer DEFAULT 0 NOT NULL,
	"subtotal" integer DEFAULT 0 NOT NULL,
	"surcharge" integer DEFAULT 0 NOT NULL,
	"processing_fee" integer DEFAULT 0 NOT NULL,
	"gateway_processing_fee" integer DEFAULT 0 NOT NULL,
	"discount" integer DEFAULT 0 NOT NULL,
	"vat" integer DEFAULT 0 NOT NULL,
	"tax_rate" integer DEFAULT 0 NOT NULL,
	"donation" integer DEFAULT 0 NOT NULL,
	"total_amount" integer DEFAULT 0 NOT NULL,
	"tenant_total" integer DEFAULT 0 NOT NULL,
	"platform_total" integer DEFAULT 0 NOT NULL,
	"breakdown" text,
	"hold_expires_at" timestamp with time zone,
	"view_token_hash" text,
	"user_id" uuid,
	"payment_provider" text,
	"payment_session_id" text,
	"payment_method" text,
	"charge_id" text,
	"paid_at" timestamp with time zone,
	"refunded" boolean DEFAULT false NOT NULL,
	"refunded_amount" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "payment_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"type" text NOT NULL,
	"order_id" uuid,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_events_provider_event_id_pk" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
CREATE TABLE "subscribers" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscribers_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "ticket_types" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price" integer NOT NULL,
	"quantity" integer NOT NULL,
	"remaining" integer NOT NULL,
	"min_per_order" integer DEFAULT 1 NOT NULL,
	"max_per_order" integer DEFAULT 10 NOT NULL,
	"sales_availability" text DEFAULT 'SALES_AVAILABILITY_OPT_1' NOT NULL,
	"start_date" text,
	"start_time" text,
	"end_date" text,
	"end_time" text,
	"sales_start_at" timestamp with time zone,
	"sales_end_at" timestamp with time zone,
	"other_ticket_type_id" uuid,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ticket_types_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "ticket_types_remaining_nonneg" CHECK ("ticket_types"."remaining" >= 0),
	CONSTRAINT "ticket_types_price_nonneg" CHECK ("ticket_types"."price" >= 0)
);
--> statement-breakpoint
CREATE TABLE "tickets" (
	"tenant_id" uuid NOT NULL,
	"id" uuid NOT NULL,
	"ticket_uid" text NOT NULL,
	"order_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"ticket_type_id" uuid NOT NULL,
	"ticket_type_name" text NOT NULL,
	"price" integer NOT NULL,
	"full_name" text DEFAULT '' NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"contact_number" text,
	"used" boolean DEFAULT false NOT NULL,
	"voided" boolean DEFAULT false NOT NULL,
	"void_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tickets_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "test_checkout_sessions" (
	"tenant_id" uuid NOT NULL,
	"id" text NOT NULL,
	"order_id" uuid NOT NULL,
	"order_uid" text NOT NULL,
	"amount" integer NOT NULL,
	"currency" text NOT NULL,
	"email" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"success_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"idempotency_key" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"charge_id" text,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_checkout_sessions_tenant_id_id_pk" PRIMARY KEY("tenant_id","id")
);
--> statement-breakpoint
CREATE TABLE "test_refunds" (
	"id" text PRIMARY KEY NOT NULL,
	"charge_id" text NOT NULL,
	"amount" integer NOT NULL,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "global_surcharge_rules" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"service_fee_percent_bp" integer NOT NULL,
	"service_fee_flat_rate" integer NOT NULL,
	"service_fee_pos_percent_bp" integer NOT NULL,
	"service_fee_pos_flat_rate" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "global_surcharge_rules_fees_nonneg" CHECK ("global_surcharge_rules"."service_fee_percent_bp" >= 0 and "global_surcharge_rules"."service_fee_flat_rate" >= 0 and "global_surcharge_rules"."service_fee_pos_percent_bp" >= 0 and "global_surcharge_rules"."service_fee_pos_flat_rate" >= 0)
);
--> statement-breakpoint
CREATE TABLE "global_ticket_settings" (
	"id" text PRIMARY KEY NOT NULL,
	"is_tenant_settings_control_enabled" boolean DEFAULT false NOT NULL,
	"donation_service_fee_bp" integer NOT NULL,
	"donation_charge" integer NOT NULL,
	"round_up_service_fee_value" integer DEFAULT 1 NOT NULL,
	"service_fee_pass_along_option_online" text NOT NULL,
	"service_fee_pass_along_option_backend" text NOT NULL,
	"service_fee_pass_along_option_app" text NOT NULL,
	"charge_tax" boolean DEFAULT false NOT NULL,
	"tax_rate_bp" integer,
	"charge_online" boolean DEFAULT false NOT NULL,
	"charge_online_value" integer,
	"charge_cash" boolean DEFAULT false NOT NULL,
	"charge_cash_value" integer,
	"charge_box_office" boolean DEFAULT false NOT NULL,
	"charge_box_office_value" integer DEFAULT 0 NOT NULL,
	"maximum_complimentary_tickets" integer NOT NULL,
	"auto_show_active_tickets_as_sold_out" boolean DEFAULT false NOT NULL,
	"platform_fee_bp" integer NOT NULL,
	"processing_fee_bp" integer NOT NULL,
	"default_surcharge_rule" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_settings" (
	"tenant_id" uuid NOT NULL,
	"payout_automatic" boolean DEFAULT false NOT NULL,
	"payout_date" text,
	"payout_type" text NOT NULL,
	"payout_tag" text,
	"charge_surcharge_fees_to_platform" boolean DEFAULT false NOT NULL,
	"processor_type" text NOT NULL,
	"profile_id" text,
	"direct" boolean DEFAULT false NOT NULL,
	"payment_type" text NOT NULL,
	"payment_tag" text,
	"payment_ref" text,
	"gateway_provider" text NOT NULL,
	"gateway_customer_id" text,
	"gateway_test" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_settings_tenant_id_pk" PRIMARY KEY("tenant_id"),
	CONSTRAINT "payment_settings_type" CHECK ("payment_settings"."payment_type" in ('tenant', 'platform')),
	CONSTRAINT "payment_settings_automatic" CHECK ("payment_settings"."payout_automatic" = ("payment_settings"."payment_type" = 'tenant'))
);
--> statement-breakpoint
CREATE TABLE "policies" (
	"id" text PRIMARY KEY NOT NULL,
	"sk" text DEFAULT 'policy' NOT NULL,
	"name" text NOT NULL,
	"group" text DEFAULT 'global' NOT NULL,
	"type" text DEFAULT 'general' NOT NULL,
	"detail" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "surcharge_rules" (
	"tenant_id" uuid NOT NULL,
	"id" text NOT NULL,
	"copied_from" text,
	"name" text NOT NULL,
	"service_fee_percent_bp" integer NOT NULL,
	"service_fee_flat_rate" integer NOT NULL,
	"service_fee_pos_percent_bp" integer NOT NULL,
	"service_fee_pos_flat_rate" integer NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "surcharge_rules_tenant_id_id_pk" PRIMARY KEY("tenant_id","id"),
	CONSTRAINT "surcharge_rules_fees_nonneg" CHECK ("surcharge_rules"."service_fee_percent_bp" >= 0 and "surcharge_rules"."service_fee_flat_rate" >= 0 and "surcharge_rules"."service_fee_pos_percent_bp" >= 0 and "surcharge_rules"."service_fee_pos_flat_rate" >= 0)
);
--> statement-breakpoint
CREATE TABLE "tenant_sites" (
	"tenant_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"generation" integer DEFAULT 1 NOT NULL,
	"storage_prefix" text NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "tenant_sites_tenant_id_pk" PRIMARY KEY("tenant_id")
);
--> statement-breakpoint
CREATE TABLE "ticket_settings" (
	"tenant_id" uuid NOT NULL,
	"is_tenant_settings_control_enabled" boolean DEFAULT false NOT NULL,
	"donation_service_fee_bp" integer NOT NULL,
	"donation_charge" integer NOT NULL,
	"round_up_service_fee_value" integer DEFAULT 1 NOT NULL,
	"service_fee_pass_along_option_online" text NOT NULL,
	"service_fee_pass_along_option_backend" text NOT NULL,
	"service_fee_pass_along_option_app" text NOT NULL,
	"charge_tax" boolean DEFAULT false NOT NULL,
	"tax_rate_bp" integer,
	"charge_online" boolean DEFAULT false NOT NULL,
	"charge_online_value" integer,
	"charge_cash" boolean DEFAULT false NOT NULL,
	"charge_cash_value" integer,
	"charge_box_office" boolean DEFAULT false NOT NULL,
	"charge_box_office_value" integer DEFAULT 0 NOT NULL,
	"maximum_complimentary_tickets" integer NOT NULL,
	"auto_show_active_tickets_as_sold_out" boolean DEFAULT false NOT NULL,
	"platform_fee_bp" integer NOT NULL,
	"processing_fee_bp" integer NOT NULL,
	"default_surcharge_rule" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ticket_settings_tenant_id_pk" PRIMARY KEY("tenant_id")
);
--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "verification_codes" ADD CONSTRAINT "verification_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "global_ticket_settings" ADD CONSTRAINT "global_ticket_settings_default_rule_fk" FOREIGN KEY ("default_surcharge_rule") REFERENCES "public"."global_surcharge_rules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_settings" ADD CONSTRAINT "payment_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surcharge_rules" ADD CONSTRAINT "surcharge_rules_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tenant_sites" ADD CONSTRAINT "tenant_sites_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_settings" ADD CONSTRAINT "ticket_settings_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ticket_settings" ADD CONSTRAINT "ticket_settings_default_rule_fk" FOREIGN KEY ("tenant_id","default_surcharge_rule") REFERENCES "public"."surcharge_rules"("tenant_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invites_code_key" ON "invites" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "invites_email_idx" ON "invites" USING btree ("email");--> statement-breakpoint
CREATE INDEX "memberships_tenant_idx" ON "memberships" USING btree ("tenant_id");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "verification_codes_user_idx" ON "verification_codes" USING btree ("user_id","purpose") WHERE used_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "tenants_url_key" ON "tenants" USING btree ("url");--> statement-breakpoint
CREATE INDEX "tenants_name_idx" ON "tenants" USING btree ("name","id");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE done_at is null and failed_at is null;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_dedupe_key" ON "jobs" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "outbox_created_idx" ON "outbox" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "outbox_to_idx" ON "outbox" USING btree ("to");--> statement-breakpoint
CREATE UNIQUE INDEX "discount_codes_code_key" ON "discount_codes" USING btree ("tenant_id","event_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "events_id_key" ON "events" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "events_url_name_key" ON "events" USING btree ("tenant_id","url_name");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_id_key" ON "orders" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_order_uid_key" ON "orders" USING btree ("order_uid");--> statement-breakpoint
CREATE INDEX "orders_event_idx" ON "orders" USING btree ("tenant_id","event_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_hold_idx" ON "orders" USING btree ("hold_expires_at") WHERE status = 'draft';--> statement-breakpoint
CREATE INDEX "orders_payment_session_idx" ON "orders" USING btree ("payment_session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscribers_event_email_key" ON "subscribers" USING btree ("tenant_id","event_id","email");--> statement-breakpoint
CREATE INDEX "ticket_types_event_idx" ON "ticket_types" USING btree ("tenant_id","event_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tickets_uid_key" ON "tickets" USING btree ("ticket_uid");--> statement-breakpoint
CREATE INDEX "tickets_order_idx" ON "tickets" USING btree ("tenant_id","order_id");--> statement-breakpoint
CREATE INDEX "tickets_event_idx" ON "tickets" USING btree ("tenant_id","event_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "test_checkout_sessions_id_key" ON "test_checkout_sessions" USING btree ("id");--> statement-breakpoint
CREATE UNIQUE INDEX "test_checkout_sessions_idempotency_key" ON "test_checkout_sessions" USING btree ("tenant_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "test_checkout_sessions_order_idx" ON "test_checkout_sessions" USING btree ("tenant_id","order_id");--> statement-breakpoint
CREATE INDEX "test_checkout_sessions_charge_idx" ON "test_checkout_sessions" USING btree ("charge_id");--> statement-breakpoint
CREATE UNIQUE INDEX "test_refunds_idempotency_key" ON "test_refunds" USING btree ("idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "surcharge_rules_id_key" ON "surcharge_rules" USING btree ("id");
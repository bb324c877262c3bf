CREATE TYPE "public"."contact_entry_kind" AS ENUM('note', 'reply');--> statement-breakpoint
CREATE TYPE "public"."contact_status" AS ENUM('new', 'open', 'answered', 'closed');--> statement-breakpoint
CREATE TYPE "public"."thread_request_status" AS ENUM('pending', 'approved', 'declined', 'cancelled');--> statement-breakpoint
CREATE TABLE "contact_message_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"message_id" uuid NOT NULL,
	"kind" "contact_entry_kind" NOT NULL,
	"author_user_id" uuid,
	"author_email" text NOT NULL,
	"body" text NOT NULL,
	"mail_message_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exit_probes" (
	"exit_id" uuid PRIMARY KEY NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"is_ok" boolean NOT NULL,
	"connect_ms" integer,
	"error" text,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"last_ok_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "exit_traffic_health" (
	"exit_id" uuid NOT NULL,
	"bucket_start" timestamp with time zone NOT NULL,
	"connects" integer DEFAULT 0 NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"connect_ms_total" bigint DEFAULT 0 NOT NULL,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	CONSTRAINT "exit_traffic_health_exit_id_bucket_start_pk" PRIMARY KEY("exit_id","bucket_start")
);
--> statement-breakpoint
CREATE TABLE "thread_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"plan_id" uuid NOT NULL,
	"current_threads" integer NOT NULL,
	"requested_threads" integer NOT NULL,
	"purpose" text NOT NULL,
	"company" text,
	"website" text,
	"status" "thread_request_status" DEFAULT 'pending' NOT NULL,
	"granted_threads" integer,
	"decision_message" text,
	"decided_by_user_id" uuid,
	"decided_by_email" text,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "thread_requests_requested_positive" CHECK ("thread_requests"."requested_threads" > 0),
	CONSTRAINT "thread_requests_granted_positive" CHECK ("thread_requests"."granted_threads" is null or "thread_requests"."granted_threads" > 0)
);
--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "status" "contact_status" DEFAULT 'new' NOT NULL;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "assignee_user_id" uuid;--> statement-breakpoint
ALTER TABLE "contact_messages" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "refunded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "exits" ADD COLUMN "out_of_rotation_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "exits" ADD COLUMN "out_of_rotation_reason" text;--> statement-breakpoint
ALTER TABLE "contact_message_entries" ADD CONSTRAINT "contact_message_entries_message_id_contact_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."contact_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_message_entries" ADD CONSTRAINT "contact_message_entries_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exit_probes" ADD CONSTRAINT "exit_probes_exit_id_exits_id_fk" FOREIGN KEY ("exit_id") REFERENCES "public"."exits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exit_traffic_health" ADD CONSTRAINT "exit_traffic_health_exit_id_exits_id_fk" FOREIGN KEY ("exit_id") REFERENCES "public"."exits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thread_requests" ADD CONSTRAINT "thread_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thread_requests" ADD CONSTRAINT "thread_requests_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "thread_requests" ADD CONSTRAINT "thread_requests_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_message_entries_message_idx" ON "contact_message_entries" USING btree ("message_id","created_at");--> statement-breakpoint
CREATE INDEX "thread_requests_status_created_idx" ON "thread_requests" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "thread_requests_user_created_idx" ON "thread_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "thread_requests_one_pending_per_plan_idx" ON "thread_requests" USING btree ("plan_id") WHERE "thread_requests"."status" = 'pending';--> statement-breakpoint
ALTER TABLE "contact_messages" ADD CONSTRAINT "contact_messages_assignee_user_id_users_id_fk" FOREIGN KEY ("assignee_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_messages_status_created_idx" ON "contact_messages" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_refund_once_idx" ON "ledger_entries" USING btree ("order_id") WHERE "ledger_entries"."kind" = 'refund';
CREATE TYPE "public"."traffic_cap_period" AS ENUM('day', 'month', 'lifetime');--> statement-breakpoint
CREATE TABLE "proxy_user_usage" (
	"proxy_user_id" uuid NOT NULL,
	"bucket_start" timestamp with time zone NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"extra_bytes" bigint DEFAULT 0 NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"errors" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "proxy_user_usage_proxy_user_id_bucket_start_pk" PRIMARY KEY("proxy_user_id","bucket_start")
);
--> statement-breakpoint
CREATE TABLE "proxy_users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"plan_id" uuid NOT NULL,
	"login" text NOT NULL,
	"password" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"traffic_cap_bytes" bigint,
	"cap_period" "traffic_cap_period",
	"thread_limit" integer,
	"traffic_used_bytes" bigint DEFAULT 0 NOT NULL,
	"period_used_bytes" bigint DEFAULT 0 NOT NULL,
	"period_start" timestamp with time zone,
	"targeting" jsonb,
	"allowlist" text[] DEFAULT '{}' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "proxy_users_login_unique" UNIQUE("login"),
	CONSTRAINT "proxy_users_cap_pair" CHECK (("proxy_users"."traffic_cap_bytes" is null) = ("proxy_users"."cap_period" is null) and coalesce("proxy_users"."traffic_cap_bytes", 0) >= 0),
	CONSTRAINT "proxy_users_thread_limit_positive" CHECK ("proxy_users"."thread_limit" is null or "proxy_users"."thread_limit" > 0),
	CONSTRAINT "proxy_users_used_non_negative" CHECK ("proxy_users"."traffic_used_bytes" >= 0 and "proxy_users"."period_used_bytes" >= 0),
	CONSTRAINT "proxy_users_login_not_plan_like" CHECK ("proxy_users"."login" !~ '^bg')
);
--> statement-breakpoint
ALTER TABLE "proxy_user_usage" ADD CONSTRAINT "proxy_user_usage_proxy_user_id_proxy_users_id_fk" FOREIGN KEY ("proxy_user_id") REFERENCES "public"."proxy_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "proxy_users" ADD CONSTRAINT "proxy_users_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "proxy_users_plan_idx" ON "proxy_users" USING btree ("plan_id");
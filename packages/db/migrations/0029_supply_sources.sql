CREATE TYPE "public"."source_kind" AS ENUM('exits', 'network');--> statement-breakpoint
CREATE TYPE "public"."source_state" AS ENUM('active', 'draining', 'off');--> statement-breakpoint
CREATE TABLE "source_usage_daily" (
	"source_id" uuid NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"carried_bytes" bigint DEFAULT 0 NOT NULL,
	"billed_bytes" bigint DEFAULT 0 NOT NULL,
	"connects" bigint DEFAULT 0 NOT NULL,
	"failures" bigint DEFAULT 0 NOT NULL,
	"connect_ms_total" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "source_usage_daily_source_id_day_pk" PRIMARY KEY("source_id","day")
);
--> statement-breakpoint
CREATE TABLE "supply_sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"pool_type" "pool_type" NOT NULL,
	"kind" "source_kind" NOT NULL,
	"grammar" text,
	"template" text,
	"password_template" text,
	"endpoint_url" text,
	"cost_per_gb_cents" integer DEFAULT 0 NOT NULL,
	"weight" integer DEFAULT 100 NOT NULL,
	"state" "source_state" DEFAULT 'active' NOT NULL,
	"alarm" text,
	"alarm_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "supply_sources_name_unique" UNIQUE("name"),
	CONSTRAINT "supply_sources_cost_not_negative" CHECK ("supply_sources"."cost_per_gb_cents" >= 0),
	CONSTRAINT "supply_sources_weight_range" CHECK ("supply_sources"."weight" between 0 and 1000000),
	CONSTRAINT "supply_sources_network_has_endpoint" CHECK ("supply_sources"."kind" <> 'network' or ("supply_sources"."endpoint_url" is not null and "supply_sources"."grammar" is not null))
);
--> statement-breakpoint
ALTER TABLE "source_usage_daily" ADD CONSTRAINT "source_usage_daily_source_id_supply_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."supply_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "supply_sources_pool_idx" ON "supply_sources" USING btree ("pool_type");
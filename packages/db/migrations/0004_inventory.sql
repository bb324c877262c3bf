CREATE TYPE "public"."exit_kind" AS ENUM('direct', 'upstream');--> statement-breakpoint
CREATE TABLE "exits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"kind" "exit_kind" NOT NULL,
	"pool_type" "pool_type" NOT NULL,
	"local_address" text,
	"upstream_url" text,
	"country" text NOT NULL,
	"state" text,
	"city" text,
	"zip" text,
	"asn" integer,
	"asn_name" text,
	"mobile_generation" text,
	"is_risky" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exits_country_code" CHECK ("exits"."country" ~ '^[A-Z]{2}$'),
	CONSTRAINT "exits_kind_fields" CHECK (("exits"."kind" = 'direct' and "exits"."upstream_url" is null) or ("exits"."kind" = 'upstream' and "exits"."upstream_url" is not null))
);
--> statement-breakpoint
CREATE TABLE "plan_allowlist" (
	"address" text PRIMARY KEY NOT NULL,
	"plan_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "plan_allowlist" ADD CONSTRAINT "plan_allowlist_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exits_pool_country_idx" ON "exits" USING btree ("pool_type","country");
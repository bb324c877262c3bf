CREATE TYPE "public"."agent_status" AS ENUM('active', 'quarantined', 'banned');--> statement-breakpoint
ALTER TYPE "public"."user_role" ADD VALUE 'partner';--> statement-breakpoint
CREATE TABLE "agent_presence" (
	"agent_id" uuid NOT NULL,
	"gateway_id" text NOT NULL,
	"address" text NOT NULL,
	"connected_at" timestamp with time zone NOT NULL,
	"seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "agent_presence_agent_id_gateway_id_pk" PRIMARY KEY("agent_id","gateway_id")
);
--> statement-breakpoint
CREATE TABLE "agents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"partner_user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"token_prefix" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"status" "agent_status" DEFAULT 'active' NOT NULL,
	"pool_override" "pool_type",
	"max_tunnels" integer,
	"gb_per_day" numeric(10, 3),
	"hours" text,
	"plain_http" boolean,
	"last_address" text,
	"country" text,
	"state" text,
	"city" text,
	"zip" text,
	"asn" integer,
	"asn_name" text,
	"pool_type" "pool_type",
	"first_seen_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone,
	CONSTRAINT "agents_tokenHash_unique" UNIQUE("token_hash"),
	CONSTRAINT "agents_max_tunnels_positive" CHECK ("agents"."max_tunnels" is null or "agents"."max_tunnels" > 0),
	CONSTRAINT "agents_gb_per_day_positive" CHECK ("agents"."gb_per_day" is null or "agents"."gb_per_day" > 0)
);
--> statement-breakpoint
ALTER TABLE "agent_presence" ADD CONSTRAINT "agent_presence_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_partner_user_id_users_id_fk" FOREIGN KEY ("partner_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agent_presence_seen_at_idx" ON "agent_presence" USING btree ("seen_at");--> statement-breakpoint
CREATE INDEX "agents_partner_user_id_idx" ON "agents" USING btree ("partner_user_id");
CREATE TABLE "agent_usage_daily" (
	"agent_id" uuid NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"carried_bytes" bigint DEFAULT 0 NOT NULL,
	"earned_byte_cents" numeric(38, 0) DEFAULT 0 NOT NULL,
	CONSTRAINT "agent_usage_daily_agent_id_day_pk" PRIMARY KEY("agent_id","day")
);
--> statement-breakpoint
CREATE TABLE "partner_rates" (
	"pool_type" "pool_type" PRIMARY KEY NOT NULL,
	"cents_per_gb" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "partner_rates_not_negative" CHECK ("partner_rates"."cents_per_gb" >= 0)
);
--> statement-breakpoint
ALTER TABLE "agent_usage_daily" ADD CONSTRAINT "agent_usage_daily_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE no action ON UPDATE no action;
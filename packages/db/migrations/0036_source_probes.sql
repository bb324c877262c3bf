CREATE TABLE "source_probes" (
	"source_id" uuid PRIMARY KEY NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"is_ok" boolean NOT NULL,
	"connect_ms" integer,
	"refusal" text,
	"error" text,
	"last_probe_exit_ip" text,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"failing_since" timestamp with time zone,
	"last_ok_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "source_probes" ADD CONSTRAINT "source_probes_source_id_supply_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."supply_sources"("id") ON DELETE cascade ON UPDATE no action;
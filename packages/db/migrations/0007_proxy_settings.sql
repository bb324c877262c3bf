CREATE TABLE "proxy_settings" (
	"plan_id" uuid PRIMARY KEY NOT NULL,
	"countries" text[] DEFAULT '{}' NOT NULL,
	"states" text[] DEFAULT '{}' NOT NULL,
	"cities" text[] DEFAULT '{}' NOT NULL,
	"zipcodes" text[] DEFAULT '{}' NOT NULL,
	"asns" bigint[] DEFAULT '{}' NOT NULL,
	"exclude_countries" text[] DEFAULT '{}' NOT NULL,
	"exclude_asns" bigint[] DEFAULT '{}' NOT NULL,
	"anonymous_filter" boolean DEFAULT true NOT NULL,
	"rotation_minutes" integer DEFAULT 30 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "proxy_settings_rotation" CHECK ("proxy_settings"."rotation_minutes" between 1 and 120),
	CONSTRAINT "proxy_settings_country_lists" CHECK (cardinality("proxy_settings"."countries") = 0 or cardinality("proxy_settings"."exclude_countries") = 0)
);
--> statement-breakpoint
ALTER TABLE "proxy_settings" ADD CONSTRAINT "proxy_settings_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "exits_pool_country_state_idx" ON "exits" USING btree ("pool_type","country","state");--> statement-breakpoint
CREATE INDEX "exits_pool_country_asn_idx" ON "exits" USING btree ("pool_type","country","asn");--> statement-breakpoint
CREATE INDEX "exits_pool_country_zip_idx" ON "exits" USING btree ("pool_type","country","zip");
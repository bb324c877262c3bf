CREATE TYPE "public"."catalog_origin" AS ENUM('imported', 'learned');--> statement-breakpoint
CREATE TABLE "source_catalog" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"source_id" uuid NOT NULL,
	"country" text NOT NULL,
	"state" text,
	"city" text,
	"zip" text,
	"asn" bigint,
	"asn_name" text,
	"location_key" text GENERATED ALWAYS AS (country || '|' || coalesce(lower(state), '') || '|' || coalesce(lower(city), '') || '|' || coalesce(zip, '') || '|' || coalesce(asn::text, '')) STORED NOT NULL,
	"origin" "catalog_origin" NOT NULL,
	"exits_seen" bigint DEFAULT 0 NOT NULL,
	"listed_at" timestamp with time zone,
	"first_seen_at" timestamp with time zone,
	"last_seen_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "source_catalog_country_code" CHECK ("source_catalog"."country" ~ '^[A-Z]{2}$'),
	CONSTRAINT "source_catalog_exits_seen_not_negative" CHECK ("source_catalog"."exits_seen" >= 0)
);
--> statement-breakpoint
ALTER TABLE "supply_sources" ADD COLUMN "catalog_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "source_catalog" ADD CONSTRAINT "source_catalog_source_id_supply_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."supply_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "source_catalog_location_idx" ON "source_catalog" USING btree ("source_id","location_key");--> statement-breakpoint
CREATE INDEX "source_catalog_country_idx" ON "source_catalog" USING btree ("source_id","country");
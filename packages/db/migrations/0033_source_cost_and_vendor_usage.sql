CREATE TABLE "source_vendor_usage" (
	"source_id" uuid NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"vendor_bytes" bigint NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	"imported_by" text NOT NULL,
	CONSTRAINT "source_vendor_usage_source_id_day_pk" PRIMARY KEY("source_id","day"),
	CONSTRAINT "source_vendor_usage_bytes_not_negative" CHECK ("source_vendor_usage"."vendor_bytes" >= 0)
);
--> statement-breakpoint
ALTER TABLE "source_usage_daily" ADD COLUMN "cost_byte_cents" numeric(38, 0) DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "source_vendor_usage" ADD CONSTRAINT "source_vendor_usage_source_id_supply_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."supply_sources"("id") ON DELETE cascade ON UPDATE no action;
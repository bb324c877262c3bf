CREATE TABLE "usage_buckets" (
	"plan_id" uuid NOT NULL,
	"bucket_start" timestamp with time zone NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"extra_bytes" bigint DEFAULT 0 NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"errors" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_buckets_plan_id_bucket_start_pk" PRIMARY KEY("plan_id","bucket_start")
);
--> statement-breakpoint
ALTER TABLE "usage_buckets" ADD CONSTRAINT "usage_buckets_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_buckets_start_idx" ON "usage_buckets" USING btree ("bucket_start");
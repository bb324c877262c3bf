CREATE TABLE "usage_errors" (
	"plan_id" uuid NOT NULL,
	"bucket_start" timestamp with time zone NOT NULL,
	"code" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_errors_plan_id_bucket_start_code_pk" PRIMARY KEY("plan_id","bucket_start","code")
);
--> statement-breakpoint
CREATE TABLE "usage_hosts" (
	"plan_id" uuid NOT NULL,
	"day_start" timestamp with time zone NOT NULL,
	"host" text NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_hosts_plan_id_day_start_host_pk" PRIMARY KEY("plan_id","day_start","host")
);
--> statement-breakpoint
ALTER TABLE "usage_errors" ADD CONSTRAINT "usage_errors_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_hosts" ADD CONSTRAINT "usage_hosts_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_errors_start_idx" ON "usage_errors" USING btree ("bucket_start");--> statement-breakpoint
CREATE INDEX "usage_hosts_start_idx" ON "usage_hosts" USING btree ("day_start");
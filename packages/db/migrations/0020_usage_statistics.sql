CREATE TABLE "usage_stats_daily" (
	"plan_id" uuid NOT NULL,
	"credential_key" text NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"extra_bytes" bigint DEFAULT 0 NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"refusals" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_stats_daily_plan_id_credential_key_day_pk" PRIMARY KEY("plan_id","credential_key","day")
);
--> statement-breakpoint
CREATE TABLE "usage_stats_errors_daily" (
	"plan_id" uuid NOT NULL,
	"credential_key" text NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"code" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_stats_errors_daily_plan_id_credential_key_day_code_pk" PRIMARY KEY("plan_id","credential_key","day","code")
);
--> statement-breakpoint
CREATE TABLE "usage_stats_errors_hourly" (
	"plan_id" uuid NOT NULL,
	"credential_key" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"code" text NOT NULL,
	"count" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_stats_errors_hourly_plan_id_credential_key_hour_code_pk" PRIMARY KEY("plan_id","credential_key","hour","code")
);
--> statement-breakpoint
CREATE TABLE "usage_stats_hosts_daily" (
	"plan_id" uuid NOT NULL,
	"credential_key" text NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"host" text NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_stats_hosts_daily_plan_id_credential_key_day_host_pk" PRIMARY KEY("plan_id","credential_key","day","host")
);
--> statement-breakpoint
CREATE TABLE "usage_stats_hourly" (
	"plan_id" uuid NOT NULL,
	"credential_key" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"extra_bytes" bigint DEFAULT 0 NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"errors" bigint DEFAULT 0 NOT NULL,
	"refusals" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_stats_hourly_plan_id_credential_key_hour_pk" PRIMARY KEY("plan_id","credential_key","hour")
);
--> statement-breakpoint
ALTER TABLE "usage_stats_daily" ADD CONSTRAINT "usage_stats_daily_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_stats_errors_daily" ADD CONSTRAINT "usage_stats_errors_daily_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_stats_errors_hourly" ADD CONSTRAINT "usage_stats_errors_hourly_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_stats_hosts_daily" ADD CONSTRAINT "usage_stats_hosts_daily_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_stats_hourly" ADD CONSTRAINT "usage_stats_hourly_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_stats_daily_day_idx" ON "usage_stats_daily" USING btree ("day");--> statement-breakpoint
CREATE INDEX "usage_stats_errors_daily_day_idx" ON "usage_stats_errors_daily" USING btree ("day");--> statement-breakpoint
CREATE INDEX "usage_stats_errors_hourly_hour_idx" ON "usage_stats_errors_hourly" USING btree ("hour");--> statement-breakpoint
CREATE INDEX "usage_stats_hosts_daily_day_idx" ON "usage_stats_hosts_daily" USING btree ("day");--> statement-breakpoint
CREATE INDEX "usage_stats_hourly_hour_idx" ON "usage_stats_hourly" USING btree ("hour");
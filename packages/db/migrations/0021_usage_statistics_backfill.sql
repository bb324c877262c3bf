-- Custom migration (drizzle-kit generate --custom): the Statistics tables start with the usage kept before
-- them, as all-credentials rows ('*'; there was no split by credential before). Refusals by our own policy
-- are the codes of POLICY_REFUSAL_CODES (packages/contracts/src/stats.ts) as they stand here.
INSERT INTO "usage_stats_hourly" ("plan_id", "credential_key", "hour", "bytes", "extra_bytes", "requests", "errors", "refusals")
SELECT b."plan_id", '*', b."bucket_start", b."bytes", b."extra_bytes", b."requests", b."errors",
  COALESCE((
    SELECT sum(e."count") FROM "usage_errors" e
    WHERE e."plan_id" = b."plan_id" AND e."bucket_start" = b."bucket_start"
      AND e."code" IN ('PORT_BLOCKED', 'HOST_BLOCKED', 'PRIVATE_TARGET', 'UNKNOWN_PARAM', 'DUPLICATE_PARAM', 'INVALID_VALUE', 'PARAM_CONFLICT', 'PARAM_REQUIRES_COUNTRY')
  ), 0)
FROM "usage_buckets" b
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "usage_stats_daily" ("plan_id", "credential_key", "day", "bytes", "extra_bytes", "requests", "errors", "refusals")
SELECT "plan_id", '*', date_trunc('day', "hour", 'UTC'), sum("bytes"), sum("extra_bytes"), sum("requests"), sum("errors"), sum("refusals")
FROM "usage_stats_hourly"
GROUP BY "plan_id", date_trunc('day', "hour", 'UTC')
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "usage_stats_errors_hourly" ("plan_id", "credential_key", "hour", "code", "count")
SELECT "plan_id", '*', "bucket_start", "code", "count" FROM "usage_errors"
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "usage_stats_errors_daily" ("plan_id", "credential_key", "day", "code", "count")
SELECT "plan_id", '*', date_trunc('day', "bucket_start", 'UTC'), "code", sum("count")
FROM "usage_errors"
GROUP BY "plan_id", date_trunc('day', "bucket_start", 'UTC'), "code"
ON CONFLICT DO NOTHING;
--> statement-breakpoint
INSERT INTO "usage_stats_hosts_daily" ("plan_id", "credential_key", "day", "host", "bytes", "requests", "errors")
SELECT "plan_id", '*', "day_start", "host", "bytes", 0, 0 FROM "usage_hosts"
ON CONFLICT DO NOTHING;

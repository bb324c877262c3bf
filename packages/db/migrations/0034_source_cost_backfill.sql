-- The days carried before the cost was kept per day are priced as the figures showed them until now: at
-- each source's cost per GB today. From here on, each usage flush adds its bytes at the cost in force.
UPDATE "source_usage_daily" AS "day"
SET "cost_byte_cents" = "day"."carried_bytes"::numeric * "source"."cost_per_gb_cents"
FROM "supply_sources" AS "source"
WHERE "source"."id" = "day"."source_id" AND "day"."carried_bytes" > 0;

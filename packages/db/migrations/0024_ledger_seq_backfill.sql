-- Custom migration (drizzle-kit generate --custom): numbers each account's existing ledger rows 1, 2, 3, ...
-- by (created_at, id), the best order they had. Rows of racing transactions may have been written in
-- another order than their created_at (a transaction's start) says, and nothing kept the true one, so
-- those keep the order given here; every row written from now on takes its seq under the account's lock.
UPDATE "ledger_entries" l SET "seq" = n."seq"
FROM (
  SELECT "id", row_number() OVER (PARTITION BY "user_id" ORDER BY "created_at", "id") AS "seq"
  FROM "ledger_entries"
) n
WHERE l."id" = n."id";

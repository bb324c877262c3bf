-- Custom migration (drizzle-kit generate --custom): an address lets traffic in without credentials only for
-- the one customer who proved it (a verified entry). Proxy users' addresses were never proved: the column
-- added before starts empty, so they admit nothing until their owner adds them again from that address.
-- An address that more than one customer had proved on a plan is nobody's now: each such entry goes back
-- to unproved, and the first of them to add it again from that address holds it (the API refuses the rest).
UPDATE "plan_allowlist" SET "is_verified" = false
WHERE "is_verified" AND "address" IN (
  SELECT a."address" FROM "plan_allowlist" a
  JOIN "plans" p ON p."id" = a."plan_id"
  WHERE a."is_verified"
  GROUP BY a."address"
  HAVING count(DISTINCT p."user_id") > 1
);

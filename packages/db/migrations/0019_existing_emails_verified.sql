-- Custom migration (drizzle-kit generate --custom): accounts made before email verification existed are
-- taken as verified, so that no customer is held back from topping up by a link they were never sent.
UPDATE "users" SET "email_verified_at" = "created_at" WHERE "email_verified_at" IS NULL AND "deleted_at" IS NULL;

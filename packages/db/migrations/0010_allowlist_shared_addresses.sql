-- drizzle-kit cannot name an existing primary key and asks for it here: PostgreSQL named the old one
-- (address alone) plan_allowlist_pkey.
ALTER TABLE "plan_allowlist" DROP CONSTRAINT "plan_allowlist_pkey";--> statement-breakpoint
ALTER TABLE "plan_allowlist" ADD CONSTRAINT "plan_allowlist_plan_id_address_pk" PRIMARY KEY("plan_id","address");--> statement-breakpoint
ALTER TABLE "plan_allowlist" ADD COLUMN "is_verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "plan_allowlist_address_idx" ON "plan_allowlist" USING btree ("address");
ALTER TABLE "ledger_entries" ALTER COLUMN "seq" DROP DEFAULT;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_user_seq_idx" ON "ledger_entries" USING btree ("user_id","seq");
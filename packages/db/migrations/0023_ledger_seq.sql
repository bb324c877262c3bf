ALTER TABLE "ledger_entries" ADD COLUMN "seq" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_log_actor_user_idx" ON "audit_log" USING btree ("actor_user_id","created_at");
CREATE TABLE "payment_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" "payment_method" NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source_ip" text,
	"headers" jsonb NOT NULL,
	"raw_body" text NOT NULL,
	"is_signature_valid" boolean,
	"provider_invoice_id" text,
	"claimed_status" text,
	"outcome" text
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "provider_status" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "credited_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "payment_events_invoice_idx" ON "payment_events" USING btree ("provider","provider_invoice_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_topup_once_idx" ON "ledger_entries" USING btree ("order_id") WHERE "ledger_entries"."kind" = 'topup';
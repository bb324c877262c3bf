ALTER TYPE "public"."order_status" ADD VALUE 'review';--> statement-breakpoint
CREATE INDEX "payment_events_received_idx" ON "payment_events" USING btree ("received_at");
CREATE TABLE "usage_flushes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "usage_flushes_created_at_idx" ON "usage_flushes" USING btree ("created_at");
CREATE TABLE "exit_removals" (
	"version" bigint NOT NULL,
	"exit_id" uuid NOT NULL,
	"removed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exit_removals_version_exit_id_pk" PRIMARY KEY("version","exit_id")
);
--> statement-breakpoint
ALTER TABLE "exits" ADD COLUMN "changed_version" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "inventory_version" ADD COLUMN "removals_pruned_through" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "exits_changed_version_idx" ON "exits" USING btree ("changed_version");
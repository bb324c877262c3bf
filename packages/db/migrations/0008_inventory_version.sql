CREATE TABLE "inventory_version" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "inventory_version_single_row" CHECK ("inventory_version"."id")
);
--> statement-breakpoint
INSERT INTO "inventory_version" DEFAULT VALUES;--> statement-breakpoint
CREATE FUNCTION "bump_inventory_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE "inventory_version" SET "version" = "version" + 1;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "exits_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "exits" FOR EACH STATEMENT EXECUTE FUNCTION "bump_inventory_version"();

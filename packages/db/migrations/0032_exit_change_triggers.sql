-- Custom migration (drizzle-kit generate --custom): the gateway reads what changed in the inventory
-- since its version instead of the whole of it. The version is now bumped BEFORE each statement that
-- writes `exits` (it was after), so its row lock is held from the first row written to the commit:
-- versions commit in the order they were given, and a reader that sees version V has every row stamped
-- V or lower. Each row written is stamped with its statement's version (handed to the row trigger in a
-- transaction-local setting: one read of a setting a row, not a query), each row deleted is remembered
-- in exit_removals, and a TRUNCATE, which names no rows, marks every older removal as unknown.
CREATE OR REPLACE FUNCTION "bump_inventory_version"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	bumped bigint;
BEGIN
	UPDATE "inventory_version" SET
		"version" = "version" + 1,
		"removals_pruned_through" = CASE WHEN TG_OP = 'TRUNCATE' THEN "version" + 1 ELSE "removals_pruned_through" END
	RETURNING "version" INTO bumped;
	PERFORM set_config('bytegate.inventory_version', bumped::text, true);
	RETURN NULL;
END
$$;--> statement-breakpoint
DROP TRIGGER "exits_changed" ON "exits";--> statement-breakpoint
CREATE TRIGGER "exits_changing" BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "exits" FOR EACH STATEMENT EXECUTE FUNCTION "bump_inventory_version"();--> statement-breakpoint
CREATE FUNCTION "stamp_exit_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	NEW."changed_version" := current_setting('bytegate.inventory_version')::bigint;
	RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "exits_stamp_version" BEFORE INSERT OR UPDATE ON "exits" FOR EACH ROW EXECUTE FUNCTION "stamp_exit_version"();--> statement-breakpoint
CREATE FUNCTION "remember_exit_removals"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "exit_removals" ("version", "exit_id")
	SELECT current_setting('bytegate.inventory_version')::bigint, "id" FROM "removed";
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "exits_removed" AFTER DELETE ON "exits" REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "remember_exit_removals"();

import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

/**
 * Every staff action: who, when, what, on which target, the values before and after, and why. The
 * table is append-only in the database itself: a trigger (migration 0013) refuses UPDATE, DELETE and
 * TRUNCATE, so not even a bug in the server can rewrite history. `actorEmail` is kept as it was at the
 * time ('cli' for the `bytegate` command, which has no user); `actorUserId` is null then.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid().primaryKey().defaultRandom(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    actorUserId: uuid().references(() => users.id),
    actorEmail: text().notNull(),
    action: text().notNull(),
    targetType: text().notNull(),
    targetId: text().notNull(),
    before: jsonb().$type<Record<string, unknown>>(),
    after: jsonb().$type<Record<string, unknown>>(),
    reason: text(),
  },
  (table) => [
    index('audit_log_created_at_idx').on(table.createdAt),
    index('audit_log_target_idx').on(table.targetId, table.createdAt),
    index('audit_log_actor_idx').on(table.actorEmail, table.createdAt),
    // Support's rolling 24-hour allowance sums a staff member's recent balance changes.
    index('audit_log_actor_user_idx').on(table.actorUserId, table.createdAt),
  ],
);

import { index, inet, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

/**
 * What happened on a customer's account, for the customer's own activity feed (issue 19): sign-ins,
 * purchases, top-ups and their outcome, settings and allowlist changes, password and security changes,
 * and staff actions that concern them. `kind` is one of contracts' ACTIVITY_KINDS (text, so a new kind
 * needs no migration); `details` what the feed shows of it; the address and browser of the request
 * that did it, when a person did. Written in the transaction of the change itself where there is one.
 */
export const accountActivity = pgTable(
  'account_activity',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    details: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    ipAddress: inet(),
    userAgent: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('account_activity_user_created_idx').on(table.userId, table.createdAt, table.id)],
);

import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { plans } from './plans.ts';

export const threadRequestStatus = pgEnum('thread_request_status', [
  'pending',
  'approved',
  'declined',
  'cancelled',
]);

/**
 * A customer's request for more threads on a plan (the spec's "through support"), with the KYC answers
 * support reads: what for, and optionally the company and its website. Support approves (the plan's
 * limit becomes `grantedThreads` at once) or declines with a message the customer sees.
 */
export const threadRequests = pgTable(
  'thread_requests',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id),
    planId: uuid()
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    /** The plan's limit when the request was made. */
    currentThreads: integer().notNull(),
    requestedThreads: integer().notNull(),
    purpose: text().notNull(),
    company: text(),
    website: text(),
    status: threadRequestStatus().notNull().default('pending'),
    /** What support approved (may differ from what was asked). */
    grantedThreads: integer(),
    /** Support's answer, shown to the customer. */
    decisionMessage: text(),
    decidedByUserId: uuid().references(() => users.id),
    decidedByEmail: text(),
    decidedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('thread_requests_status_created_idx').on(table.status, table.createdAt),
    index('thread_requests_user_created_idx').on(table.userId, table.createdAt),
    // One open request per plan: a second one while the first waits is refused.
    uniqueIndex('thread_requests_one_pending_per_plan_idx')
      .on(table.planId)
      .where(sql`${table.status} = 'pending'`),
    check('thread_requests_requested_positive', sql`${table.requestedThreads} > 0`),
    check(
      'thread_requests_granted_positive',
      sql`${table.grantedThreads} is null or ${table.grantedThreads} > 0`,
    ),
  ],
);

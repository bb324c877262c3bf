import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { orders } from './billing.ts';
import { plans } from './plans.ts';

/** What a customer can be told of, by email and by webhook (`test` only by the webhook's test button). */
export const notificationKind = pgEnum('notification_kind', [
  'low_traffic',
  'low_balance',
  'topup_credited',
  'purchase_completed',
  'new_sign_in',
  'two_factor_changed',
  'auto_buy_completed',
  'auto_buy_failed',
  'test',
]);

/**
 * A customer's choices: which kinds go by email and which to the webhook, the balance under which to
 * warn, and the webhook's URL and signing secret. No row: the defaults (every kind by email, no webhook).
 * `isBalanceLow` is the state of the low-balance alert: set when it fired, cleared when the balance is
 * back at or above the threshold, so it fires once per crossing.
 */
export const notificationSettings = pgTable('notification_settings', {
  userId: uuid()
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  emailKinds: notificationKind().array().notNull(),
  webhookKinds: notificationKind().array().notNull(),
  lowBalanceThresholdCents: bigint({ mode: 'number' }),
  isBalanceLow: boolean().notNull().default(false),
  webhookUrl: text(),
  /** Signs every delivery (HMAC-SHA256); shown to the customer, who checks signatures with it. */
  webhookSecret: text(),
  updatedAt: timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});

/**
 * A plan's low-traffic alert: GB left under `thresholdBytes`, or `thresholdPercent` of its traffic used.
 * `isTriggered` is set when it fires and cleared when the plan is back above (a purchase), so each
 * crossing fires once, however many usage flushes it takes.
 */
export const planTrafficAlerts = pgTable('plan_traffic_alerts', {
  planId: uuid()
    .primaryKey()
    .references(() => plans.id, { onDelete: 'cascade' }),
  userId: uuid()
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  thresholdBytes: bigint({ mode: 'number' }),
  thresholdPercent: integer(),
  isTriggered: boolean().notNull().default(false),
  triggeredAt: timestamp({ withTimezone: true }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});

/**
 * Where a plan's auto-buy stands: `armed` waits for traffic left to fall under the threshold; after a
 * crossing it is `bought`, `insufficient_balance` (retried quietly once the balance covers it) or
 * `monthly_limit`; back above the threshold it is `armed` again.
 */
export const autoBuyStatus = pgEnum('auto_buy_status', [
  'armed',
  'bought',
  'insufficient_balance',
  'monthly_limit',
]);

/** "When traffic left falls under X GB, buy Y GB from the balance, at most Z times a month." */
export const autoBuyRules = pgTable('auto_buy_rules', {
  planId: uuid()
    .primaryKey()
    .references(() => plans.id, { onDelete: 'cascade' }),
  userId: uuid()
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  thresholdBytes: bigint({ mode: 'number' }).notNull(),
  quantityGb: integer().notNull(),
  maxPerMonth: integer().notNull(),
  isEnabled: boolean().notNull().default(true),
  status: autoBuyStatus().notNull().default('armed'),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
});

export const autoBuyOutcome = pgEnum('auto_buy_outcome', ['bought', 'insufficient_balance', 'monthly_limit']);

/** Each time an auto-buy acted: the order it made, or why it could not. Counts the month's purchases. */
export const autoBuyRuns = pgTable(
  'auto_buy_runs',
  {
    id: uuid().primaryKey().defaultRandom(),
    planId: uuid()
      .notNull()
      .references(() => plans.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    outcome: autoBuyOutcome().notNull(),
    orderId: uuid().references(() => orders.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('auto_buy_runs_plan_created_idx').on(table.planId, table.createdAt)],
);

export const mailStatus = pgEnum('notification_mail_status', ['pending', 'sent', 'skipped', 'failed']);

/**
 * Something a customer is told of, written once where it happens (in the transaction that made it so,
 * where there is one); the jobs mail it and hand it to the webhook. `payload` is the event's data as
 * the webhook sends it.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: notificationKind().notNull(),
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Set when the jobs took it (mailed or not, webhook delivery created or not). */
    dispatchedAt: timestamp({ withTimezone: true }),
    mailStatus: mailStatus().notNull().default('pending'),
    mailError: text(),
  },
  (table) => [
    index('notifications_undispatched_idx').on(table.createdAt).where(sql`${table.dispatchedAt} is null`),
    index('notifications_user_created_idx').on(table.userId, table.createdAt),
  ],
);

export const webhookDeliveryStatus = pgEnum('webhook_delivery_status', ['pending', 'delivered', 'failed']);

/**
 * One notification to be POSTed to a customer's webhook: retried with backoff for 24 hours until the
 * receiver answers 2xx (`delivered`), then given up (`failed`).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid().primaryKey().defaultRandom(),
    notificationId: uuid()
      .notNull()
      .references(() => notifications.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text().notNull(),
    status: webhookDeliveryStatus().notNull().default('pending'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp({ withTimezone: true }),
    lastStatusCode: integer(),
    lastError: text(),
  },
  (table) => [
    index('webhook_deliveries_due_idx').on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
    index('webhook_deliveries_user_created_idx').on(table.userId, table.createdAt),
  ],
);

/** Each POST of a delivery: what the receiver answered (status and the start of its body), or the error. */
export const webhookDeliveryAttempts = pgTable(
  'webhook_delivery_attempts',
  {
    id: uuid().primaryKey().defaultRandom(),
    deliveryId: uuid()
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    statusCode: integer(),
    responseBody: text(),
    error: text(),
    durationMs: integer().notNull(),
  },
  (table) => [index('webhook_delivery_attempts_delivery_idx').on(table.deliveryId, table.attemptedAt)],
);

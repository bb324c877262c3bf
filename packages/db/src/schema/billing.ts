import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

export const orderKind = pgEnum('order_kind', ['topup', 'purchase']);
/** `review`: a top-up paid short with no USD figure from the provider, held for a person to check. */
export const orderStatus = pgEnum('order_status', ['pending', 'completed', 'failed', 'review']);
export const paymentMethod = pgEnum('payment_method', ['balance', 'cryptomus', 'bitcart']);
export const ledgerKind = pgEnum('ledger_kind', ['topup', 'purchase', 'refund', 'adjustment']);

/**
 * Every top-up and every purchase. `number` is the id shown to people (BG-100001); a top-up carries the
 * payment provider's invoice id, unique per provider, which is what makes crediting happen once.
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid().primaryKey().defaultRandom(),
    number: bigserial({ mode: 'number' }).notNull().unique(),
    userId: uuid()
      .notNull()
      .references(() => users.id),
    kind: orderKind().notNull(),
    description: text().notNull(),
    amountCents: bigint({ mode: 'number' }).notNull(),
    currency: text().notNull().default('USD'),
    paymentMethod: paymentMethod().notNull(),
    status: orderStatus().notNull(),
    providerInvoiceId: text(),
    /** Where the customer pays a pending top-up. */
    checkoutUrl: text(),
    /** The provider's last status of a top-up's invoice, as it said it. */
    providerStatus: text(),
    /** What a top-up actually credited (see the README's paid-over and partial payment rule). */
    creditedCents: bigint({ mode: 'number' }).notNull().default(0),
    expiresAt: timestamp({ withTimezone: true }),
    details: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp({ withTimezone: true }),
    /**
     * A refund by staff: for a purchase, the unused part's cents credited back to the balance (within
     * 7 days); for a top-up, the credited cents taken off the balance because the money was returned
     * outside the product. At most one refund per order (the ledger's unique index says so too).
     */
    refundedCents: bigint({ mode: 'number' }).notNull().default(0),
    refundedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    index('orders_user_created_idx').on(table.userId, table.createdAt),
    uniqueIndex('orders_provider_invoice_idx')
      .on(table.paymentMethod, table.providerInvoiceId)
      .where(sql`${table.providerInvoiceId} is not null`),
    check('orders_amount_positive', sql`${table.amountCents} > 0`),
  ],
);

/**
 * The ledger: one row per change of a balance, written in the same transaction as the balance under a
 * row lock. The sum of a user's amounts equals their balance, always, and read in `seq` order each row's
 * balance before plus its amount is its balance after.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id),
    kind: ledgerKind().notNull(),
    /** Signed: credits are positive, debits negative. */
    amountCents: bigint({ mode: 'number' }).notNull(),
    balanceAfterCents: bigint({ mode: 'number' }).notNull(),
    orderId: uuid().references(() => orders.id),
    reason: text(),
    /**
     * The row's place in its account's ledger (1, 2, 3, ...), taken under the account's row lock, so it
     * is the order the balance moved in. `createdAt` is its transaction's start, which is not: of two
     * racing purchases the later-starting one may take the lock, and move the balance, first.
     */
    seq: bigint({ mode: 'number' }).notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('ledger_user_created_idx').on(table.userId, table.createdAt),
    uniqueIndex('ledger_user_seq_idx').on(table.userId, table.seq),
    // The database itself makes a top-up credit happen at most once, whatever races above it.
    uniqueIndex('ledger_topup_once_idx').on(table.orderId).where(sql`${table.kind} = 'topup'`),
    uniqueIndex('ledger_refund_once_idx').on(table.orderId).where(sql`${table.kind} = 'refund'`),
    check('ledger_balance_after_non_negative', sql`${table.balanceAfterCents} >= 0`),
    check('ledger_amount_non_zero', sql`${table.amountCents} <> 0`),
  ],
);

/** Every inbound payment webhook as received, before anything is done with it (financial audit trail). */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    provider: paymentMethod().notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sourceIp: text(),
    headers: jsonb().$type<Record<string, unknown>>().notNull(),
    rawBody: text().notNull(),
    /** Null where the provider does not sign (Bitcart). */
    isSignatureValid: boolean(),
    providerInvoiceId: text(),
    claimedStatus: text(),
    outcome: text(),
  },
  (table) => [
    index('payment_events_invoice_idx').on(table.provider, table.providerInvoiceId),
    // The retention job deletes by age.
    index('payment_events_received_idx').on(table.receivedAt),
  ],
);

/**
 * What a request sent with an `Idempotency-Key` (the public API's purchases and top-up invoices) was
 * answered, per account and key: a retry gets the same answer instead of buying again. Written in the
 * transaction that did the work, under the account's row lock, so concurrent retries wait and replay.
 * `requestHash` tells a retry from a different request reusing the key.
 */
export const idempotentRequests = pgTable(
  'idempotent_requests',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text().notNull(),
    requestHash: text().notNull(),
    statusCode: bigint({ mode: 'number' }).notNull(),
    response: jsonb().$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('idempotent_requests_user_key_unique').on(table.userId, table.key)],
);

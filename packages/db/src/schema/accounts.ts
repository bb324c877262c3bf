import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  inet,
  integer,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

const timestamps = {
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date()),
};

/**
 * Who a user is to Bytegate: every signup is a customer; `bytegate staff grant` makes support or admins;
 * `bytegate agents token --partner` makes a customer a partner (a customer who also runs exit agents and
 * earns by them: everything a customer may do, nothing of staff's).
 */
export const userRole = pgEnum('user_role', ['customer', 'support', 'admin', 'partner']);

/**
 * A customer account. Emails are stored lower-cased and are unique. A deleted account keeps its row
 * (later issues hang orders and the ledger on it) but its personal fields are overwritten.
 */
export const users = pgTable(
  'users',
  {
    id: uuid().primaryKey().defaultRandom(),
    email: text().notNull().unique(),
    /** argon2id; anything else (`!`) means no password: deleted, or created with Google and none set yet. */
    passwordHash: text().notNull(),
    firstName: text().notNull(),
    lastName: text().notNull(),
    company: text(),
    balanceCents: bigint({ mode: 'number' }).notNull().default(0),
    /** Target ports support opened for this customer on top of the default list. */
    unblockedPorts: integer().array().notNull().default(sql`'{}'::integer[]`),
    /** Blocked-category domains support opened for this customer (each with every name under it). */
    unblockedHosts: text().array().notNull().default(sql`'{}'::text[]`),
    role: userRole().notNull().default('customer'),
    /** Set while staff have disabled the account: no sign-in, and its plans stop at the gateway. */
    disabledAt: timestamp({ withTimezone: true }),
    /** When the address in `email` was proven by a mailed link (accounts from before migration 0018: then). */
    emailVerifiedAt: timestamp({ withTimezone: true }),
    /** The TOTP secret (RFC 6238, base32) while two-factor authentication is on; null while it is off. */
    totpSecret: text(),
    totpEnabledAt: timestamp({ withTimezone: true }),
    /** A secret shown at enrolment, until a code from it confirms it (then it moves to `totpSecret`). */
    totpPendingSecret: text(),
    /** The last TOTP time step a code was accepted for: a code (and any older one) is used once. */
    totpLastStep: bigint({ mode: 'number' }),
    /** The Google account linked (OpenID Connect `sub`); sign-in with Google finds the account by it. */
    googleSubject: text().unique(),
    googleEmail: text(),
    deletedAt: timestamp({ withTimezone: true }),
    ...timestamps,
  },
  (table) => [
    check('users_email_lower', sql`${table.email} = lower(${table.email})`),
    check('users_balance_non_negative', sql`${table.balanceCents} >= 0`),
  ],
);

/**
 * A sign-in. Only the SHA-256 of the bearer token is stored, so a leaked table cannot be replayed.
 * A session ends when it expires or is revoked (logout, password change, account deletion).
 */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull().unique(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    revokedAt: timestamp({ withTimezone: true }),
    ipAddress: inet(),
    userAgent: text(),
  },
  (table) => [index('sessions_user_id_idx').on(table.userId)],
);

/**
 * A browser that signed in to an account: its httpOnly device cookie, stored only as a SHA-256. Failed
 * sign-ins made elsewhere never lock such a browser out (OWASP's device cookies).
 */
export const trustedDevices = pgTable(
  'trusted_devices',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull().unique(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('trusted_devices_user_id_idx').on(table.userId)],
);

/** Where a contact message stands in the support inbox. */
export const contactStatus = pgEnum('contact_status', ['new', 'open', 'answered', 'closed']);

/** A message sent through the public contact form: a thread in the support inbox. */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid().primaryKey().defaultRandom(),
    name: text().notNull(),
    email: text().notNull(),
    subject: text(),
    message: text().notNull(),
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    ipAddress: inet(),
    status: contactStatus().notNull().default('new'),
    /** The staff member who owns the thread. */
    assigneeUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true })
      .notNull()
      .defaultNow()
      .$onUpdate(() => new Date()),
  },
  (table) => [index('contact_messages_status_created_idx').on(table.status, table.createdAt)],
);

/** `note`: internal, never sent; `reply`: mailed to the sender. */
export const contactEntryKind = pgEnum('contact_entry_kind', ['note', 'reply']);

/** The thread under a contact message: staff notes and the replies mailed from the console. */
export const contactMessageEntries = pgTable(
  'contact_message_entries',
  {
    id: uuid().primaryKey().defaultRandom(),
    messageId: uuid()
      .notNull()
      .references(() => contactMessages.id, { onDelete: 'cascade' }),
    kind: contactEntryKind().notNull(),
    authorUserId: uuid().references(() => users.id, { onDelete: 'set null' }),
    /** Kept as it was at the time, like the audit log's actor. */
    authorEmail: text().notNull(),
    body: text().notNull(),
    /** The mailer's Message-ID of a reply. */
    mailMessageId: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('contact_message_entries_message_idx').on(table.messageId, table.createdAt)],
);

/** What an API key may do on the public API (`/api/v1`): checked per route. */
export const apiKeyScope = pgEnum('api_key_scope', ['read', 'proxy_users', 'purchase', 'billing']);

/**
 * A customer's long-lived key for the public API. The secret (`bg_live_` and 43 random characters) is
 * shown once and stored only as its SHA-256 (it has 256 bits of entropy: no slow hash is needed to make
 * guessing it hopeless); `prefix` is its first characters, to tell keys apart in the list.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    prefix: text().notNull(),
    secretHash: text().notNull().unique(),
    scopes: apiKeyScope().array().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }),
    lastUsedAt: timestamp({ withTimezone: true }),
    lastUsedIp: inet(),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (table) => [index('api_keys_user_id_idx').on(table.userId)],
);

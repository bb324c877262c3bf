import { boolean, index, integer, pgEnum, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

/**
 * What a mailed one-time link does: set a new password, prove an address (at sign-up or a change), or
 * sign in once to an account locked by failed sign-ins elsewhere.
 */
export const accountTokenPurpose = pgEnum('account_token_purpose', [
  'password_reset',
  'email_verification',
  'sign_in_link',
]);

/**
 * A mailed one-time link. Only the SHA-256 of its token is stored; it works once (`usedAt`) and until
 * `expiresAt`. `email` is the address it was sent to: for a change of email, the new address, which
 * becomes the account's only when the link is followed.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: accountTokenPurpose().notNull(),
    tokenHash: text().notNull().unique(),
    email: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (table) => [index('account_tokens_user_purpose_idx').on(table.userId, table.purpose, table.createdAt)],
);

/** The ten single-use codes that stand in for the authenticator app; stored as SHA-256 only. */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (table) => [index('two_factor_recovery_codes_user_idx').on(table.userId)],
);

/** How the first factor of a sign-in waiting for its second was given (`email_link`: a mailed sign-in link). */
export const signInMethod = pgEnum('sign_in_method', ['password', 'google', 'email_link']);

/**
 * A sign-in that passed its first factor (password or Google) and waits for a two-factor code: the
 * client holds the token (stored as SHA-256), valid 5 minutes, for 5 wrong codes at most.
 */
export const signInChallenges = pgTable(
  'sign_in_challenges',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text().notNull().unique(),
    method: signInMethod().notNull(),
    /** A browser sign-in: the session goes to a cookie, and the browser gets a device cookie. */
    isBrowser: boolean().notNull(),
    failedAttempts: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
  },
  (table) => [index('sign_in_challenges_user_idx').on(table.userId)],
);

/** Why a browser went to Google: to sign in (or sign up), or to link Google to a signed-in account. */
export const oidcFlowPurpose = pgEnum('oidc_flow_purpose', ['sign_in', 'link']);

/**
 * An OpenID Connect authorization under way: the `state` (stored as SHA-256) that comes back with the
 * code, the PKCE verifier and the nonce the ID token must carry. Used once, valid 10 minutes.
 */
export const oidcFlows = pgTable('oidc_flows', {
  id: uuid().primaryKey().defaultRandom(),
  stateHash: text().notNull().unique(),
  codeVerifier: text().notNull(),
  nonce: text().notNull(),
  purpose: oidcFlowPurpose().notNull(),
  /** The account to link Google to (`link`). */
  userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
  usedAt: timestamp({ withTimezone: true }),
});

import type { User } from '@bytegate/contracts/auth';
import { INACTIVITY_TIMEOUT_MS } from '@bytegate/contracts/constants';

/**
 * What the browser keeps of a session in localStorage (SPEC section 4: the user and the last activity).
 * The session itself is an httpOnly cookie that scripts cannot read, so no token is ever stored here.
 */
export const SESSION_KEYS = {
  user: 'bytegate.user',
  lastActivity: 'bytegate.lastActivity',
} as const;

/** Where earlier versions kept the bearer token: removed wherever it is found. */
const LEGACY_TOKEN_KEY = 'bytegate.token';

export interface Session {
  user: User;
}

/** The stored session, or why there is none: `hasEnded` when something was stored but may not go on. */
export interface LoadedSession {
  session: Session | null;
  /** A session was there and ended at load (idle too long, or unreadable): the server's must end too. */
  hasEnded: boolean;
}

/** The part of the Storage interface the session needs, so the rules run on any store in tests. */
export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function clearSession(store: KeyValueStore): void {
  store.removeItem(LEGACY_TOKEN_KEY);
  store.removeItem(SESSION_KEYS.user);
  store.removeItem(SESSION_KEYS.lastActivity);
}

export function saveSession(store: KeyValueStore, session: Session, now: number): void {
  store.setItem(SESSION_KEYS.user, JSON.stringify(session.user));
  store.setItem(SESSION_KEYS.lastActivity, String(now));
}

export function saveUser(store: KeyValueStore, user: User): void {
  store.setItem(SESSION_KEYS.user, JSON.stringify(user));
}

export function touchActivity(store: KeyValueStore, now: number): void {
  store.setItem(SESSION_KEYS.lastActivity, String(now));
}

/** When the stored session was last active (epoch ms); 0 when nothing is recorded. */
export function readLastActivity(store: KeyValueStore): number {
  return Number(store.getItem(SESSION_KEYS.lastActivity));
}

/**
 * The stored session as the app loads it, with SPEC section 4's rules applied: a session idle for
 * more than 30 minutes ends, and a stored user that is corrupt or of the wrong shape clears it.
 * A session with no recorded activity counts as fresh (it was just stored).
 */
export function loadSession(store: KeyValueStore, now: number): LoadedSession {
  store.removeItem(LEGACY_TOKEN_KEY);
  const rawUser = store.getItem(SESSION_KEYS.user);
  if (!rawUser) {
    clearSession(store);
    return { session: null, hasEnded: false };
  }
  const ended = () => {
    clearSession(store);
    return { session: null, hasEnded: true };
  };
  const lastActivity = Number(store.getItem(SESSION_KEYS.lastActivity) ?? now);
  if (!Number.isFinite(lastActivity) || now - lastActivity > INACTIVITY_TIMEOUT_MS) {
    return ended();
  }
  let parsedUser: unknown;
  try {
    parsedUser = JSON.parse(rawUser);
  } catch {
    return ended();
  }
  if (!isStoredUser(parsedUser)) {
    return ended();
  }
  const { firstName, lastName, email, company, balance, emailVerified } = parsedUser;
  return {
    session: { user: { firstName, lastName, email, company, balance, emailVerified } },
    hasEnded: false,
  };
}

/**
 * Whether a stored value has the shape of `userSchema` (contracts/auth). Checked by hand because this
 * runs on every public page, which should not load zod; stored-session.test.ts holds it to the schema.
 */
export function isStoredUser(value: unknown): value is User {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const user = value as Record<string, unknown>;
  return (
    typeof user.firstName === 'string' &&
    typeof user.lastName === 'string' &&
    typeof user.email === 'string' &&
    (user.company === null || typeof user.company === 'string') &&
    typeof user.balance === 'number' &&
    Number.isFinite(user.balance) &&
    typeof user.emailVerified === 'boolean'
  );
}

import type { User } from '@bytegate/contracts/auth';
import { INACTIVITY_TIMEOUT_MS } from '@bytegate/contracts/constants';

/** Where the session lives in localStorage (SPEC section 4: token, user and last activity). */
export const SESSION_KEYS = {
  token: 'bytegate.token',
  user: 'bytegate.user',
  lastActivity: 'bytegate.lastActivity',
} as const;

export interface Session {
  token: string;
  user: User;
}

/** The part of the Storage interface the session needs, so the rules run on any store in tests. */
export type KeyValueStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function clearSession(store: KeyValueStore): void {
  store.removeItem(SESSION_KEYS.token);
  store.removeItem(SESSION_KEYS.user);
  store.removeItem(SESSION_KEYS.lastActivity);
}

export function saveSession(store: KeyValueStore, session: Session, now: number): void {
  store.setItem(SESSION_KEYS.token, session.token);
  store.setItem(SESSION_KEYS.user, JSON.stringify(session.user));
  store.setItem(SESSION_KEYS.lastActivity, String(now));
}

export function saveUser(store: KeyValueStore, user: User): void {
  store.setItem(SESSION_KEYS.user, JSON.stringify(user));
}

export function touchActivity(store: KeyValueStore, now: number): void {
  store.setItem(SESSION_KEYS.lastActivity, String(now));
}

/**
 * The stored session as the app loads it, with SPEC section 4's rules applied: a session idle for
 * more than 30 minutes ends, and a stored user that is corrupt or of the wrong shape clears it.
 * A session with no recorded activity counts as fresh (it was just stored).
 */
export function loadSession(store: KeyValueStore, now: number): Session | null {
  const token = store.getItem(SESSION_KEYS.token);
  const rawUser = store.getItem(SESSION_KEYS.user);
  if (!token || !rawUser) {
    clearSession(store);
    return null;
  }
  const lastActivity = Number(store.getItem(SESSION_KEYS.lastActivity) ?? now);
  if (!Number.isFinite(lastActivity) || now - lastActivity > INACTIVITY_TIMEOUT_MS) {
    clearSession(store);
    return null;
  }
  let parsedUser: unknown;
  try {
    parsedUser = JSON.parse(rawUser);
  } catch {
    clearSession(store);
    return null;
  }
  if (!isStoredUser(parsedUser)) {
    clearSession(store);
    return null;
  }
  const { firstName, lastName, email, company, balance } = parsedUser;
  return { token, user: { firstName, lastName, email, company, balance } };
}

/**
 * Whether a stored value has the shape of `userSchema` (contracts/auth). Checked by hand because this
 * runs on every public page, which should not load zod; session.test.ts holds it to the schema.
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
    Number.isFinite(user.balance)
  );
}

import type { User } from '@bytegate/contracts/auth';
import { useSyncExternalStore } from 'react';
import {
  clearSession,
  loadSession,
  readLastActivity,
  SESSION_KEYS,
  type Session,
  saveSession,
  saveUser,
  touchActivity,
} from './stored-session.ts';

// The web app's one session module: everything the tab knows of the signed-in session lives under
// src/session/. It sits below api/ (the API client reads the CSRF token here and ends the session on a
// 401) and below features/ (guards, the header and the dashboard read it); it imports neither.

// Prerendering runs without a browser: the pages are built as an anonymous visitor sees them.
const isBrowser = typeof window !== 'undefined';

const loaded = isBrowser ? loadSession(window.localStorage, Date.now()) : { session: null, hasEnded: false };

/**
 * The signed-in session as this tab knows it: the user (read from localStorage once at app load, where
 * SPEC section 4's expiry rules apply, and kept in step with it afterwards) and, in memory only, the
 * CSRF token its state-changing requests send. The session's secret is an httpOnly cookie that no
 * script here can read. Components read the session with `useSession()`.
 */
let current: Session | null = loaded.session;
let csrfToken: string | null = null;
/** A session from an earlier visit ended at this load: its server side is still to be revoked. */
let hasEndedAtLoad = loaded.hasEnded;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) {
    listener();
  }
}

export const sessionStore = {
  get: (): Session | null => current,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  signIn(signedIn: { user: User; csrfToken: string }): void {
    const session = { user: signedIn.user };
    saveSession(window.localStorage, session, Date.now());
    current = session;
    csrfToken = signedIn.csrfToken;
    hasEndedAtLoad = false;
    emit();
  },
  updateUser(user: User): void {
    if (!current) {
      return;
    }
    saveUser(window.localStorage, user);
    current = { ...current, user };
    emit();
  },
  getCsrfToken: (): string | null => csrfToken,
  setCsrfToken(token: string | null): void {
    csrfToken = token;
  },
  recordActivity(): void {
    if (current) {
      touchActivity(window.localStorage, Date.now());
    }
  },
  /** When the session was last active, as stored (another tab's activity counts too). */
  getLastActivity: (): number => readLastActivity(window.localStorage),
  /** True once if the stored session ended as the app loaded (the caller revokes it at the server). */
  takeEndedAtLoad(): boolean {
    const ended = hasEndedAtLoad;
    hasEndedAtLoad = false;
    return ended;
  },
  signOut(): void {
    clearSession(window.localStorage);
    csrfToken = null;
    if (current) {
      current = null;
      emit();
    }
  },
};

// Another tab signing out (or in) changes this one too. A sign-in there replaced the cookie, so this
// tab's CSRF token belongs to a session that is gone: it asks for the new one when it next needs it.
if (isBrowser) {
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key.startsWith('bytegate.')) {
      const before = current?.user.email;
      current = loadSession(window.localStorage, Date.now()).session;
      if (event.key === null || event.key === SESSION_KEYS.user) {
        if (current?.user.email !== before || !current) {
          csrfToken = null;
        }
      }
      emit();
    }
  });
}

/**
 * The session, or null. A prerendered page hydrates as the anonymous page it was built as and then
 * shows the visitor's session (the Dashboard link in the navigation), so hydration never mismatches.
 */
export function useSession(): Session | null {
  return useSyncExternalStore(sessionStore.subscribe, sessionStore.get, () => null);
}

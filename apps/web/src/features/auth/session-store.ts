import type { User } from '@bytegate/contracts/auth';
import { useSyncExternalStore } from 'react';
import {
  clearSession,
  loadSession,
  type Session,
  saveSession,
  saveUser,
  touchActivity,
} from '../../lib/session.ts';

// Prerendering runs without a browser: the pages are built as an anonymous visitor sees them.
const isBrowser = typeof window !== 'undefined';

/**
 * The signed-in session, read from localStorage once at app load (where SPEC section 4's expiry rules
 * apply) and kept in step with it afterwards. Components read it with `useSession()`.
 */
let current: Session | null = isBrowser ? loadSession(window.localStorage, Date.now()) : null;
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
  signIn(session: Session): void {
    saveSession(window.localStorage, session, Date.now());
    current = session;
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
  recordActivity(): void {
    if (current) {
      touchActivity(window.localStorage, Date.now());
    }
  },
  signOut(): void {
    clearSession(window.localStorage);
    if (current) {
      current = null;
      emit();
    }
  },
};

// Another tab signing out (or in) changes this one too.
if (isBrowser) {
  window.addEventListener('storage', (event) => {
    if (event.key === null || event.key.startsWith('bytegate.')) {
      current = loadSession(window.localStorage, Date.now());
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

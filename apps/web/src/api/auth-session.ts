import { sessionStore } from '../session/session-store.ts';
import { api } from './api-client.ts';

// Session calls that every page may make (the public pages too), kept apart from the query hooks so
// the public pages load no server-state cache.

/** Signs out locally whatever the server answers, after asking it to revoke the session and its cookie. */
export async function logout(): Promise<void> {
  try {
    await api.auth.logout();
  } catch {
    // The session may already be gone; the local one ends either way.
  }
  sessionStore.signOut();
}

/** Refreshes the stored copy of the user (name, balance) and the CSRF token from the server. */
export async function refreshMe(): Promise<void> {
  const { user, csrfToken } = await api.auth.me();
  sessionStore.updateUser(user);
  if (csrfToken) {
    sessionStore.setCsrfToken(csrfToken);
  }
}

/**
 * Takes on a session the server opened by itself (Sign in with Google sets the cookie on its redirect):
 * the signed-in user and the CSRF token, kept as a password sign-in keeps them.
 */
export async function adoptServerSession(): Promise<void> {
  const { user, csrfToken } = await api.auth.me();
  if (!csrfToken) {
    throw new Error('The session is not a browser session');
  }
  sessionStore.signIn({ user, csrfToken });
}

import { INACTIVITY_TIMEOUT_MS } from '@bytegate/contracts/constants';
import { useEffect } from 'react';
import { logout, refreshMe } from '../../api/auth-session.ts';
import { sessionStore, useSession } from '../../session/session-store.ts';

const EVENTS = ['mousemove', 'keydown', 'click', 'scroll', 'touchstart'] as const;
const WRITE_EVERY_MS = 5000;

/**
 * Keeps the last-activity time fresh on mouse, key, click, scroll and touch, ends a session that sat
 * idle past the timeout when the tab comes back, and refreshes the stored user from the server once
 * a session is there. A session that ends for idleness ends at the server too (its cookie is revoked).
 */
export function SessionActivity() {
  const session = useSession();
  const email = session?.user.email;

  useEffect(() => {
    if (sessionStore.takeEndedAtLoad()) {
      void logout();
    }
  }, []);

  useEffect(() => {
    if (!email) {
      return;
    }
    let lastWrite = 0;
    const onActivity = () => {
      const now = Date.now();
      if (now - lastWrite > WRITE_EVERY_MS) {
        lastWrite = now;
        sessionStore.recordActivity();
      }
    };
    const onReturn = () => {
      const idleMs = Date.now() - sessionStore.getLastActivity();
      if (document.visibilityState === 'visible' && idleMs > INACTIVITY_TIMEOUT_MS) {
        void logout();
      }
    };
    for (const event of EVENTS) {
      window.addEventListener(event, onActivity, { passive: true });
    }
    document.addEventListener('visibilitychange', onReturn);
    refreshMe().catch(() => {
      // A 401 already ended the session in the API client; other failures keep the stored copy.
    });
    return () => {
      for (const event of EVENTS) {
        window.removeEventListener(event, onActivity);
      }
      document.removeEventListener('visibilitychange', onReturn);
    };
  }, [email]);

  return null;
}

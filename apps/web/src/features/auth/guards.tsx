import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router';
import { useSession } from '../../session/session-store.ts';
import { FinishServerSignIn, SERVER_SIGN_IN_HASH } from './finish-server-sign-in.tsx';

/** Anonymous visitors go to /login; a sign-in the server just finished (Google) is taken on first. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const session = useSession();
  const location = useLocation();
  if (location.hash === SERVER_SIGN_IN_HASH) {
    return <FinishServerSignIn />;
  }
  if (!session) {
    return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  }
  return children;
}

/** Signed-in visitors of /login and /signup go to /dashboard. */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const session = useSession();
  if (session) {
    return <Navigate to="/dashboard" replace />;
  }
  return children;
}

import { messages } from '@bytegate/contracts/messages';
import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { adoptServerSession } from '../../api/auth-session.ts';
import { Spinner } from '../../components/ui/spinner.tsx';

/** The fragment the server adds when it signed this browser in itself (Google's callback). */
export const SERVER_SIGN_IN_HASH = '#signed-in=google';

/**
 * A sign-in the server finished (Sign in with Google): the session cookie is set, but this tab keeps
 * its own copy of the session (SPEC sections 3 and 4). It reads the signed-in user and the CSRF token,
 * stores them as a password sign-in does, says 'Login successful' and stays on the page, its fragment
 * dropped. Should the cookie not work, the person goes back to the login page with the reason.
 */
export function FinishServerSignIn() {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const hasStarted = useRef(false);

  useEffect(() => {
    if (hasStarted.current) {
      return;
    }
    hasStarted.current = true;
    adoptServerSession().then(
      () => {
        toast.success(messages.loginSuccess);
        void navigate({ pathname, search }, { replace: true });
      },
      () => void navigate('/login#google-error=failed', { replace: true }),
    );
  }, [navigate, pathname, search]);

  return (
    <div className="grid min-h-screen place-items-center text-brand-600">
      <Spinner className="size-8" label="Signing in" />
    </div>
  );
}

import { accountLinkMessages, type VerifyEmailResponse } from '@bytegate/contracts/account-links';
import { CircleCheckIcon } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/api-client.ts';
import { useVerifyEmail } from '../../api/use-account-links.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { AuthLayout } from '../../features/auth/auth-layout.tsx';
import { ResendVerificationButton } from '../../features/email-verification/resend-verification-button.tsx';
import { useHydrated } from '../../lib/use-hydrated.ts';
import { useSession } from '../../session/session-store.ts';

const FAILED = 'Failed to verify your email. Please try again.';

type Outcome = { result: VerifyEmailResponse } | { error: string };

/**
 * Where a verification link leads (sign-up, or a change of email): the link is followed as the page
 * opens, once. A signed-in tab reads its user again, so the dashboard's banner goes at once.
 */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const isHydrated = useHydrated();
  const session = useSession();
  const verifyEmail = useVerifyEmail();
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const hasStarted = useRef(false);
  const token = isHydrated ? params.get('token') : null;

  useEffect(() => {
    // The token is used up by the first call: never a second one (React's development mode runs
    // effects twice).
    if (!isHydrated || hasStarted.current) {
      return;
    }
    hasStarted.current = true;
    if (!token) {
      setOutcome({ error: accountLinkMessages.linkMissing });
      return;
    }
    verifyEmail.mutateAsync({ token }).then(
      (result) => setOutcome({ result }),
      (error: unknown) => setOutcome({ error: errorMessage(error, FAILED) }),
    );
  }, [isHydrated, token, verifyEmail]);

  const next = session ? (
    <Button asChild size="lg" className="w-full">
      <Link to="/dashboard">Go to Dashboard</Link>
    </Button>
  ) : (
    <Button asChild size="lg" className="w-full">
      <Link to="/login">Sign In</Link>
    </Button>
  );

  return (
    <AuthLayout
      title={
        outcome && 'result' in outcome
          ? outcome.result.isEmailChanged
            ? 'Email changed'
            : 'Email verified'
          : 'Verify your email'
      }
      subtitle={
        <>
          Need help?{' '}
          <Link to="/contact" className="font-medium text-brand-600 hover:text-brand-700">
            Contact support
          </Link>
        </>
      }
    >
      {outcome === null ? (
        <p className="flex items-center gap-3 text-sm text-gray-600">
          <Spinner className="size-5 text-brand-600" />
          Checking your link…
        </p>
      ) : 'result' in outcome ? (
        <div className="space-y-5">
          <Alert tone="info" className="flex items-start gap-3">
            <CircleCheckIcon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
            <span>
              {outcome.result.isEmailChanged
                ? accountLinkMessages.emailChanged(outcome.result.email)
                : `${accountLinkMessages.emailVerified} You can now top up your balance and buy traffic.`}
            </span>
          </Alert>
          {next}
        </div>
      ) : (
        <div className="space-y-5">
          <Alert tone="error">{outcome.error}</Alert>
          {session && !session.user.emailVerified ? (
            <ResendVerificationButton className="w-full" size="lg" />
          ) : null}
          {session ? (
            next
          ) : (
            <p className="text-sm text-gray-600">
              To get a new link,{' '}
              <Link to="/login" className="font-medium text-brand-600 underline underline-offset-4">
                sign in
              </Link>{' '}
              and choose “Resend verification email” in the dashboard.
            </p>
          )}
        </div>
      )}
    </AuthLayout>
  );
}

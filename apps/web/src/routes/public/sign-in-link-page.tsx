import { accountLinkMessages } from '@bytegate/contracts/account-links';
import { messages } from '@bytegate/contracts/messages';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import { useSignInWithLink } from '../../api/use-account-links.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { AuthLayout } from '../../features/auth/auth-layout.tsx';
import { TwoFactorStep } from '../../features/auth/two-factor-step.tsx';
import { useHydrated } from '../../lib/use-hydrated.ts';

const FAILED = 'Failed to sign in with this link. Please try again.';

/**
 * Where a mailed sign-in link leads (an account locked by failed sign-ins elsewhere). The link is used
 * only when the person presses "Sign in", never as the page opens: a mail scanner that opens links
 * cannot spend it. Two-factor on: the code step follows, as on the sign-in page.
 */
export function SignInLinkPage() {
  const [params] = useSearchParams();
  const isHydrated = useHydrated();
  const navigate = useNavigate();
  const signIn = useSignInWithLink();
  const [error, setError] = useState<string | null>(null);
  const [challengeToken, setChallengeToken] = useState<string | null>(null);
  const token = isHydrated ? params.get('token') : null;

  const onSignIn = async () => {
    setError(null);
    if (!token) {
      setError(accountLinkMessages.linkMissing);
      return;
    }
    try {
      const result = await signIn.mutateAsync({ token });
      if ('twoFactorRequired' in result) {
        setChallengeToken(result.challengeToken);
        return;
      }
      toast.success(messages.loginSuccess);
      void navigate('/dashboard', { replace: true });
    } catch (caught) {
      setError(errorMessage(caught, FAILED));
    }
  };

  if (challengeToken) {
    return (
      <AuthLayout
        title="Two-factor authentication"
        subtitle="Enter the code from your authenticator app to finish signing in."
      >
        <TwoFactorStep
          challengeToken={challengeToken}
          onSignedIn={() => void navigate('/dashboard', { replace: true })}
          onBack={(reason) => {
            setChallengeToken(null);
            setError(reason ?? accountLinkMessages.signInLinkInvalid);
          }}
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Sign in with your link"
      subtitle={
        <>
          Need help?{' '}
          <Link to="/contact" className="font-medium text-brand-600 hover:text-brand-700">
            Contact support
          </Link>
        </>
      }
    >
      <div className="space-y-5">
        {error ? <Alert tone="error">{error}</Alert> : null}
        <p className="text-sm text-gray-600">
          This link signs you in once, in this browser, which is then remembered: sign-ins paused after failed
          attempts elsewhere no longer hold it.
        </p>
        <Button
          type="button"
          size="lg"
          className="w-full"
          isLoading={signIn.isPending}
          disabled={!isHydrated}
          onClick={() => void onSignIn()}
        >
          Sign in
        </Button>
        {error ? (
          <p className="text-sm text-gray-600">
            <Link to="/login" className="font-medium text-brand-600 underline underline-offset-4">
              Back to sign in
            </Link>
          </p>
        ) : null}
      </div>
    </AuthLayout>
  );
}

import { accountLinkMessages } from '@bytegate/contracts/account-links';
import { useState } from 'react';
import { errorMessage } from '../../api/api-client.ts';
import { useRequestSignInLink } from '../../api/use-account-links.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useBotCheck } from './use-bot-check.ts';

interface SignInLinkOfferProps {
  /** The email the sign-in was tried with. */
  email: string;
  /** What the server said: how long sign-ins from unknown browsers are paused, and the way in. */
  message: string;
}

/**
 * The sign-in page's answer to an account locked by failed sign-ins elsewhere (429 ACCOUNT_LOCKED): what
 * happened, and "Email me a sign-in link", which mails the owner a one-time link (the answer is the same
 * whoever asks; only the mailbox gets the link).
 */
export function SignInLinkOffer({ email, message }: SignInLinkOfferProps) {
  const requestLink = useRequestSignInLink();
  const botCheck = useBotCheck('sign_in_link');
  const [sent, setSent] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const onRequest = async () => {
    setError(null);
    try {
      const recaptchaToken = await botCheck.getToken();
      const { message: answer } = await requestLink.mutateAsync({ email, recaptchaToken });
      setSent(answer);
    } catch (caught) {
      setError(errorMessage(caught, 'Failed to send the sign-in link. Please try again.'));
    }
  };

  return (
    <div className="space-y-3" role="status">
      <Alert tone="error">{message}</Alert>
      {sent ? (
        <Alert tone="info">
          {sent} Open it in this browser to sign in: it will be remembered, and the pause will not hold it.
        </Alert>
      ) : (
        <Button
          type="button"
          variant="secondary"
          className="w-full"
          isLoading={requestLink.isPending}
          onClick={() => void onRequest()}
        >
          Email me a sign-in link
        </Button>
      )}
      {error ? <Alert tone="error">{error}</Alert> : null}
      {!sent ? <p className="text-sm text-gray-600">{accountLinkMessages.signInLinkRequested}</p> : null}
    </div>
  );
}

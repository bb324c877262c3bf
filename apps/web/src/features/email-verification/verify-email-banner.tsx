import { MailWarningIcon } from 'lucide-react';
import { useEffect } from 'react';
import { refreshMe } from '../../api/auth-session.ts';
import { ResendVerificationButton } from './resend-verification-button.tsx';
import { useEmailVerification } from './use-email-verification.ts';

/**
 * Shown above every dashboard section while the account's email waits for its link: what is held back,
 * where the link went, and a way to send it again. Coming back to the tab (after following the link in
 * the mail app, say) reads the user again, so the banner goes without a reload.
 */
export function VerifyEmailBanner() {
  const { isPending, email } = useEmailVerification();

  useEffect(() => {
    if (!isPending) {
      return;
    }
    const onReturn = () => {
      if (document.visibilityState === 'visible') {
        refreshMe().catch(() => undefined);
      }
    };
    document.addEventListener('visibilitychange', onReturn);
    return () => document.removeEventListener('visibilitychange', onReturn);
  }, [isPending]);

  if (!isPending) {
    return null;
  }
  return (
    <section
      aria-labelledby="verify-email-title"
      data-testid="verify-email-banner"
      className="mb-6 flex flex-col gap-4 rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-950 sm:flex-row sm:items-center sm:justify-between sm:p-5"
    >
      <div className="flex items-start gap-3">
        <MailWarningIcon className="mt-0.5 size-5 shrink-0 text-amber-700" aria-hidden="true" />
        <div className="min-w-0 space-y-1 text-sm">
          <h2 id="verify-email-title" className="font-semibold">
            Please verify your email address
          </h2>
          <p>
            We sent a link to <strong className="font-medium wrap-anywhere">{email}</strong>. Until you follow
            it you can use the dashboard, but not top up your balance or buy traffic.
          </p>
        </div>
      </div>
      <ResendVerificationButton className="shrink-0" />
    </section>
  );
}

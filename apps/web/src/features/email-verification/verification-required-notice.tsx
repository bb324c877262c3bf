import { MailWarningIcon } from 'lucide-react';
import { Alert } from '../../components/ui/alert.tsx';
import { ResendVerificationButton } from './resend-verification-button.tsx';
import { useEmailVerification } from './use-email-verification.ts';

/**
 * Why a top-up or purchase form cannot be sent yet, where it would be sent from: its buttons point here
 * (`aria-describedby` with `id`) while the account's email waits for its link.
 */
export function VerificationRequiredNotice({ id, action }: { id: string; action: string }) {
  const { email } = useEmailVerification();
  return (
    <Alert
      id={id}
      tone="warning"
      className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between"
    >
      <span className="flex items-start gap-3">
        <MailWarningIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        <span>
          Verify your email address to {action}: follow the link we sent to{' '}
          <strong className="font-medium wrap-anywhere">{email}</strong>.
        </span>
      </span>
      <ResendVerificationButton size="sm" className="shrink-0" />
    </Alert>
  );
}

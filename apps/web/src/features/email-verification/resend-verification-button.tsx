import { accountLinkMessages } from '@bytegate/contracts/account-links';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import { useResendVerification } from '../../api/use-account-links.ts';
import { Button, type ButtonProps } from '../../components/ui/button.tsx';

const FAILED = 'Failed to send the verification email. Please try again.';

/** "Resend verification email": a new link to the account's address (the server limits how often). */
export function ResendVerificationButton(props: Omit<ButtonProps, 'onClick' | 'isLoading'>) {
  const resend = useResendVerification();
  const onClick = async () => {
    try {
      const { email } = await resend.mutateAsync();
      toast.success(accountLinkMessages.verificationSent(email));
    } catch (error) {
      toast.error(errorMessage(error, FAILED));
    }
  };
  return (
    <Button variant="secondary" {...props} isLoading={resend.isPending} onClick={() => void onClick()}>
      Resend verification email
    </Button>
  );
}

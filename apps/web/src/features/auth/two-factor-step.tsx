import { messages } from '@bytegate/contracts/messages';
import { twoFactorMessages } from '@bytegate/contracts/two-factor';
import { ArrowLeftIcon } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { ApiError, errorMessage } from '../../api/api-client.ts';
import { useLoginTwoFactor } from '../../api/use-auth.ts';
import { Button } from '../../components/ui/button.tsx';
import { TwoFactorCodeField } from './two-factor-code-field.tsx';

interface TwoFactorStepProps {
  challengeToken: string;
  /** Signed in: the page moves on to the dashboard. */
  onSignedIn: () => void;
  /** Back to the password, with a reason to show there when the sign-in ended (expired, too many codes). */
  onBack: (reason?: string) => void;
}

/**
 * The second step of signing in with two-factor on: the code from the authenticator app, or a recovery
 * code. Focus lands in the field; a wrong code is said under it and the field is cleared for the next
 * try; a sign-in that ended (5 minutes, or 5 wrong codes) goes back to the password with the reason.
 */
export function TwoFactorStep({ challengeToken, onSignedIn, onBack }: TwoFactorStepProps) {
  const login = useLoginTwoFactor();
  const [isRecovery, setRecovery] = useState(false);
  const form = useForm<{ code: string }>({ defaultValues: { code: '' } });
  const { errors, isSubmitting } = form.formState;

  useEffect(() => {
    form.setFocus('code');
  }, [form]);

  const onSubmit = form.handleSubmit(async ({ code }) => {
    try {
      await login.mutateAsync({ challengeToken, code });
      toast.success(messages.loginSuccess);
      onSignedIn();
    } catch (error) {
      const message = errorMessage(error, messages.loginFailed);
      if (error instanceof ApiError && message === twoFactorMessages.challengeEnded) {
        onBack(message);
        return;
      }
      form.setValue('code', '');
      form.clearErrors('code');
      form.setError('code', { type: 'server', message }, { shouldFocus: true });
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Two-factor authentication">
      <TwoFactorCodeField
        isRecovery={isRecovery}
        onToggle={() => {
          setRecovery((was) => !was);
          form.setValue('code', '');
          form.clearErrors('code');
          form.setFocus('code');
        }}
        error={errors.code?.message}
        {...form.register('code', {
          validate: (value) =>
            value.trim() !== '' ||
            (isRecovery ? twoFactorMessages.recoveryCodeRequired : twoFactorMessages.codeRequired),
        })}
      />
      <Button type="submit" className="w-full" size="lg" isLoading={isSubmitting}>
        Verify
      </Button>
      <Button type="button" variant="ghost" className="w-full" onClick={() => onBack()}>
        <ArrowLeftIcon aria-hidden="true" />
        Back
      </Button>
    </form>
  );
}

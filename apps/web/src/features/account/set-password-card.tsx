import { googleMessages, type SetPasswordForm, setPasswordFormSchema } from '@bytegate/contracts/google';
import { twoFactorMessages } from '@bytegate/contracts/two-factor';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import {
  useIsTwoFactorOn,
  useRefreshSecurityStatus,
  useSecurityStatus,
  useSetPassword,
} from '../../api/use-security.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '../../components/ui/card.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { TwoFactorCodeField } from '../auth/two-factor-code-field.tsx';
import { ChangePasswordCard } from './change-password-card.tsx';
import { fieldOfReauthError, mayHaveUsedCode } from './two-factor/reauth-errors.ts';

const FAILED = 'The password could not be set. Please try again.';
const empty = { newPassword: '', confirmPassword: '', code: '' };

/** The password card: Change Password, or Set a password for an account created with Google. */
export function PasswordCard() {
  return useSecurityStatus().data?.hasPassword === false ? <SetPasswordCard /> : <ChangePasswordCard />;
}

/**
 * "Set a password", for an account created with Google that has none: the new password twice (the
 * rules of sign-up, 'New passwords don't match.' when they differ) and, while two-factor is on, a code.
 * Afterwards the account also signs in with its email and password, and the card becomes Change Password.
 */
export function SetPasswordCard() {
  const setPassword = useSetPassword();
  const isTwoFactorOn = useIsTwoFactorOn();
  const refreshSecurity = useRefreshSecurityStatus();
  const [isRecovery, setRecovery] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<SetPasswordForm>({
    resolver: zodResolver(setPasswordFormSchema),
    defaultValues: empty,
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ newPassword, code }) => {
    setServerError(null);
    if (isTwoFactorOn && !code) {
      form.setError(
        'code',
        { message: isRecovery ? twoFactorMessages.recoveryCodeRequired : twoFactorMessages.codeRequired },
        { shouldFocus: true },
      );
      return;
    }
    try {
      await setPassword.mutateAsync({ newPassword, ...(isTwoFactorOn && code ? { code } : {}) });
      toast.success(googleMessages.passwordSet);
      form.reset(empty);
    } catch (error) {
      const message = errorMessage(error, FAILED);
      if (fieldOfReauthError(error) === 'code') {
        form.setValue('code', '');
        form.setError('code', { type: 'server', message }, { shouldFocus: true });
      } else {
        setServerError(message);
      }
      toast.error(message);
      if (isTwoFactorOn && mayHaveUsedCode(error)) {
        void refreshSecurity();
      }
    }
  });

  return (
    <Card>
      <CardHeader>
        <CardTitle>Set a password</CardTitle>
        <CardDescription>
          You sign in with Google. Set a password to sign in with your email too. At least 8 characters.
        </CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit} noValidate>
        <CardContent className="grid gap-5 sm:grid-cols-2">
          {serverError ? (
            <Alert tone="error" className="sm:col-span-2">
              {serverError}
            </Alert>
          ) : null}
          <FormField
            label="New Password"
            type="password"
            autoComplete="new-password"
            error={errors.newPassword?.message}
            {...form.register('newPassword')}
          />
          <FormField
            label="Confirm New Password"
            type="password"
            autoComplete="new-password"
            error={errors.confirmPassword?.message}
            {...form.register('confirmPassword')}
          />
          {isTwoFactorOn ? (
            <div className="sm:col-span-2 sm:max-w-sm">
              <TwoFactorCodeField
                label="Two-factor code"
                isRecovery={isRecovery}
                onToggle={() => {
                  setRecovery((was) => !was);
                  form.setValue('code', '');
                  form.setFocus('code');
                }}
                error={errors.code?.message}
                {...form.register('code')}
              />
            </div>
          ) : null}
        </CardContent>
        <CardFooter>
          <Button type="submit" isLoading={isSubmitting}>
            Set Password
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

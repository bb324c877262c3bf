import { type ChangePasswordForm, changePasswordFormSchema } from '@bytegate/contracts/account';
import { messages } from '@bytegate/contracts/messages';
import { twoFactorMessages } from '@bytegate/contracts/two-factor';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import { useChangePassword } from '../../api/use-account.ts';
import { useIsTwoFactorOn, useRefreshSecurityStatus } from '../../api/use-security.ts';
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
import { fieldOfReauthError, mayHaveUsedCode } from './two-factor/reauth-errors.ts';

const empty = { currentPassword: '', newPassword: '', confirmPassword: '', code: '' };

export function ChangePasswordCard() {
  const changePassword = useChangePassword();
  const isTwoFactorOn = useIsTwoFactorOn();
  const refreshSecurity = useRefreshSecurityStatus();
  const [isRecovery, setRecovery] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<ChangePasswordForm>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: empty,
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ currentPassword, newPassword, code }) => {
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
      await changePassword.mutateAsync({
        currentPassword,
        newPassword,
        ...(isTwoFactorOn && code ? { code } : {}),
      });
      toast.success(messages.passwordUpdated);
      form.reset(empty);
      if (isTwoFactorOn) {
        void refreshSecurity();
      }
    } catch (error) {
      const message = errorMessage(error, messages.passwordUpdateFailed);
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
        <CardTitle>Change Password</CardTitle>
        <CardDescription>At least 8 characters. Your other devices will be signed out.</CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit} noValidate>
        <CardContent className="grid gap-5 sm:grid-cols-3">
          {serverError ? (
            <Alert tone="error" className="sm:col-span-3">
              {serverError}
            </Alert>
          ) : null}
          <FormField
            label="Current Password"
            type="password"
            autoComplete="current-password"
            error={errors.currentPassword?.message}
            {...form.register('currentPassword')}
          />
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
            <div className="sm:col-span-3 sm:max-w-sm">
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
            Update Password
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

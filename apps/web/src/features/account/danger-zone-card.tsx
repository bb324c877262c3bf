import { type DeleteAccountRequest, deleteAccountRequestSchema } from '@bytegate/contracts/account';
import { googleMessages } from '@bytegate/contracts/google';
import { messages } from '@bytegate/contracts/messages';
import { twoFactorMessages } from '@bytegate/contracts/two-factor';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import { useDeleteAccount } from '../../api/use-account.ts';
import { useHasPassword, useIsTwoFactorOn, useRefreshSecurityStatus } from '../../api/use-security.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { TwoFactorCodeField } from '../auth/two-factor-code-field.tsx';
import { fieldOfReauthError, mayHaveUsedCode } from './two-factor/reauth-errors.ts';

/** Deleting the account: confirmed with the password in a dialog; success signs out. */
export function DangerZoneCard() {
  const navigate = useNavigate();
  const deleteAccount = useDeleteAccount();
  const isTwoFactorOn = useIsTwoFactorOn();
  const hasPassword = useHasPassword();
  const refreshSecurity = useRefreshSecurityStatus();
  const [isOpen, setOpen] = useState(false);
  const [isRecovery, setRecovery] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<DeleteAccountRequest>({
    resolver: zodResolver(deleteAccountRequestSchema),
    defaultValues: { password: '', code: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ password, code }) => {
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
      await deleteAccount.mutateAsync({ password, ...(isTwoFactorOn && code ? { code } : {}) });
      setOpen(false);
      toast.success('Your account has been deleted');
      void navigate('/', { replace: true });
    } catch (error) {
      const message = errorMessage(error, messages.deleteAccountFailed);
      const field = fieldOfReauthError(error);
      if (field) {
        if (field === 'code') {
          form.setValue('code', '');
        }
        form.setError(field, { type: 'server', message }, { shouldFocus: true });
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
    <Card className="border-red-200">
      <CardHeader className="border-red-100">
        <CardTitle className="text-red-700">Danger Zone</CardTitle>
        <CardDescription>
          Deleting your account signs you out everywhere and stops your proxies. It cannot be undone.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-gray-600">Orders and invoices are kept for our accounting records.</p>
        <Dialog
          open={isOpen}
          onOpenChange={(open) => {
            setOpen(open);
            if (!open) {
              form.reset();
              setRecovery(false);
              setServerError(null);
            }
          }}
        >
          <DialogTrigger asChild>
            <Button variant="danger">Delete Account</Button>
          </DialogTrigger>
          <DialogContent
            title="Delete your account?"
            description={
              !hasPassword
                ? 'Deleting your account is confirmed with your password.'
                : isTwoFactorOn
                  ? 'Enter your password and a two-factor code to confirm. This cannot be undone.'
                  : 'Enter your password to confirm. This cannot be undone.'
            }
          >
            {hasPassword ? (
              <form onSubmit={onSubmit} noValidate className="space-y-4">
                {serverError ? <Alert tone="error">{serverError}</Alert> : null}
                <FormField
                  label="Password"
                  type="password"
                  autoComplete="current-password"
                  error={errors.password?.message}
                  {...form.register('password')}
                />
                {isTwoFactorOn ? (
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
                ) : null}
                <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                  <DialogClose asChild>
                    <Button type="button" variant="secondary">
                      Cancel
                    </Button>
                  </DialogClose>
                  <Button type="submit" variant="danger" isLoading={isSubmitting}>
                    Delete Account
                  </Button>
                </div>
              </form>
            ) : (
              // Created with Google and no password yet: the Set a password card comes first.
              <div className="space-y-4">
                <Alert tone="warning">{googleMessages.setPasswordBeforeDeleting}</Alert>
                <div className="flex justify-end">
                  <DialogClose asChild>
                    <Button type="button" variant="secondary">
                      Close
                    </Button>
                  </DialogClose>
                </div>
              </div>
            )}
          </DialogContent>
        </Dialog>
      </CardContent>
    </Card>
  );
}

import { twoFactorMessages } from '@bytegate/contracts/two-factor';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { errorMessage } from '../../../api/api-client.ts';
import { useDisableTwoFactor, useHasPassword, useRefreshSecurityStatus } from '../../../api/use-security.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../../components/ui/dialog.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { TwoFactorCodeField } from '../../auth/two-factor-code-field.tsx';
import { fieldOfReauthError, mayHaveUsedCode } from './reauth-errors.ts';

const FAILED = 'Two-factor authentication could not be turned off. Please try again.';
const empty = { password: '', code: '' };

/**
 * Turning two-factor off: the password and a code (app or recovery), confirmed in a dialog; an account
 * created with Google that has no password gives the code alone.
 */
export function DisableTwoFactorDialog() {
  const hasPassword = useHasPassword();
  const [isOpen, setOpen] = useState(false);
  const [isRecovery, setRecovery] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const disable = useDisableTwoFactor();
  const refresh = useRefreshSecurityStatus();
  const form = useForm<{ password: string; code: string }>({ defaultValues: empty });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      await disable.mutateAsync(hasPassword ? values : { code: values.code });
      setOpen(false);
      form.reset(empty);
      toast.success(twoFactorMessages.disabled);
    } catch (error) {
      const message = errorMessage(error, FAILED);
      const field = fieldOfReauthError(error);
      if (field) {
        if (field === 'code') {
          form.setValue('code', '');
        }
        form.setError(field, { type: 'server', message }, { shouldFocus: true });
      } else {
        setServerError(message);
      }
      if (mayHaveUsedCode(error)) {
        void refresh();
      }
    }
  });

  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        setOpen(open);
        if (!open) {
          form.reset(empty);
          setRecovery(false);
          setServerError(null);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button type="button" variant="secondary" size="sm">
          Turn off
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Turn off two-factor authentication?"
        description={
          hasPassword
            ? 'Signing in will need only your password. Enter your password and a code to confirm.'
            : 'Signing in will need only Google. Enter a code to confirm.'
        }
      >
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          {serverError ? <Alert tone="error">{serverError}</Alert> : null}
          {hasPassword ? (
            <FormField
              label="Password"
              type="password"
              autoComplete="current-password"
              error={errors.password?.message}
              {...form.register('password', { validate: (value) => value !== '' || 'Password is required' })}
            />
          ) : null}
          <TwoFactorCodeField
            label="Two-factor code"
            isRecovery={isRecovery}
            onToggle={() => {
              setRecovery((was) => !was);
              form.setValue('code', '');
              form.setFocus('code');
            }}
            error={errors.code?.message}
            {...form.register('code', {
              validate: (value) =>
                value.trim() !== '' ||
                (isRecovery ? twoFactorMessages.recoveryCodeRequired : twoFactorMessages.codeRequired),
            })}
          />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button type="button" variant="secondary">
                Cancel
              </Button>
            </DialogClose>
            <Button type="submit" variant="danger" isLoading={isSubmitting}>
              Turn off
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

import { twoFactorMessages } from '@bytegate/contracts/two-factor';
import { RefreshCwIcon } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { errorMessage } from '../../../api/api-client.ts';
import { useRegenerateRecoveryCodes } from '../../../api/use-security.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../../components/ui/dialog.tsx';
import { useSession } from '../../../session/session-store.ts';
import { TwoFactorCodeField } from '../../auth/two-factor-code-field.tsx';
import { fieldOfReauthError } from './reauth-errors.ts';
import { RecoveryCodesPanel } from './recovery-codes-panel.tsx';

const FAILED = 'New recovery codes could not be made. Please try again.';

/** New recovery codes for a code (app or recovery): the old ones stop working; the new ones are shown once. */
export function RegenerateRecoveryCodesDialog() {
  const [isOpen, setOpen] = useState(false);
  const [isRecovery, setRecovery] = useState(false);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const regenerate = useRegenerateRecoveryCodes();
  const email = useSession()?.user.email ?? null;
  const form = useForm<{ code: string }>({ defaultValues: { code: '' } });

  const onSubmit = form.handleSubmit(async ({ code }) => {
    setServerError(null);
    try {
      const answer = await regenerate.mutateAsync({ code });
      form.reset({ code: '' });
      setCodes(answer.recoveryCodes);
      toast.success(twoFactorMessages.recoveryCodesRegenerated);
    } catch (error) {
      const message = errorMessage(error, FAILED);
      if (fieldOfReauthError(error) === 'code') {
        form.setValue('code', '');
        form.clearErrors('code');
        form.setError('code', { type: 'server', message }, { shouldFocus: true });
      } else {
        setServerError(message);
      }
    }
  });

  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        setOpen(open);
        if (!open) {
          form.reset({ code: '' });
          setCodes(null);
          setRecovery(false);
          setServerError(null);
          regenerate.reset();
        }
      }}
    >
      <DialogTrigger asChild>
        <Button type="button" variant="secondary" size="sm">
          <RefreshCwIcon aria-hidden="true" />
          New recovery codes
        </Button>
      </DialogTrigger>
      <DialogContent
        title={codes ? 'Save your new recovery codes' : 'Make new recovery codes?'}
        description={
          codes
            ? 'Your old recovery codes no longer work.'
            : 'Your old recovery codes stop working. Enter a code to confirm.'
        }
        className="max-h-[calc(100dvh-2rem)] max-w-lg overflow-y-auto"
        onInteractOutside={(event) => {
          if (codes) {
            event.preventDefault();
          }
        }}
      >
        {codes ? (
          <RecoveryCodesPanel codes={codes} email={email} />
        ) : (
          <form onSubmit={onSubmit} noValidate className="space-y-5">
            {serverError ? <Alert tone="error">{serverError}</Alert> : null}
            <TwoFactorCodeField
              isRecovery={isRecovery}
              onToggle={() => {
                setRecovery((was) => !was);
                form.setValue('code', '');
                form.clearErrors('code');
                form.setFocus('code');
              }}
              error={form.formState.errors.code?.message}
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
              <Button type="submit" isLoading={form.formState.isSubmitting}>
                Make new codes
              </Button>
            </div>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

import { groupSecret, type TwoFactorSetupResponse, twoFactorMessages } from '@bytegate/contracts/two-factor';
import { ShieldCheckIcon } from 'lucide-react';
import { type RefObject, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { ApiError, errorMessage } from '../../../api/api-client.ts';
import { useConfirmTwoFactor, useHasPassword, useStartTwoFactorSetup } from '../../../api/use-security.ts';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { CopyButton } from '../../../components/ui/copy-button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../../components/ui/dialog.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { useSession } from '../../../session/session-store.ts';
import { RecoveryCodesPanel } from './recovery-codes-panel.tsx';

const FAILED = 'Two-factor authentication could not be turned on. Please try again.';

type Step =
  | { name: 'password' }
  | { name: 'scan'; setup: TwoFactorSetupResponse }
  | { name: 'codes'; recoveryCodes: string[] };

const TITLES: Record<Step['name'], { title: string; description: string }> = {
  password: {
    title: 'Turn on two-factor authentication',
    description: 'Enter your password to start. You will need an authenticator app on your phone.',
  },
  scan: {
    title: 'Scan the QR code',
    description: 'Add Bytegate to your authenticator app, then enter the code it shows.',
  },
  codes: {
    title: 'Save your recovery codes',
    description: 'Two-factor authentication is on. Keep these codes for when your phone is not at hand.',
  },
};

/**
 * Enrolment in three steps of one dialog: the password; the secret as a QR code (and as text to type,
 * in groups of four, and as a link for a phone) with the first code from the app; then the recovery
 * codes, this once. A click beside the dialog never throws away codes not yet saved.
 */
export function EnableTwoFactorDialog({
  hasTrigger,
  returnFocusTo,
}: {
  /** Whether the Turn on button shows: not once it is on (the dialog stays open for the recovery codes). */
  hasTrigger: boolean;
  /** Where focus goes when the dialog closes with its trigger gone. */
  returnFocusTo: RefObject<HTMLElement | null>;
}) {
  const [isOpen, setOpen] = useState(false);
  const [step, setStep] = useState<Step>({ name: 'password' });
  const start = useStartTwoFactorSetup();
  /** An account created with Google without a password starts on its session alone. */
  const hasPassword = useHasPassword();
  const confirm = useConfirmTwoFactor();
  const email = useSession()?.user.email ?? null;
  const passwordForm = useForm<{ password: string }>({ defaultValues: { password: '' } });
  const codeForm = useForm<{ code: string }>({ defaultValues: { code: '' } });
  const [serverError, setServerError] = useState<string | null>(null);

  const reset = () => {
    setStep({ name: 'password' });
    passwordForm.reset({ password: '' });
    codeForm.reset({ code: '' });
    setServerError(null);
    start.reset();
    confirm.reset();
  };

  const onPassword = passwordForm.handleSubmit(async ({ password }) => {
    setServerError(null);
    try {
      const setup = await start.mutateAsync(hasPassword ? { password } : {});
      passwordForm.reset({ password: '' });
      setStep({ name: 'scan', setup });
    } catch (error) {
      const message = errorMessage(error, FAILED);
      if (error instanceof ApiError && error.code === 'WRONG_PASSWORD') {
        passwordForm.setError('password', { type: 'server', message }, { shouldFocus: true });
      } else {
        setServerError(message);
      }
    }
  });

  const onCode = codeForm.handleSubmit(async ({ code }) => {
    setServerError(null);
    try {
      const { recoveryCodes } = await confirm.mutateAsync({ code });
      codeForm.reset({ code: '' });
      setStep({ name: 'codes', recoveryCodes });
      toast.success(twoFactorMessages.enabled);
    } catch (error) {
      const message = errorMessage(error, FAILED);
      if (error instanceof ApiError && error.code === 'INVALID_TWO_FACTOR_CODE') {
        codeForm.setValue('code', '');
        codeForm.clearErrors('code');
        codeForm.setError('code', { type: 'server', message }, { shouldFocus: true });
      } else {
        setServerError(message);
      }
    }
  });

  const { title } = TITLES[step.name];
  const description =
    step.name === 'password' && !hasPassword
      ? 'You will need an authenticator app on your phone.'
      : TITLES[step.name].description;
  return (
    <Dialog
      open={isOpen}
      onOpenChange={(open) => {
        setOpen(open);
        if (!open) {
          reset();
        }
      }}
    >
      {hasTrigger ? (
        <DialogTrigger asChild>
          <Button type="button" size="sm">
            <ShieldCheckIcon aria-hidden="true" />
            Turn on
          </Button>
        </DialogTrigger>
      ) : null}
      <DialogContent
        title={title}
        description={description}
        className="max-h-[calc(100dvh-2rem)] max-w-lg overflow-y-auto"
        onInteractOutside={(event) => {
          if (step.name !== 'password') {
            event.preventDefault();
          }
        }}
        onCloseAutoFocus={(event) => {
          if (!hasTrigger) {
            event.preventDefault();
            returnFocusTo.current?.focus();
          }
        }}
      >
        {serverError ? (
          <Alert tone="error" className="mb-4">
            {serverError}
          </Alert>
        ) : null}
        {step.name === 'password' ? (
          <form onSubmit={onPassword} noValidate className="space-y-5">
            {hasPassword ? (
              <FormField
                label="Password"
                type="password"
                autoComplete="current-password"
                error={passwordForm.formState.errors.password?.message}
                {...passwordForm.register('password', {
                  validate: (value) => value !== '' || 'Password is required',
                })}
              />
            ) : null}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <DialogClose asChild>
                <Button type="button" variant="secondary">
                  Cancel
                </Button>
              </DialogClose>
              <Button type="submit" isLoading={passwordForm.formState.isSubmitting}>
                Continue
              </Button>
            </div>
          </form>
        ) : step.name === 'scan' ? (
          <form onSubmit={onCode} noValidate className="space-y-5">
            <ScanInstructions setup={step.setup} />
            <FormField
              label="Code from the app"
              type="text"
              autoComplete="one-time-code"
              inputMode="numeric"
              autoCapitalize="none"
              spellCheck={false}
              placeholder="123456"
              maxLength={10}
              className="font-mono tracking-widest"
              error={codeForm.formState.errors.code?.message}
              {...codeForm.register('code', {
                validate: (value) => value.trim() !== '' || twoFactorMessages.codeRequired,
              })}
            />
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <DialogClose asChild>
                <Button type="button" variant="secondary">
                  Cancel
                </Button>
              </DialogClose>
              <Button type="submit" isLoading={codeForm.formState.isSubmitting}>
                Turn on
              </Button>
            </div>
          </form>
        ) : (
          <RecoveryCodesPanel codes={step.recoveryCodes} email={email} />
        )}
      </DialogContent>
    </Dialog>
  );
}

/** The secret three ways: the QR code, the key to type (grouped for reading), and a link for a phone. */
function ScanInstructions({ setup }: { setup: TwoFactorSetupResponse }) {
  return (
    <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
      <img
        src={setup.qrCodeDataUrl}
        alt="QR code to add Bytegate to your authenticator app"
        width={176}
        height={176}
        className="size-44 shrink-0 rounded-lg border border-gray-200 bg-white"
      />
      <div className="min-w-0 space-y-2 text-sm text-gray-600">
        <p>
          Scan it with Google Authenticator, 1Password, Authy or any app for time-based codes. Can't scan it?
          Enter this key:
        </p>
        <div className="flex items-center gap-2">
          <code
            data-testid="two-factor-secret"
            className="min-w-0 rounded-md bg-gray-100 px-2 py-1 font-mono text-sm break-words text-gray-900"
          >
            {groupSecret(setup.secret)}
          </code>
          <CopyButton text={setup.secret} what="key" variant="ghost" />
        </div>
        <p>
          On this phone?{' '}
          <a
            href={setup.otpauthUri}
            className="font-medium text-brand-600 hover:underline focus-visible:outline-2 focus-visible:outline-brand-500"
          >
            Open in your authenticator app
          </a>
        </p>
      </div>
    </div>
  );
}

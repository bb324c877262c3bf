import {
  API_KEY_SCOPE_LABELS,
  API_KEY_SCOPES,
  type CreateApiKeyBody,
  type CreatedApiKey,
  createApiKeyBodySchema,
} from '@bytegate/contracts/api-keys';
import { googleMessages } from '@bytegate/contracts/google';
import { twoFactorMessages } from '@bytegate/contracts/two-factor';
import { zodResolver } from '@hookform/resolvers/zod';
import { PlusIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { errorMessage } from '../../api/api-client.ts';
import { useCreateApiKey } from '../../api/use-api-keys.ts';
import { useHasPassword, useIsTwoFactorOn, useRefreshSecurityStatus } from '../../api/use-security.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogClose, DialogContent, DialogTrigger } from '../../components/ui/dialog.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { Label } from '../../components/ui/label.tsx';
import { TwoFactorCodeField } from '../auth/two-factor-code-field.tsx';
import {
  DEFAULT_EXPIRY_DAYS,
  describeExpiryChoice,
  EXPIRY_CHOICES,
  expiryValue,
  fieldOfCreateError,
  parseExpiryValue,
} from './api-key-format.ts';
import { NewApiKeySecret } from './new-api-key-secret.tsx';
import { mayHaveUsedCode } from './two-factor/reauth-errors.ts';

const FAILED = 'Failed to create the API key. Please try again.';
const defaultValues: CreateApiKeyBody = {
  name: '',
  scopes: ['read'],
  expires_in_days: DEFAULT_EXPIRY_DAYS,
  password: '',
  code: '',
};

/**
 * "Create API Key": a name, the scopes (read by default), an expiry and the account password, checked
 * with the server's own schema; then, in the same dialog, the secret, shown this once.
 */
export function CreateApiKeyDialog() {
  const create = useCreateApiKey();
  const isTwoFactorOn = useIsTwoFactorOn();
  const hasPassword = useHasPassword();
  const refreshSecurity = useRefreshSecurityStatus();
  const [isRecovery, setRecovery] = useState(false);
  const [isOpen, setOpen] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const form = useForm<CreateApiKeyBody, unknown, z.output<typeof createApiKeyBodySchema>>({
    resolver: zodResolver(createApiKeyBodySchema),
    defaultValues,
  });
  const { errors, isSubmitting } = form.formState;
  const expiresInDays = useWatch({ control: form.control, name: 'expires_in_days' }) ?? null;
  const ids = { scopes: useId(), expiry: useId() };
  const scopesErrorId = `${ids.scopes}-error`;
  const expiryHintId = `${ids.expiry}-hint`;

  const onSubmit = form.handleSubmit(async ({ code, ...values }) => {
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
      const answer = await create.mutateAsync({ ...values, ...(isTwoFactorOn && code ? { code } : {}) });
      form.reset(defaultValues);
      setCreated(answer);
      toast.success('API key created');
      if (isTwoFactorOn) {
        void refreshSecurity();
      }
    } catch (error) {
      const message = errorMessage(error, FAILED);
      const field = fieldOfCreateError(error);
      if (isTwoFactorOn && mayHaveUsedCode(error)) {
        void refreshSecurity();
      }
      if (field === 'code') {
        form.setValue('code', '');
      }
      if (field) {
        form.setError(field, { type: 'server', message }, { shouldFocus: true });
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
          // The secret leaves memory with the dialog: it is never shown again.
          form.reset(defaultValues);
          setRecovery(false);
          setServerError(null);
          setCreated(null);
          create.reset();
        }
      }}
    >
      <DialogTrigger asChild>
        <Button type="button" size="sm">
          <PlusIcon aria-hidden="true" />
          Create API Key
        </Button>
      </DialogTrigger>
      <DialogContent
        title={created ? 'Copy your key now' : 'Create API Key'}
        description={
          created
            ? `“${created.key.name}” is ready. Copy its secret and keep it somewhere safe.`
            : 'Name the key, choose what it may do and how long it lasts, and confirm with your password.'
        }
        className="max-h-[calc(100dvh-2rem)] max-w-lg overflow-y-auto"
        // A stray click beside the dialog must not throw away a secret not yet copied.
        onInteractOutside={(event) => {
          if (created) {
            event.preventDefault();
          }
        }}
      >
        {created ? (
          <NewApiKeySecret secret={created.secret} />
        ) : (
          <form onSubmit={onSubmit} noValidate className="space-y-5">
            {serverError ? <Alert tone="error">{serverError}</Alert> : null}
            {hasPassword ? null : <Alert tone="warning">{googleMessages.setPasswordBeforeApiKeys}</Alert>}
            <FormField
              label="Name"
              placeholder="e.g. Billing script"
              autoComplete="off"
              spellCheck={false}
              error={errors.name?.message}
              {...form.register('name')}
            />
            <fieldset className="space-y-1.5" aria-describedby={errors.scopes ? scopesErrorId : undefined}>
              <legend className="mb-1.5 text-sm font-medium text-gray-800">Scopes</legend>
              <div className="divide-y divide-gray-100 rounded-lg border border-gray-200">
                {API_KEY_SCOPES.map((scope) => {
                  const id = `${ids.scopes}-${scope}`;
                  return (
                    <div key={scope} className="flex items-start gap-3 px-3 py-2.5">
                      <input
                        id={id}
                        type="checkbox"
                        value={scope}
                        aria-describedby={`${id}-description`}
                        className="mt-0.5 size-4 shrink-0 rounded border-gray-300 accent-brand-600"
                        {...form.register('scopes')}
                      />
                      <div className="min-w-0 text-sm">
                        <Label htmlFor={id} className="cursor-pointer text-gray-900">
                          {API_KEY_SCOPE_LABELS[scope].title}
                        </Label>
                        <p id={`${id}-description`} className="text-gray-500">
                          {API_KEY_SCOPE_LABELS[scope].description}
                        </p>
                      </div>
                    </div>
                  );
                })}
              </div>
              {errors.scopes?.message ? (
                <p id={scopesErrorId} role="alert" className="text-sm text-red-600">
                  {errors.scopes.message}
                </p>
              ) : null}
            </fieldset>
            <div className="space-y-1.5">
              <Label htmlFor={ids.expiry}>Expires</Label>
              <select
                id={ids.expiry}
                aria-describedby={
                  errors.expires_in_days ? `${ids.expiry}-error ${expiryHintId}` : expiryHintId
                }
                aria-invalid={errors.expires_in_days ? true : undefined}
                className="block h-10 w-full rounded-lg border border-gray-300 bg-white px-3 text-sm text-gray-900 shadow-xs focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none"
                {...form.register('expires_in_days', { setValueAs: parseExpiryValue })}
              >
                {EXPIRY_CHOICES.map((choice) => (
                  <option key={choice.label} value={expiryValue(choice.days)}>
                    {choice.label}
                  </option>
                ))}
              </select>
              {errors.expires_in_days?.message ? (
                <p id={`${ids.expiry}-error`} role="alert" className="text-sm text-red-600">
                  {errors.expires_in_days.message}
                </p>
              ) : null}
              <p id={expiryHintId} className="text-sm text-gray-500">
                {describeExpiryChoice(expiresInDays)}
              </p>
            </div>
            <FormField
              label="Current Password"
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
            <div className="flex flex-col-reverse gap-2 pt-1 sm:flex-row sm:justify-end">
              <DialogClose asChild>
                <Button type="button" variant="secondary">
                  Cancel
                </Button>
              </DialogClose>
              <Button type="submit" isLoading={isSubmitting}>
                Create Key
              </Button>
            </div>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

import { type ProfileForm, profileFormSchema } from '@bytegate/contracts/account';
import { accountLinkMessages } from '@bytegate/contracts/account-links';
import { messages } from '@bytegate/contracts/messages';
import { twoFactorMessages } from '@bytegate/contracts/two-factor';
import { zodResolver } from '@hookform/resolvers/zod';
import { MailIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { ApiError, errorMessage } from '../../api/api-client.ts';
import { useCancelEmailChange, useProfile, useUpdateProfile } from '../../api/use-profile.ts';
import { useIsTwoFactorOn, useRefreshSecurityStatus } from '../../api/use-security.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Badge } from '../../components/ui/badge.tsx';
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
import { useSession } from '../../session/session-store.ts';
import { TwoFactorCodeField } from '../auth/two-factor-code-field.tsx';
import { fieldOfReauthError, mayHaveUsedCode } from './two-factor/reauth-errors.ts';

const FAILED = 'Failed to update profile. Please try again.';

/**
 * Profile details, saved on the server. Names and company change at once (the header too); a new email
 * takes the current password and waits for the link mailed to it, which the card shows until then.
 */
export function ProfileCard() {
  const session = useSession();
  const profile = useProfile();
  const updateProfile = useUpdateProfile();
  const cancelEmailChange = useCancelEmailChange();
  const [serverError, setServerError] = useState<string | null>(null);
  const isTwoFactorOn = useIsTwoFactorOn();
  const refreshSecurity = useRefreshSecurityStatus();
  const [isRecovery, setRecovery] = useState(false);
  const pendingId = useId();
  const titleId = useId();
  // The session's copy shows at once; the server's answer replaces it when it arrives.
  const user = profile.data?.user ?? session?.user;
  const pendingEmail = profile.data?.pendingEmail ?? null;
  const form = useForm<ProfileForm>({
    resolver: zodResolver(profileFormSchema),
    values: {
      firstName: user?.firstName ?? '',
      lastName: user?.lastName ?? '',
      email: user?.email ?? '',
      company: user?.company ?? '',
      currentPassword: '',
      code: '',
    },
  });
  const { errors, isSubmitting } = form.formState;
  const typedEmail = form.watch('email').trim().toLowerCase();
  const isEmailChange = Boolean(user) && typedEmail !== '' && typedEmail !== user?.email;

  const onSubmit = form.handleSubmit(async ({ currentPassword, code, ...values }) => {
    setServerError(null);
    if (isEmailChange && !currentPassword) {
      form.setError('currentPassword', { message: accountLinkMessages.emailChangeNeedsPassword });
      return;
    }
    const needsCode = isEmailChange && isTwoFactorOn;
    if (needsCode && !code) {
      form.setError(
        'code',
        { message: isRecovery ? twoFactorMessages.recoveryCodeRequired : twoFactorMessages.codeRequired },
        { shouldFocus: true },
      );
      return;
    }
    try {
      const saved = await updateProfile.mutateAsync({
        ...values,
        currentPassword: isEmailChange ? currentPassword : undefined,
        ...(needsCode && code ? { code } : {}),
      });
      form.reset({
        firstName: saved.user.firstName,
        lastName: saved.user.lastName,
        email: saved.user.email,
        company: saved.user.company ?? '',
        currentPassword: '',
        code: '',
      });
      if (needsCode) {
        void refreshSecurity();
      }
      toast.success(
        messages.profileUpdated,
        isEmailChange && saved.pendingEmail
          ? { description: accountLinkMessages.emailChangeSent(saved.pendingEmail) }
          : undefined,
      );
    } catch (error) {
      const message = errorMessage(error, FAILED);
      if (needsCode && mayHaveUsedCode(error)) {
        void refreshSecurity();
      }
      if (fieldOfReauthError(error) === 'code') {
        form.setValue('code', '');
        form.setError('code', { type: 'server', message }, { shouldFocus: true });
      } else if (
        error instanceof ApiError &&
        (error.code === 'WRONG_PASSWORD' || error.body.field === 'currentPassword')
      ) {
        form.setError('currentPassword', { message });
      } else if (error instanceof ApiError && error.code === 'EMAIL_TAKEN') {
        form.setError('email', { message });
      } else {
        setServerError(message);
      }
      toast.error(message);
    }
  });

  const onCancelChange = async () => {
    try {
      await cancelEmailChange.mutateAsync();
      toast.success(accountLinkMessages.emailChangeCancelled);
    } catch (error) {
      toast.error(errorMessage(error, 'Failed to cancel the email change. Please try again.'));
    }
  };

  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Profile</CardTitle>
        <CardDescription>Your name and contact details.</CardDescription>
      </CardHeader>
      <form onSubmit={onSubmit} noValidate>
        <CardContent className="grid gap-5 sm:grid-cols-2">
          {serverError ? (
            <Alert tone="error" className="sm:col-span-2">
              {serverError}
            </Alert>
          ) : null}
          {pendingEmail ? (
            <Alert
              id={pendingId}
              tone="info"
              className="flex flex-col gap-3 sm:col-span-2 sm:flex-row sm:items-center sm:justify-between"
            >
              <span className="flex items-start gap-3">
                <MailIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                <span>
                  Your email changes to <strong className="font-medium wrap-anywhere">{pendingEmail}</strong>{' '}
                  once you follow the link we sent there. Until then you sign in with{' '}
                  <span className="wrap-anywhere">{user?.email}</span>.
                </span>
              </span>
              <Button
                type="button"
                size="sm"
                variant="secondary"
                className="shrink-0"
                isLoading={cancelEmailChange.isPending}
                onClick={() => void onCancelChange()}
              >
                Cancel change
              </Button>
            </Alert>
          ) : null}
          <FormField
            label="First Name"
            autoComplete="given-name"
            error={errors.firstName?.message}
            {...form.register('firstName')}
          />
          <FormField
            label="Last Name"
            autoComplete="family-name"
            error={errors.lastName?.message}
            {...form.register('lastName')}
          />
          <div className="space-y-1.5">
            <FormField
              label="Email"
              type="email"
              autoComplete="email"
              error={errors.email?.message}
              aria-describedby={pendingEmail ? pendingId : undefined}
              {...form.register('email')}
            />
            {user && !isEmailChange ? (
              <p className="text-sm">
                {user.emailVerified ? (
                  <Badge tone="success">Verified</Badge>
                ) : (
                  <Badge tone="warning">Not verified</Badge>
                )}
              </p>
            ) : null}
          </div>
          <FormField
            label="Company"
            hint="(optional)"
            autoComplete="organization"
            error={errors.company?.message}
            {...form.register('company')}
          />
          {isEmailChange ? (
            <div className="space-y-2 sm:col-span-2 sm:max-w-sm">
              <FormField
                label="Current Password"
                type="password"
                autoComplete="current-password"
                hint="(to change your email)"
                error={errors.currentPassword?.message}
                {...form.register('currentPassword')}
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
              <p className="text-sm text-gray-600">
                We will send a link to the new address; your email changes once you follow it.
              </p>
            </div>
          ) : null}
        </CardContent>
        <CardFooter>
          <Button type="submit" isLoading={isSubmitting}>
            Save Changes
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}

import { type ResetPasswordForm, resetPasswordFormSchema } from '@bytegate/contracts/account-links';
import { ACCOUNT_LINK_PAGES } from '@bytegate/contracts/routes';
import { zodResolver } from '@hookform/resolvers/zod';
import { CircleCheckIcon } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearchParams } from 'react-router';
import { ApiError, errorMessage } from '../../api/api-client.ts';
import { useResetPassword } from '../../api/use-account-links.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { AuthLayout } from '../../features/auth/auth-layout.tsx';
import { useHydrated } from '../../lib/use-hydrated.ts';

const FAILED = 'Failed to reset the password. Please try again.';
const NO_TOKEN = 'This link is incomplete: open it exactly as it is in the email, or ask for a new one.';

/**
 * Where a password reset link leads: a new password, twice. Nobody is signed in afterwards: the page
 * sends the person to sign in with it (where a second factor is asked for too, if the account has one).
 */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const isHydrated = useHydrated();
  // Read once the app runs: the prerendered page (and its hydration) knows no address bar.
  const token = isHydrated ? params.get('token') : null;
  const resetPassword = useResetPassword();
  const [failure, setFailure] = useState<{ message: string; isLinkDead: boolean } | null>(null);
  const [isDone, setDone] = useState(false);
  const form = useForm<ResetPasswordForm>({
    resolver: zodResolver(resetPasswordFormSchema),
    defaultValues: { password: '', confirmPassword: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ password }) => {
    setFailure(null);
    try {
      await resetPassword.mutateAsync({ token: token ?? '', password });
      setDone(true);
    } catch (error) {
      const isLinkDead = error instanceof ApiError && error.code === 'INVALID_LINK';
      setFailure({ message: errorMessage(error, FAILED), isLinkDead });
    }
  });

  const askAgain = (
    <Link
      to={ACCOUNT_LINK_PAGES.forgotPassword}
      className="font-medium text-brand-600 underline underline-offset-4 hover:text-brand-700"
    >
      Ask for a new link
    </Link>
  );

  return (
    <AuthLayout
      title={isDone ? 'Password changed' : 'Choose a new password'}
      subtitle={
        <>
          Remembered it?{' '}
          <Link to="/login" className="font-medium text-brand-600 hover:text-brand-700">
            Sign in
          </Link>
        </>
      }
    >
      {isDone ? (
        <div className="space-y-5">
          <Alert tone="info" className="flex items-start gap-3">
            <CircleCheckIcon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
            <span>
              Your password has been reset. Sign in with your new password. Every device that was signed in
              has been signed out; your proxy credentials work as before.
            </span>
          </Alert>
          <Button asChild size="lg" className="w-full">
            <Link to="/login">Sign In</Link>
          </Button>
        </div>
      ) : isHydrated && !token ? (
        <Alert tone="error" className="space-y-2">
          <p>{NO_TOKEN}</p>
          <p>{askAgain}</p>
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-5">
          {failure ? (
            <Alert tone="error" className="space-y-2">
              <p>{failure.message}</p>
              {failure.isLinkDead ? <p>{askAgain}</p> : null}
            </Alert>
          ) : null}
          <FormField
            label="New Password"
            type="password"
            autoComplete="new-password"
            hint="(at least 8 characters)"
            error={errors.password?.message}
            {...form.register('password')}
          />
          <FormField
            label="Confirm New Password"
            type="password"
            autoComplete="new-password"
            error={errors.confirmPassword?.message}
            {...form.register('confirmPassword')}
          />
          <Button type="submit" className="w-full" size="lg" isLoading={isSubmitting} disabled={!isHydrated}>
            Set New Password
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}

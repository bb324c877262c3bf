import { type ForgotPasswordForm, forgotPasswordFormSchema } from '@bytegate/contracts/account-links';
import { messages } from '@bytegate/contracts/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { MailCheckIcon } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { errorMessage } from '../../api/api-client.ts';
import { useForgotPassword } from '../../api/use-account-links.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { AuthLayout } from '../../features/auth/auth-layout.tsx';
import { useBotCheck } from '../../features/auth/use-bot-check.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';

const FAILED = 'Failed to send the reset link. Please try again.';

/** "Forgot your password?": asks for the account's email and mails a link to set a new password. */
export function ForgotPasswordPage() {
  const forgotPassword = useForgotPassword();
  const botCheck = useBotCheck('password_reset');
  const isHydrated = useHydrated();
  const [formError, setFormError] = useState<string | null>(null);
  const [sent, setSent] = useState<{ email: string; message: string } | null>(null);
  const form = useForm<ForgotPasswordForm>({
    resolver: zodResolver(forgotPasswordFormSchema),
    defaultValues: { email: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      const recaptchaToken = await botCheck.getToken();
      const { message } = await forgotPassword.mutateAsync({ ...values, recaptchaToken });
      setSent({ email: values.email, message });
    } catch (error) {
      setFormError(
        errorMessage(
          error,
          error instanceof Error && error.message === messages.recaptchaLoadFailed ? error.message : FAILED,
        ),
      );
    }
  });

  return (
    <AuthLayout
      title="Reset your password"
      subtitle={
        <>
          Remembered it?{' '}
          <Link to="/login" className="font-medium text-brand-600 hover:text-brand-700">
            Sign in
          </Link>
        </>
      }
    >
      {sent ? (
        <div className="space-y-5">
          <Alert tone="info" className="flex items-start gap-3">
            <MailCheckIcon className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
            <span>{sent.message}</span>
          </Alert>
          <p className="text-sm text-gray-600">
            Nothing from us in a few minutes? Check your spam folder, make sure{' '}
            <strong className="font-medium wrap-anywhere text-gray-900">{sent.email}</strong> is the address
            you signed up with, or{' '}
            <button
              type="button"
              className="font-medium text-brand-600 underline-offset-4 hover:text-brand-700 hover:underline"
              onClick={() => setSent(null)}
            >
              ask again
            </button>
            .
          </p>
          <Button asChild variant="secondary" className="w-full">
            <Link to="/login">Back to sign in</Link>
          </Button>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className="space-y-5">
          <p className="text-sm text-gray-600">
            Enter the email of your account and we will send you a link to choose a new password.
          </p>
          {formError ? <Alert tone="error">{formError}</Alert> : null}
          {botCheck.error && !formError ? <Alert tone="error">{botCheck.error}</Alert> : null}
          <FormField
            label="Email"
            type="email"
            autoComplete="email"
            error={errors.email?.message}
            {...form.register('email')}
          />
          <Button type="submit" className="w-full" size="lg" isLoading={isSubmitting} disabled={!isHydrated}>
            Send Reset Link
          </Button>
        </form>
      )}
    </AuthLayout>
  );
}

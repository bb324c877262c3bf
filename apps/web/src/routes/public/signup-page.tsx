import { type SignupForm, signupFormSchema } from '@bytegate/contracts/auth';
import { googleMessages } from '@bytegate/contracts/google';
import { messages } from '@bytegate/contracts/messages';
import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { errorMessage } from '../../api/api-client.ts';
import { useSignup } from '../../api/use-auth.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { AuthLayout } from '../../features/auth/auth-layout.tsx';
import { GoogleSignInButton } from '../../features/auth/google-button.tsx';
import { useBotCheck } from '../../features/auth/use-bot-check.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';

export function SignupPage() {
  const navigate = useNavigate();
  const signup = useSignup();
  const botCheck = useBotCheck('signup');
  const isHydrated = useHydrated();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<SignupForm>({
    resolver: zodResolver(signupFormSchema),
    defaultValues: { firstName: '', lastName: '', email: '', company: '', password: '', confirmPassword: '' },
  });
  const { errors, isSubmitting } = form.formState;

  // The schema already refused mismatched passwords ('Passwords do not match'): nothing is sent then.
  const onSubmit = form.handleSubmit(async ({ confirmPassword: _confirm, ...values }) => {
    setFormError(null);
    try {
      const recaptchaToken = await botCheck.getToken();
      await signup.mutateAsync({ ...values, recaptchaToken });
      toast.success(messages.signupSuccess);
      void navigate('/dashboard', { replace: true });
    } catch (error) {
      const fallback =
        error instanceof Error && error.message === messages.recaptchaLoadFailed
          ? error.message
          : messages.signupFailed;
      const message = errorMessage(error, fallback);
      setFormError(message);
      toast.error(message);
    }
  });

  return (
    <AuthLayout
      title="Create your account"
      subtitle={
        <>
          Already have an account?{' '}
          <Link to="/login" className="font-medium text-brand-600 hover:text-brand-700">
            Sign in
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        {formError ? <Alert tone="error">{formError}</Alert> : null}
        {botCheck.error && !formError ? <Alert tone="error">{botCheck.error}</Alert> : null}
        <div className="grid gap-5 sm:grid-cols-2">
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
        </div>
        <FormField
          label="Email"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...form.register('email')}
        />
        <FormField
          label="Company"
          hint="(optional)"
          autoComplete="organization"
          error={errors.company?.message}
          {...form.register('company')}
        />
        <FormField
          label="Password"
          type="password"
          autoComplete="new-password"
          error={errors.password?.message}
          {...form.register('password')}
        />
        <FormField
          label="Confirm Password"
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...form.register('confirmPassword')}
        />
        <Button type="submit" className="w-full" size="lg" isLoading={isSubmitting} disabled={!isHydrated}>
          Create Account
        </Button>
        <p className="text-center text-xs text-gray-500">
          By creating an account you agree to our{' '}
          <Link to="/terms" className="underline hover:text-gray-700">
            Terms of Service
          </Link>{' '}
          and{' '}
          <Link to="/privacy" className="underline hover:text-gray-700">
            Privacy Policy
          </Link>
          .
        </p>
      </form>
      <GoogleSignInButton label={googleMessages.signUpButton} />
    </AuthLayout>
  );
}

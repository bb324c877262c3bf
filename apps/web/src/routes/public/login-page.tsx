import { type LoginForm, loginFormSchema } from '@bytegate/contracts/auth';
import { googleMessages } from '@bytegate/contracts/google';
import { messages } from '@bytegate/contracts/messages';
import { ACCOUNT_LINK_PAGES } from '@bytegate/contracts/routes';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { toast } from 'sonner';
import { ApiError, errorMessage } from '../../api/api-client.ts';
import { useLogin } from '../../api/use-auth.ts';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { FormField } from '../../components/ui/form-field.tsx';
import { AuthLayout } from '../../features/auth/auth-layout.tsx';
import { GoogleSignInButton } from '../../features/auth/google-button.tsx';
import { readGoogleReturn } from '../../features/auth/google-return.ts';
import { SignInLinkOffer } from '../../features/auth/sign-in-link-offer.tsx';
import { TwoFactorStep } from '../../features/auth/two-factor-step.tsx';
import { useBotCheck } from '../../features/auth/use-bot-check.ts';
import { useHydrated } from '../../lib/use-hydrated.ts';

export function LoginPage() {
  const navigate = useNavigate();
  const login = useLogin();
  const botCheck = useBotCheck('login');
  const isHydrated = useHydrated();
  const [formError, setFormError] = useState<string | null>(null);
  /** Two-factor on: the password passed, and this sign-in waits for a code. */
  const [challengeToken, setChallengeToken] = useState<string | null>(null);
  /** The account is locked by failed sign-ins elsewhere: its owner may ask for a sign-in link. */
  const [locked, setLocked] = useState<{ email: string; message: string } | null>(null);
  const form = useForm<LoginForm>({
    resolver: zodResolver(loginFormSchema),
    defaultValues: { email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  // Back from Google (the server put what happened in the fragment): the two-factor step of a Google
  // sign-in, or why it did not finish. Read once, then dropped from the address bar and the history.
  const { hash } = useLocation();
  useEffect(() => {
    const fromGoogle = readGoogleReturn(hash);
    if (!fromGoogle) {
      return;
    }
    void navigate('/login', { replace: true });
    if (fromGoogle.kind === 'two-factor') {
      setChallengeToken(fromGoogle.challengeToken);
    } else if (fromGoogle.kind === 'error') {
      setFormError(fromGoogle.message);
      toast.error(fromGoogle.message);
    }
  }, [hash, navigate]);

  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    setLocked(null);
    try {
      const recaptchaToken = await botCheck.getToken();
      const result = await login.mutateAsync({ ...values, recaptchaToken });
      if ('twoFactorRequired' in result) {
        setChallengeToken(result.challengeToken);
        return;
      }
      toast.success(messages.loginSuccess);
      void navigate('/dashboard', { replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'ACCOUNT_LOCKED') {
        setLocked({ email: values.email, message: error.message });
        return;
      }
      const message = errorMessage(
        error,
        error instanceof Error && error.message === messages.recaptchaLoadFailed
          ? error.message
          : messages.loginFailed,
      );
      setFormError(message);
      toast.error(message);
    }
  });

  if (challengeToken) {
    return (
      <AuthLayout
        title="Two-factor authentication"
        subtitle="Enter the code from your authenticator app to finish signing in."
      >
        <TwoFactorStep
          challengeToken={challengeToken}
          onSignedIn={() => void navigate('/dashboard', { replace: true })}
          onBack={(reason) => {
            setChallengeToken(null);
            setFormError(reason ?? null);
            form.setValue('password', '');
          }}
        />
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Sign in to Bytegate"
      subtitle={
        <>
          New here?{' '}
          <Link to="/signup" className="font-medium text-brand-600 hover:text-brand-700">
            Create an account
          </Link>
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate className="space-y-5">
        {formError ? <Alert tone="error">{formError}</Alert> : null}
        {locked ? <SignInLinkOffer key={locked.email} email={locked.email} message={locked.message} /> : null}
        {botCheck.error && !formError ? <Alert tone="error">{botCheck.error}</Alert> : null}
        <FormField
          label="Email"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...form.register('email')}
        />
        <div className="space-y-1.5">
          <FormField
            label="Password"
            type="password"
            autoComplete="current-password"
            error={errors.password?.message}
            {...form.register('password')}
          />
          <div className="text-right">
            <Link
              to={ACCOUNT_LINK_PAGES.forgotPassword}
              className="text-sm text-brand-600 hover:text-brand-700 hover:underline"
            >
              Forgot your password?
            </Link>
          </div>
        </div>
        <Button type="submit" className="w-full" size="lg" isLoading={isSubmitting} disabled={!isHydrated}>
          Sign In
        </Button>
      </form>
      <GoogleSignInButton label={googleMessages.signInButton} />
    </AuthLayout>
  );
}

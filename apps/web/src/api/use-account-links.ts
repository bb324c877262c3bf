import type {
  ForgotPasswordRequest,
  ResetPasswordRequest,
  SignInLinkRequest,
  SignInWithLinkRequest,
  VerifyEmailRequest,
} from '@bytegate/contracts/account-links';
import { useMutation } from '@tanstack/react-query';
import { sessionStore } from '../session/session-store.ts';
import { api } from './api-client.ts';
import { refreshMe } from './auth-session.ts';

export function useForgotPassword() {
  return useMutation({ mutationFn: (body: ForgotPasswordRequest) => api.accountLinks.forgotPassword(body) });
}

/**
 * Sets a new password with a reset link. The server signed the account out everywhere; this tab
 * forgets the session too when it was that account's.
 */
export function useResetPassword() {
  return useMutation({
    mutationFn: (body: ResetPasswordRequest) => api.accountLinks.resetPassword(body),
    onSuccess: ({ email }) => {
      if (sessionStore.get()?.user.email === email) {
        sessionStore.signOut();
      }
    },
  });
}

/** Follows a verification link; a signed-in tab then reads its user again (verified, or its new email). */
export function useVerifyEmail() {
  return useMutation({
    mutationFn: (body: VerifyEmailRequest) => api.accountLinks.verifyEmail(body),
    onSuccess: async () => {
      if (sessionStore.get()) {
        await refreshMe().catch(() => undefined);
      }
    },
  });
}

/** "Email me a sign-in link" on the sign-in page of a locked account. */
export function useRequestSignInLink() {
  return useMutation({ mutationFn: (body: SignInLinkRequest) => api.accountLinks.requestSignInLink(body) });
}

/** Signs in with a mailed sign-in link: the session, or a two-factor challenge still to pass. */
export function useSignInWithLink() {
  return useMutation({
    mutationFn: (body: SignInWithLinkRequest) => api.accountLinks.signInWithLink(body),
    onSuccess: (result) => {
      if ('user' in result) {
        sessionStore.signIn(result);
      }
    },
  });
}

export function useResendVerification() {
  return useMutation({ mutationFn: () => api.accountLinks.resendVerification() });
}

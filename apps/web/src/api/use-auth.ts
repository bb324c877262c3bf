import type { LoginRequest, LoginTwoFactorRequest, SignupRequest } from '@bytegate/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { sessionStore } from '../session/session-store.ts';
import { api } from './api-client.ts';

/** The password step: signed in at once, or (two-factor on) answered a challenge for `useLoginTwoFactor`. */
export function useLogin() {
  return useMutation({
    mutationFn: (body: LoginRequest) => api.auth.login(body),
    onSuccess: (result) => {
      if ('user' in result) {
        sessionStore.signIn(result);
      }
    },
  });
}

/** The code step of a sign-in with two-factor on. */
export function useLoginTwoFactor() {
  return useMutation({
    mutationFn: (body: LoginTwoFactorRequest) => api.auth.loginTwoFactor(body),
    onSuccess: (result) => sessionStore.signIn(result),
  });
}

export function useSignup() {
  return useMutation({
    mutationFn: (body: SignupRequest) => api.auth.signup(body),
    onSuccess: (result) => sessionStore.signIn(result),
  });
}

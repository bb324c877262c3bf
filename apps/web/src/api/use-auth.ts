import type { CookieAuthResponse, LoginRequest, SignupRequest } from '@bytegate/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { sessionStore } from '../features/auth/session-store.ts';
import { apiRequest } from './api-client.ts';

// The browser signs in with a cookie session: the token stays in an httpOnly cookie, out of reach of
// scripts, and the answer carries the CSRF token instead.

export function useLogin() {
  return useMutation({
    mutationFn: (body: LoginRequest) =>
      apiRequest<CookieAuthResponse>('POST', '/auth/login', {
        body: { ...body, session: 'cookie' },
        auth: false,
      }),
    onSuccess: (result) => sessionStore.signIn(result),
  });
}

export function useSignup() {
  return useMutation({
    mutationFn: (body: SignupRequest) =>
      apiRequest<CookieAuthResponse>('POST', '/auth/signup', {
        body: { ...body, session: 'cookie' },
        auth: false,
      }),
    onSuccess: (result) => sessionStore.signIn(result),
  });
}

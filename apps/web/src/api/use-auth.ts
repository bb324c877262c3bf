import type { AuthResponse, LoginRequest, SignupRequest } from '@bytegate/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { sessionStore } from '../features/auth/session-store.ts';
import { apiRequest } from './api-client.ts';

export function useLogin() {
  return useMutation({
    mutationFn: (body: LoginRequest) =>
      apiRequest<AuthResponse>('POST', '/auth/login', { body, auth: false }),
    onSuccess: (result) => sessionStore.signIn(result),
  });
}

export function useSignup() {
  return useMutation({
    mutationFn: (body: SignupRequest) =>
      apiRequest<AuthResponse>('POST', '/auth/signup', { body, auth: false }),
    onSuccess: (result) => sessionStore.signIn(result),
  });
}

import type { LoginRequest, SignupRequest } from '@bytegate/contracts/auth';
import { useMutation } from '@tanstack/react-query';
import { sessionStore } from '../session/session-store.ts';
import { api } from './api-client.ts';

export function useLogin() {
  return useMutation({
    mutationFn: (body: LoginRequest) => api.auth.login(body),
    onSuccess: (result) => sessionStore.signIn(result),
  });
}

export function useSignup() {
  return useMutation({
    mutationFn: (body: SignupRequest) => api.auth.signup(body),
    onSuccess: (result) => sessionStore.signIn(result),
  });
}

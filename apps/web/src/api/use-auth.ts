import type { AuthResponse, LoginRequest, MeResponse, SignupRequest } from '@bytegate/contracts/auth';
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

/** Signs out locally whatever the server answers, after asking it to revoke the token. */
export async function logout(): Promise<void> {
  try {
    await apiRequest('POST', '/auth/logout', { auth: true });
  } catch {
    // The token may already be gone; the local session ends either way.
  }
  sessionStore.signOut();
}

/** Refreshes the stored copy of the user (name, balance) from the server. */
export async function refreshMe(): Promise<void> {
  const { user } = await apiRequest<MeResponse>('GET', '/auth/me');
  sessionStore.updateUser(user);
}

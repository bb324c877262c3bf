import type { ChangePasswordRequest, DeleteAccountRequest } from '@bytegate/contracts/account';
import { useMutation } from '@tanstack/react-query';
import { sessionStore } from '../features/auth/session-store.ts';
import { apiRequest } from './api-client.ts';

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordRequest) => apiRequest('PUT', '/user-settings/password', { body }),
  });
}

export function useDeleteAccount() {
  return useMutation({
    mutationFn: (body: DeleteAccountRequest) => apiRequest('DELETE', '/user-settings/account', { body }),
    onSuccess: () => sessionStore.signOut(),
  });
}

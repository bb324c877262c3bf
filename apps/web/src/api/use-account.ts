import type { ChangePasswordRequest, DeleteAccountRequest } from '@bytegate/contracts/account';
import { useMutation } from '@tanstack/react-query';
import { sessionStore } from '../session/session-store.ts';
import { api } from './api-client.ts';

export function useChangePassword() {
  return useMutation({
    mutationFn: (body: ChangePasswordRequest) => api.userSettings.changePassword(body),
  });
}

export function useDeleteAccount() {
  return useMutation({
    mutationFn: (body: DeleteAccountRequest) => api.userSettings.deleteAccount(body),
    onSuccess: () => sessionStore.signOut(),
  });
}

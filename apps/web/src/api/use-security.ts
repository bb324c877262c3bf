import type {
  DisableTwoFactorRequest,
  RecoveryCodesResponse,
  SecurityStatusResponse,
  StartTwoFactorSetupRequest,
  TwoFactorCodeRequest,
  TwoFactorStatus,
} from '@bytegate/contracts/two-factor';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from './query-keys.ts';
import { twoFactorApi } from './two-factor-client.ts';

/** How the account is protected (two-factor's status), for the Security card and the dialogs that ask for a code. */
export function useSecurityStatus() {
  return useQuery({ queryKey: queryKeys.security, queryFn: () => twoFactorApi.getSecurity() });
}

/** Whether actions asked again (password change, deletion, API keys) need a two-factor code. */
export function useIsTwoFactorOn(): boolean {
  return useSecurityStatus().data?.twoFactor.enabled ?? false;
}

function setTwoFactor(queryClient: QueryClient, twoFactor: TwoFactorStatus) {
  queryClient.setQueryData<SecurityStatusResponse>(queryKeys.security, (known) =>
    known ? { ...known, twoFactor } : known,
  );
  return queryClient.invalidateQueries({ queryKey: queryKeys.security });
}

export function useStartTwoFactorSetup() {
  return useMutation({
    mutationFn: (body: StartTwoFactorSetupRequest) => twoFactorApi.startSetup(body),
    // The answer holds the secret: the cache lets go of it with the dialog.
    gcTime: 0,
  });
}

export function useConfirmTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TwoFactorCodeRequest) => twoFactorApi.confirm(body),
    gcTime: 0,
    onSuccess: ({ twoFactor }: RecoveryCodesResponse) => setTwoFactor(queryClient, twoFactor),
  });
}

export function useRegenerateRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TwoFactorCodeRequest) => twoFactorApi.regenerateRecoveryCodes(body),
    gcTime: 0,
    onSuccess: ({ twoFactor }: RecoveryCodesResponse) => setTwoFactor(queryClient, twoFactor),
  });
}

export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DisableTwoFactorRequest) => twoFactorApi.disable(body),
    onSuccess: (twoFactor) => setTwoFactor(queryClient, twoFactor),
  });
}

/** After an action asked again used a code: a recovery code may have been spent, so the count is read again. */
export function useRefreshSecurityStatus() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: queryKeys.security });
}

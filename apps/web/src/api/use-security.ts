import type { SetPasswordRequest } from '@bytegate/contracts/google';
import type {
  DisableTwoFactorRequest,
  RecoveryCodesResponse,
  SecurityStatusResponse,
  StartTwoFactorSetupRequest,
  TwoFactorCodeRequest,
  TwoFactorStatus,
} from '@bytegate/contracts/two-factor';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { googleApi } from './google-client.ts';
import { queryKeys } from './query-keys.ts';
import { twoFactorApi } from './two-factor-client.ts';

/**
 * How the account is protected and signs in (two-factor, the Google account linked, whether it has a
 * password), for the Security card and the forms that ask for a password or a code.
 */
export function useSecurityStatus() {
  return useQuery({ queryKey: queryKeys.security, queryFn: () => twoFactorApi.getSecurity() });
}

/**
 * Whether actions asked again (password change, deletion, API keys) need a two-factor code: as the
 * account's status says, or, before it has arrived, as the server said when it refused one without a code.
 */
export function useIsTwoFactorOn(): boolean {
  const enabled = useSecurityStatus().data?.twoFactor.enabled;
  const wasAsked = useQuery({
    queryKey: queryKeys.twoFactorAsked,
    queryFn: () => false,
    enabled: false,
    initialData: false,
  }).data;
  return enabled ?? wasAsked;
}

function setTwoFactor(queryClient: QueryClient, twoFactor: TwoFactorStatus) {
  queryClient.setQueryData<SecurityStatusResponse>(queryKeys.security, (known) =>
    known ? { ...known, twoFactor } : known,
  );
  return queryClient.invalidateQueries({ queryKey: queryKeys.security });
}

/**
 * Whether the account has a password (false: created with Google, none set yet). True while unknown,
 * so the forms that ask for it show as for most accounts until the status arrives.
 */
export function useHasPassword(): boolean {
  return useSecurityStatus().data?.hasPassword ?? true;
}

/** "Connect Google": answers Google's authorization URL, where the caller sends the browser. */
export function useConnectGoogle() {
  return useMutation({ mutationFn: () => googleApi.connect() });
}

export function useDisconnectGoogle() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => googleApi.disconnect(),
    onSuccess: (status) => queryClient.setQueryData(queryKeys.security, status),
  });
}

/** The first password of an account created with Google: the Security status then says it has one. */
export function useSetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SetPasswordRequest) => googleApi.setPassword(body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.security }),
  });
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

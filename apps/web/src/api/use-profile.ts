import type { ProfileResponse, UpdateProfileRequest } from '@bytegate/contracts/account';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sessionStore } from '../session/session-store.ts';
import { api } from './api-client.ts';
import { refreshMe } from './auth-session.ts';
import { queryKeys } from './query-keys.ts';

/** The profile: the user and the new email a change waits on. */
export function useProfile() {
  return useQuery({ queryKey: queryKeys.profile, queryFn: () => api.userSettings.getProfile() });
}

/** Keeps what the server answered everywhere at once: the profile, and the session's user (the header). */
function useKeepProfile() {
  const queryClient = useQueryClient();
  return (profile: ProfileResponse) => {
    queryClient.setQueryData(queryKeys.profile, profile);
    sessionStore.updateUser(profile.user);
  };
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  const keep = useKeepProfile();
  return useMutation({
    mutationFn: (body: UpdateProfileRequest) => api.userSettings.updateProfile(body),
    onSuccess: keep,
    // A change of email whose link could not be mailed still saved the names: read them again.
    onError: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.profile }),
        refreshMe().catch(() => undefined),
      ]),
  });
}

export function useCancelEmailChange() {
  const keep = useKeepProfile();
  return useMutation({ mutationFn: () => api.userSettings.cancelEmailChange(), onSuccess: keep });
}

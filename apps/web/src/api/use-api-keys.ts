import type { ApiKey, CreateApiKeyBody } from '@bytegate/contracts/api-keys';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiKeysApi } from './api-keys-client.ts';
import { queryKeys } from './query-keys.ts';

/** The account's API keys, newest first. */
export function useApiKeys() {
  return useQuery({
    queryKey: queryKeys.apiKeys,
    queryFn: async () => (await apiKeysApi.list()).keys,
  });
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateApiKeyBody) => apiKeysApi.create(body),
    // The answer holds the secret: the cache lets go of it as soon as the dialog does (reset()).
    gcTime: 0,
    onSuccess: async ({ key }) => {
      queryClient.setQueryData<ApiKey[]>(queryKeys.apiKeys, (known) => [key, ...(known ?? [])]);
      await queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys });
    },
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) => apiKeysApi.revoke(keyId),
    onSuccess: (_answer, keyId) =>
      queryClient.setQueryData<ApiKey[]>(queryKeys.apiKeys, (known) =>
        known?.filter((key) => key.id !== keyId),
      ),
    // A key revoked elsewhere answers 404: the list is read again either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys }),
  });
}

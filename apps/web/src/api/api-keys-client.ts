import type { ApiKey, CreateApiKeyBody, CreatedApiKey } from '@bytegate/contracts/api-keys';
import type { OkResponse } from '@bytegate/contracts/auth';
import { defineApiSection } from './api-client.ts';

// The account's API keys (issue 17), managed from User Settings. A section of its own, so that only the
// dashboard, which shows them, loads it.

export const apiKeysApi = defineApiSection((request) => ({
  /** The account's keys, newest first; never their secrets. */
  list: () => request<{ keys: ApiKey[] }>('GET', '/user-settings/api-keys'),
  /** A new key and its secret, which no later answer carries again. */
  create: (body: CreateApiKeyBody) => request<CreatedApiKey>('POST', '/user-settings/api-keys', { body }),
  revoke: (keyId: string) =>
    request<OkResponse>('DELETE', `/user-settings/api-keys/${encodeURIComponent(keyId)}`),
}));

import type { CreateProxyUserBody, ProxyUser, ProxyUserFields } from '@bytegate/contracts/proxy-users';
import { type InfiniteData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client.ts';
import { type ProxyUserPage, proxyUsersApi } from './proxy-users-client.ts';
import { queryKeys } from './query-keys.ts';

/** How many proxy users a page of the list holds; "Show more" loads the next. */
export const PROXY_USERS_PAGE_SIZE = 50;
/** How often an open list reads its users again, so usage bars move as traffic is carried. */
const USAGE_REFRESH_MS = 15_000;

type Pages = InfiniteData<ProxyUserPage, string | null>;

/** A plan's proxy users, oldest first, a page at a time; kept fresh while shown. */
export function useProxyUsers(planId: string) {
  return useInfiniteQuery({
    queryKey: queryKeys.proxyUsers(planId),
    queryFn: ({ pageParam }) =>
      proxyUsersApi.list(planId, { cursor: pageParam, limit: PROXY_USERS_PAGE_SIZE }),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
    refetchInterval: USAGE_REFRESH_MS,
  });
}

function mapUsers(data: Pages | undefined, change: (users: ProxyUser[]) => ProxyUser[]): Pages | undefined {
  return (
    data && { ...data, pages: data.pages.map((page) => ({ ...page, proxy_users: change(page.proxy_users) })) }
  );
}

/** Puts a changed user in place of its old self, wherever the loaded pages hold it. */
function useReplaceInList(planId: string) {
  const queryClient = useQueryClient();
  return (user: ProxyUser) =>
    queryClient.setQueryData<Pages>(queryKeys.proxyUsers(planId), (data) =>
      mapUsers(data, (users) => users.map((known) => (known.id === user.id ? user : known))),
    );
}

export function useCreateProxyUser(planId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CreateProxyUserBody) => (await proxyUsersApi.create(planId, body)).proxy_user,
    onSuccess: async (created) => {
      // Oldest first: a new user ends the list, when its last page is loaded.
      queryClient.setQueryData<Pages>(queryKeys.proxyUsers(planId), (data) => {
        const last = data?.pages.at(-1);
        if (!data || !last || last.next_cursor !== null) {
          return data;
        }
        return {
          ...data,
          pages: [...data.pages.slice(0, -1), { ...last, proxy_users: [...last.proxy_users, created] }],
        };
      });
      await queryClient.invalidateQueries({ queryKey: queryKeys.proxyUsers(planId) });
    },
  });
}

/** Changes a user's fields (absent: unchanged; null clears); `enabled` alone is the list's switch. */
export function useUpdateProxyUser(planId: string) {
  const replace = useReplaceInList(planId);
  return useMutation({
    mutationFn: async ({ id, fields }: { id: string; fields: ProxyUserFields }) =>
      (await proxyUsersApi.update(id, fields)).proxy_user,
    onSuccess: replace,
  });
}

/** A new password for a user: the old one is refused at once. */
export function useRegenerateProxyUserPassword(planId: string) {
  const replace = useReplaceInList(planId);
  return useMutation({
    mutationFn: async (id: string) => (await proxyUsersApi.regeneratePassword(id)).proxy_user,
    onSuccess: replace,
  });
}

export function useDeleteProxyUser(planId: string) {
  const queryClient = useQueryClient();
  const drop = (id: string) =>
    queryClient.setQueryData<Pages>(queryKeys.proxyUsers(planId), (data) =>
      mapUsers(data, (users) => users.filter((user) => user.id !== id)),
    );
  return useMutation({
    mutationFn: (id: string) => proxyUsersApi.remove(id),
    onSuccess: (_answer, id) => drop(id),
    onError: (error, id) => {
      // Deleted elsewhere meanwhile: it is gone all the same.
      if (error instanceof ApiError && error.status === 404) {
        drop(id);
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.proxyUsers(planId) }),
  });
}

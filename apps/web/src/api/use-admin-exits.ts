import type { AddExitRequest, ExitActionRequest, ImportExitsRequest } from '@bytegate/contracts/admin-exits';
import {
  keepPreviousData,
  type QueryClient,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { adminExitsApi, type ExitAction, type ExitsFilter } from './admin-exits-client.ts';
import { queryKeys } from './query-keys.ts';

// The console's exit inventory (issue 15): the list (read again every 15 s, so an exit the health job
// takes out shows without a reload) and the changes, after which the list, the health view and the
// audit log are read again.

/** This module's keys, under the console's `admin` keys. */
export const exitKeys = {
  all: ['admin', 'exits'] as const,
  list: (filter: ExitsFilter) => ['admin', 'exits', filter] as const,
  health: ['admin', 'health'] as const,
};

/** How often the open exits page reads the inventory again (the probe runs on its own schedule). */
const EXITS_REFRESH_MS = 15_000;

async function settle(queryClient: QueryClient) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: exitKeys.all }),
    queryClient.invalidateQueries({ queryKey: exitKeys.health }),
    queryClient.invalidateQueries({ queryKey: queryKeys.admin.allAudit }),
  ]);
}

/** One page of exits under the filters, with their health. */
export function useExits(filter: ExitsFilter) {
  return useQuery({
    queryKey: exitKeys.list(filter),
    queryFn: () => adminExitsApi.list(filter),
    placeholderData: keepPreviousData,
    refetchInterval: EXITS_REFRESH_MS,
  });
}

export function useAddExit() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AddExitRequest) => adminExitsApi.add(body),
    onSuccess: () => settle(queryClient),
  });
}

export function useImportExits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ImportExitsRequest) => adminExitsApi.import(body),
    onSuccess: () => settle(queryClient),
  });
}

/** Disable, enable, put back into rotation or remove one exit, with a reason. */
export function useExitAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ exitId, action, ...body }: ExitActionRequest & { exitId: string; action: ExitAction }) =>
      adminExitsApi.act(exitId, action, body),
    onSuccess: () => settle(queryClient),
  });
}
